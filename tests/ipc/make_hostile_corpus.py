#!/usr/bin/env python3
"""Writes the hostile-input corpus of the IPC reader: tests/ipc/corpus/.

    make_hostile_corpus.py [OUTDIR]     (default: the corpus/ folder beside this script)

Every file is a small Arrow IPC file or stream, crafted with ipc_builder.py
(valid ones, then truncated, bit-flipped, or given lying lengths, huge counts,
bad compression frames, undefined dictionary ids, garbage flatbuffer offsets,
a big-endian flag...). OUTDIR/EXPECTED lists, for each file, a substring its
error message must contain; "*" marks a file that may be read or rejected
(random bit flips), as long as the reader neither crashes nor hangs. The
valid inputs are written too (expected "OK"), and pyarrow checks that they
are valid, which keeps the builder honest. Needs pyarrow (for the LZ4 and
ZSTD codecs and the check). Deterministic.
"""

import os
import random
import struct
import sys

import pyarrow as pa
import pyarrow.ipc as ipc

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ipc_builder import (DICTIONARY_BATCH, RECORD_BATCH, SCHEMA, TENSOR, V4, V5, Body, EOS,  # noqa: E402
                         Str, Table, Vec, batch_message, bitmap, dictionary_batch, dictionary_message,
                         encapsulate, field, file, flatbuffer, int32s, int64s, int_type, message,
                         record_batch, schema, schema_message, stream)

CASES = []  # (name, bytes, expected substring)


def case(name, data, expected):
    CASES.append((name, bytes(data), expected))


# ---------------------------------------------------------------------------
# Valid inputs.

INT32 = int_type(32)
UTF8 = ("Utf8", Table())


def int_column_schema(**kwargs):
    return schema([field("n", INT32, **kwargs)])


def int_column_batch(values, valid=None, codec=None, compress=None):
    body = Body()
    validity = bitmap(valid) if valid else b""
    for data in (validity, int32s(values)):
        body.add(compress(data) if compress and data else data)
    nulls = valid.count(False) if valid else 0
    return record_batch(len(values), [(len(values), nulls)], body.buffers, codec), bytes(body.data)


def string_batch(strings, offsets=None, length=None):
    data = b"".join(s.encode() for s in strings)
    if offsets is None:
        offsets = [0]
        for s in strings:
            offsets.append(offsets[-1] + len(s.encode()))
    body = Body().add(b"").add(int32s(offsets)).add(data)
    n = len(strings) if length is None else length
    return record_batch(n, [(n, 0)], body.buffers), bytes(body.data)


STRING_SCHEMA = schema([field("s", UTF8)])
VALUES = [1, -2, 3, 2147483647, -2147483648, 0, 7]
VALID = [True, True, False, True, True, True, False]


def valid_inputs():
    batch, body = int_column_batch(VALUES, VALID)
    case("valid_int32.arrows", stream(int_column_schema(), [batch_message(batch, body)]), "OK")
    case("valid_int32.arrow", file(int_column_schema(), [], [batch_message(batch, body)]), "OK")
    case("valid_int32_legacy.arrows",
         encapsulate(message(SCHEMA, int_column_schema(), 0), legacy=True)
         + encapsulate(message(RECORD_BATCH, batch, len(body)), body, legacy=True) + struct.pack("<i", 0), "OK")
    case("valid_int32_v4.arrows", stream(int_column_schema(), [batch_message(batch, body, version=V4)]), "OK")
    case("valid_no_eos.arrows", stream(int_column_schema(), [batch_message(batch, body)], eos=False), "OK")
    batch, body = string_batch(["ab", "", "cdef", "g"])
    case("valid_utf8.arrows", stream(STRING_SCHEMA, [batch_message(batch, body)]), "OK")
    # Compressed bodies, including the -1 "stored uncompressed" prefix.
    lz4 = pa.Codec("lz4")
    zstd = pa.Codec("zstd")
    for name, codec_id, codec in (("lz4", 0, lz4), ("zstd", 1, zstd)):
        frame = lambda data, c=codec: struct.pack("<q", len(data)) + c.compress(data, asbytes=True)
        batch, body = int_column_batch(VALUES, VALID, codec_id, frame)
        case(f"valid_{name}.arrows", stream(int_column_schema(), [batch_message(batch, body)]), "OK")
    stored = lambda data: struct.pack("<q", -1) + data
    batch, body = int_column_batch(VALUES, VALID, 1, stored)
    case("valid_zstd_stored_uncompressed.arrows", stream(int_column_schema(), [batch_message(batch, body)]), "OK")
    # A dictionary-encoded column.
    dict_schema = schema([field("d", UTF8, dictionary=(7, (8, True)))])
    words = Body().add(b"").add(int32s([0, 3, 6])).add(b"onetwo")
    dictionary = dictionary_batch(7, record_batch(2, [(2, 0)], words.buffers))
    indices = Body().add(b"").add(bytes([1, 0, 1]))
    batch = record_batch(3, [(3, 0)], indices.buffers)
    case("valid_dictionary.arrows", stream(dict_schema, [dictionary_message(dictionary, bytes(words.data)),
                                                        batch_message(batch, bytes(indices.data))]), "OK")
    case("valid_dictionary.arrow", file(dict_schema, [dictionary_message(dictionary, bytes(words.data))],
                                        [batch_message(batch, bytes(indices.data))]), "OK")


def check_valid_with_pyarrow():
    for name, data, expected in CASES:
        if expected != "OK":
            continue
        reader = ipc.open_file(pa.py_buffer(data)) if data[:6] == b"ARROW1" else ipc.open_stream(data)
        table = reader.read_all()
        table.validate(full=True)


# ---------------------------------------------------------------------------
# Hostile inputs.


def framing():
    batch, body = int_column_batch(VALUES, VALID)
    good_stream = stream(int_column_schema(), [batch_message(batch, body)])
    good_file = file(int_column_schema(), [], [batch_message(batch, body)])
    case("empty.arrows", b"", "empty input")
    case("magic_only.arrow", b"ARROW1\0\0", "truncated file")
    case("file_without_trailing_magic.arrow", good_file[:-3], "does not end with it")
    case("file_footer_length_huge.arrow", good_file[:-10] + struct.pack("<i", 0x7FFFFFF0) + b"ARROW1",
         "footer length")
    case("file_footer_length_negative.arrow", good_file[:-10] + struct.pack("<i", -5) + b"ARROW1",
         "footer length")
    case("wrong_magic.arrow", b"ARROW2" + good_file[6:], "not an Arrow IPC file or stream")
    case("stream_truncated_in_length.arrows", good_stream[:6], "truncated input")
    cut = len(schema_message(int_column_schema())) + 20
    case("stream_truncated_in_metadata.arrows", good_stream[:cut], "the message metadata")
    case("stream_truncated_in_body.arrows", good_stream[:len(good_stream) - 16], "the message body")
    case("negative_metadata_length.arrows", struct.pack("<Ii", 0xFFFFFFFF, -64) + bytes(64),
         "negative metadata length")
    case("schema_missing.arrows", EOS, "ends before its schema")
    case("batch_first.arrows", batch_message(batch, body) + EOS, "not a Schema")
    case("second_schema.arrows", stream(int_column_schema(), [schema_message(int_column_schema())]),
         "second Schema")
    case("metadata_v3.arrows", encapsulate(message(SCHEMA, int_column_schema(), 0, version=2)),
         "before Arrow 0.8")
    case("tensor_message.arrows", stream(int_column_schema(), [encapsulate(message(TENSOR, Table(), 0))]),
         "Tensor")
    case("unknown_header_type.arrows", stream(int_column_schema(), [encapsulate(message(9, Table(), 0))]),
         "unknown header type")
    case("body_length_negative.arrows",
         stream(int_column_schema(), [encapsulate(message(RECORD_BATCH, batch, -8), body)]),
         "negative body length")
    case("body_length_huge.arrows",
         stream(int_column_schema(), [encapsulate(message(RECORD_BATCH, batch, 1 << 40), body)]),
         "the message body")
    # File blocks that lie.
    footer_start = len(good_file) - 10 - struct.unpack_from("<i", good_file, len(good_file) - 10)[0]
    data = bytearray(good_file)
    block = data.find(struct.pack("<q", 8 + len(schema_message(int_column_schema()))), footer_start)
    struct.pack_into("<q", data, block, 1 << 40)
    case("file_block_offset_huge.arrow", data, "does not lie between")
    data = bytearray(good_file)
    struct.pack_into("<q", data, block + 16, 1 << 20)
    case("file_block_body_length_wrong.arrow", data, "does not lie between")
    data = bytearray(good_file)
    struct.pack_into("<q", data, block + 16, len(body) - 8)
    case("file_block_disagrees.arrow", data, "disagree with the message")
    data = bytearray(good_file)
    struct.pack_into("<qi4xq", data, block, 8, len(schema_message(int_column_schema())), 0)
    case("file_block_points_to_schema.arrow", data, "holds a Schema message")


def flatbuffers():
    sm = schema_message(int_column_schema())
    batch, body = int_column_batch(VALUES, VALID)
    tail = batch_message(batch, body) + EOS
    # Root offset pointing outside the metadata.
    data = bytearray(sm)
    struct.pack_into("<I", data, 8, 0x7FFFFFFF)
    case("root_offset_outside.arrows", data + tail, "malformed flatbuffer")
    # A vtable offset pointing outside the buffer, and a table pointing into itself.
    data = bytearray(sm)
    root = 8 + struct.unpack_from("<I", data, 8)[0]
    struct.pack_into("<i", data, root, -0x10000)
    case("vtable_outside.arrows", data + tail, "malformed flatbuffer")
    data = bytearray(sm)
    struct.pack_into("<i", data, root, 0)
    case("vtable_is_table.arrows", data + tail, "malformed flatbuffer")
    # Garbage everywhere in the metadata (deterministic).
    rng = random.Random(7)
    data = bytearray(sm)
    for i in range(16, len(data)):
        data[i] = rng.randrange(256)
    case("metadata_garbage.arrows", data + tail, "message 0")
    # A vector claiming far more elements than the buffer holds.
    huge = schema([field("n", INT32)])
    huge.fields[1] = ("off", Vec("off", [field("n", INT32)], count=0x10000000))
    case("fields_count_huge.arrows", schema_message(huge) + tail, "runs past")
    # Field tables shared so that the tree is enormous (a DAG), and a deep one.
    leaf = field("x", INT32)
    level = leaf
    for _ in range(3):
        level = field("s", ("Struct_", Table()), children=[level] * 100)
    case("fields_dag_explosion.arrows", stream(schema([level]), []), "more than 65536 fields")
    deep = field("x", INT32)
    for _ in range(100):
        deep = field("l", ("List", Table()), children=[deep])
    case("fields_too_deep.arrows", stream(schema([deep]), []), "deeper than 64")
    # A vtable that claims a field beyond its table.
    bad = Table({0: ("i32", 32), 1: ("bool", 1)}, vtable_override=[8, 8, 200, 4])
    case("field_beyond_table.arrows", stream(schema([field("n", ("Int", bad))]), []), "runs past its table")
    case("field_type_missing.arrows",
         stream(schema([Table({0: ("off", Str("n")), 2: ("u8", 2)})]), []), "has no type")


def types():
    case("big_endian.arrows", stream(schema([field("n", INT32)], endianness=1), []), "big-endian")
    union = ("Union", Table({0: ("i16", 1)}))
    case("union.arrows", stream(schema([field("u", union, children=[field("a", INT32)])]), []),
         "union types are not supported")
    case("unknown_type_id.arrows", stream(schema([field("x", (99, Table()))]), []), "unknown type id 99")
    case("int_width_12.arrows", stream(schema([field("x", int_type(12))]), []), "invalid integer bit width")
    case("decimal_width_100.arrows",
         stream(schema([field("x", ("Decimal", Table({0: ("i32", 5), 1: ("i32", 2), 2: ("i32", 100)})))]), []),
         "invalid decimal bit width")
    case("list_without_child.arrows", stream(schema([field("l", ("List", Table()))]), []),
         "list takes 1 child")
    case("map_child_not_struct.arrows",
         stream(schema([field("m", ("Map", Table()), children=[field("e", INT32)])]), []),
         "a map's child must be a struct")
    case("run_ends_float.arrows",
         stream(schema([field("r", ("RunEndEncoded", Table()),
                              children=[field("e", ("FloatingPoint", Table({0: ("i16", 2)}))), field("v", INT32)])]),
                []), "run ends must be int16")
    case("dictionary_id_two_types.arrows",
         stream(schema([field("a", UTF8, dictionary=(1, (32, True))), field("b", INT32, dictionary=(1, (32, True)))]),
                []), "different value types")


def batches():
    s = int_column_schema()
    def one(batch, body, name, expected):
        case(name, stream(s, [batch_message(batch, body)]), expected)
    batch, body = int_column_batch(VALUES, VALID)
    one(record_batch(1 << 40, [(len(VALUES), 2)], Body().add(bitmap(VALID)).add(int32s(VALUES)).buffers), body,
        "batch_rows_2_pow_40.arrows", "claims 1099511627776 rows")
    one(record_batch(7, [(1 << 40, 2)], Body().add(bitmap(VALID)).add(int32s(VALUES)).buffers), body,
        "node_length_2_pow_40.arrows", "above the limit")
    one(record_batch(7, [(7, 9)], Body().add(bitmap(VALID)).add(int32s(VALUES)).buffers), body,
        "null_count_above_length.arrows", "null count 9")
    one(record_batch(7, [(7, -1)], Body().add(bitmap(VALID)).add(int32s(VALUES)).buffers), body,
        "null_count_negative.arrows", "null count -1")
    one(record_batch(7, [(7, 2)], [(0, 1), (8, 1 << 40)]), body, "buffer_length_huge.arrows",
        "outside the")
    one(record_batch(7, [(7, 2)], [(0, 1), (-8, 28)]), body, "buffer_offset_negative.arrows", "outside the")
    one(record_batch(7, [(7, 2)], [(0, 1), (8, 12)]), body, "values_buffer_short.arrows", "too short for 7 values")
    one(record_batch(70, [(70, 2)], [(0, 1), (8, 280)]), body + bytes(256), "validity_short.arrows",
        "validity bitmap of 1 bytes")
    one(record_batch(7, [(7, 2)], [(0, 1)]), body, "buffers_missing.arrows", "fewer than its schema needs")
    one(record_batch(7, [(7, 2), (7, 0)], [(0, 1), (8, 28)]), body, "nodes_extra.arrows",
        "2 field nodes but its schema describes 1")
    one(record_batch(7, [(7, 2)], [(0, 1), (8, 28), (0, 0)]), body, "buffers_extra.arrows",
        "3 buffers but its schema describes 2")
    one(record_batch(7, [], []), body, "nodes_missing.arrows", "fewer than its schema needs")
    one(record_batch(9, [(7, 2)], [(0, 1), (8, 28)]), body, "column_shorter_than_batch.arrows",
        "shorter than the batch")
    # Strings: offsets that decrease, point past the data, or start negative.
    def strings(offsets, name, expected):
        batch, body = string_batch(["ab", "", "cdef", "g"], offsets)
        case(name, stream(STRING_SCHEMA, [batch_message(batch, body)]), expected)
    strings([0, 2, 1, 6, 7], "offsets_decrease.arrows", "offsets decrease")
    strings([0, 2, 2, 6, 4000], "offsets_past_data.arrows", "too short")
    strings([-4, 2, 2, 6, 7], "offsets_negative.arrows", "offsets run from -4")
    strings([0, 2, 2, 6], "offsets_short.arrows", "offsets buffer of 16 bytes is too short")


def compression():
    s = int_column_schema()
    lz4 = pa.Codec("lz4")
    zstd = pa.Codec("zstd")
    values = int32s(VALUES * 50)
    for name, codec_id, codec in (("lz4", 0, lz4), ("zstd", 1, zstd)):
        frame = codec.compress(values, asbytes=True)
        def one(data, label, expected, claim=len(values)):
            body = Body().add(b"").add(struct.pack("<q", claim) + data)
            batch = record_batch(350, [(350, 0)], body.buffers, codec_id)
            case(f"{name}_{label}.arrows", stream(s, [batch_message(batch, bytes(body.data))]), expected)
        corrupt = bytearray(frame)
        for i in range(len(corrupt) // 2, len(corrupt)):
            corrupt[i] ^= 0x5A
        label = name.upper()
        one(bytes(corrupt), "corrupt_frame", label)
        one(frame[:len(frame) // 2], "truncated_frame", "truncated")
        one(frame, "claims_more", "its length prefix claims 1440", claim=len(values) + 40)
        one(frame, "claims_less", f"more than the {len(values) - 40} bytes", claim=len(values) - 40)
        one(frame, "claims_2_pow_40", "claims 1099511627776 uncompressed bytes", claim=1 << 40)
        one(frame, "claims_negative", "claims -7 uncompressed bytes", claim=-7)
        one(b"\x00" * 16, "garbage_frame", label)
        one(frame + frame, "two_frames", "more than the 1400 bytes")
        if name == "zstd":  # the format allows one LZ4 frame per buffer
            one(frame + frame, "two_frames_valid", "OK", claim=2 * len(values))
    body = Body().add(b"").add(b"\x01\x02\x03")
    batch = record_batch(7, [(7, 0)], body.buffers, 1)
    case("compressed_buffer_without_prefix.arrows", stream(s, [batch_message(batch, bytes(body.data))]),
         "no 8-byte uncompressed length prefix")
    batch = record_batch(7, [(7, 0)], body.buffers, 5)
    case("unknown_codec.arrows", stream(s, [batch_message(batch, bytes(body.data))]),
         "unknown body compression codec 5")


def dictionaries():
    dict_schema = schema([field("d", UTF8, dictionary=(7, (8, True)))])
    words = Body().add(b"").add(int32s([0, 3, 6])).add(b"onetwo")
    dictionary = dictionary_message(dictionary_batch(7, record_batch(2, [(2, 0)], words.buffers)),
                                    bytes(words.data))
    def indices(values, valid=None):
        body = Body().add(bitmap(valid) if valid else b"").add(bytes(v & 0xFF for v in values))
        nulls = valid.count(False) if valid else 0
        return batch_message(record_batch(len(values), [(len(values), nulls)], body.buffers), bytes(body.data))
    case("dictionary_undefined.arrows", stream(dict_schema, [indices([0, 1])]), "has not been defined")
    case("dictionary_index_out_of_range.arrows", stream(dict_schema, [dictionary, indices([0, 1, 2])]),
         "dictionary index 2 is outside the 2-value dictionary")
    case("dictionary_index_negative.arrows", stream(dict_schema, [dictionary, indices([0, -1])]),
         "dictionary index -1")
    case("dictionary_null_index_ignored.arrows",
         stream(dict_schema, [dictionary, indices([0, 100, 1], [True, False, True])]), "OK")
    other = dictionary_message(dictionary_batch(8, record_batch(2, [(2, 0)], words.buffers)), bytes(words.data))
    case("dictionary_unknown_id.arrows", stream(dict_schema, [other]), "no field of the schema uses")
    case("dictionary_replaced_in_file.arrow", file(dict_schema, [dictionary, dictionary], [indices([0])]),
         "defined twice")
    bad = dictionary_message(dictionary_batch(7, record_batch(2, [(2, 0)], [(0, 0), (8, 12), (24, 6)])),
                             bytes(words.data))
    case("dictionary_body_lies.arrows", stream(dict_schema, [bad, indices([0])]), "dictionary id 7")
    delta = dictionary_message(dictionary_batch(7, record_batch(2, [(2, 0)], words.buffers), delta=True),
                               bytes(words.data))
    case("dictionary_delta_valid.arrows", stream(dict_schema, [dictionary, delta, indices([3, 2, 1, 0])]), "OK")
    case("dictionary_delta_out_of_range.arrows", stream(dict_schema, [dictionary, delta, indices([4])]),
         "outside the 4-value dictionary")


def nested_and_views():
    # List offsets past the child.
    list_schema = schema([field("l", ("List", Table()), children=[field("item", INT32)])])
    body = Body().add(b"").add(int32s([0, 2, 9])).add(b"").add(int32s([1, 2, 3]))
    batch = record_batch(2, [(2, 0), (3, 0)], body.buffers)
    case("list_offsets_past_child.arrows", stream(list_schema, [batch_message(batch, bytes(body.data))]),
         "shorter than the 9 elements")
    # List views outside the child.
    view_schema = schema([field("l", ("ListView", Table()), children=[field("item", INT32)])])
    body = Body().add(b"").add(int32s([0, 2])).add(int32s([2, 5])).add(b"").add(int32s([1, 2, 3]))
    batch = record_batch(2, [(2, 0), (3, 0)], body.buffers)
    case("list_view_outside_child.arrows", stream(view_schema, [batch_message(batch, bytes(body.data))]),
         "list view [2, +5)")
    # String views pointing at a missing buffer or past the data.
    sv_schema = schema([field("v", ("Utf8View", Table()))])
    def views(view_bytes, data, variadic, name, expected):
        body = Body().add(b"").add(view_bytes)
        for d in data:
            body.add(d)
        batch = record_batch(1, [(1, 0)], body.buffers, variadic=variadic)
        case(name, stream(sv_schema, [batch_message(batch, bytes(body.data))]), expected)
    long_view = lambda index, offset: struct.pack("<i4sii", 20, b"xxxx", index, offset)
    views(long_view(3, 0), [b"x" * 20], [1], "view_buffer_index.arrows", "view refers to data buffer 3 of 1")
    views(long_view(0, 10), [b"x" * 20], [1], "view_past_data.arrows", "is outside data buffer 0")
    views(long_view(0, 0), [b"x" * 20], None, "view_counts_missing.arrows", "no variadic buffer count")
    views(long_view(0, 0), [b"x" * 20], [5], "view_count_too_big.arrows", "exceeds the buffers")
    views(long_view(0, 0), [b"x" * 20], [1], "view_valid.arrows", "OK")
    # Run-end encoding: run ends that do not increase, or that do not cover the array.
    ree_schema = schema([field("r", ("RunEndEncoded", Table()),
                               children=[field("run_ends", INT32, nullable=False), field("values", INT32)])])
    def runs(ends, length, name, expected):
        body = Body().add(b"").add(int32s(ends)).add(b"").add(int32s(list(range(len(ends)))))
        batch = record_batch(length, [(length, 0), (len(ends), 0), (len(ends), 0)], body.buffers)
        case(name, stream(ree_schema, [batch_message(batch, bytes(body.data))]), expected)
    runs([2, 2, 5], 5, "run_ends_not_increasing.arrows", "is not greater than the previous")
    runs([2, 3], 5, "run_ends_short.arrows", "the runs cover 3 of 5 values")
    runs([2, 4, 1 << 20], 1 << 20, "run_end_logical_length_1m.arrows", "OK")
    runs([2, 4, 5], 1 << 40, "run_end_length_2_pow_40.arrows", "claims 1099511627776 rows")
    # A struct child shorter than its parent; a fixed-size list child too short.
    struct_schema = schema([field("s", ("Struct_", Table()), children=[field("a", INT32)])])
    body = Body().add(b"").add(b"").add(int32s([1, 2]))
    batch = record_batch(4, [(4, 0), (2, 0)], body.buffers)
    case("struct_child_short.arrows", stream(struct_schema, [batch_message(batch, bytes(body.data))]),
         "length 2 is shorter than the 4 elements")
    fsl_schema = schema([field("f", ("FixedSizeList", Table({0: ("i32", 3)})), children=[field("item", INT32)])])
    body = Body().add(b"").add(b"").add(int32s([1, 2, 3, 4]))
    batch = record_batch(2, [(2, 0), (4, 0)], body.buffers)
    case("fixed_size_list_child_short.arrows", stream(fsl_schema, [batch_message(batch, bytes(body.data))]),
         "shorter than the 6 elements")


def flips(inputs, count, seed, prefix):
    """Seeded random corruption of `inputs` ((name, bytes) pairs), 1 to 4 bits
    a file: read or rejected, never a crash."""
    rng = random.Random(seed)
    for k in range(count):
        name, data = inputs[k % len(inputs)]
        data = bytearray(data)
        for _ in range(1 + k % 4):
            i = rng.randrange(len(data))
            data[i] ^= 1 << rng.randrange(8)
        case(f"{prefix}_{k:02d}_{name}", data, "*")


def bit_flips():
    flips([(n, d) for n, d, e in CASES if e == "OK"], 24, 1234, "flip")


def nested_inputs():
    """Valid nested batches written by pyarrow, and seeded bit flips of them:
    seeds from which the fuzzer reaches the nested conversion."""
    point = pa.struct([("x", pa.float64()), ("y", pa.utf8())])
    table = pa.table({
        "s": pa.array([{"a": 1, "b": "one"}, None, {"a": None, "b": "three"}, {"a": 4, "b": None}],
                      pa.struct([("a", pa.int64()), ("b", pa.utf8())])),
        "l": pa.array([[1, 2, None], [], None, list(range(9))], pa.list_(pa.int32())),
        "m": pa.array([[("k", 1)], None, [], [("a", None), ("bb", 2)]], pa.map_(pa.utf8(), pa.int64())),
        "p": pa.array([[{"x": 0.5, "y": "p"}, None], None, [{"x": None, "y": "q" * 20}], []], pa.list_(point)),
        "w": pa.array([["ab", None], None, [], ["c"]], pa.large_list(pa.utf8())),
        "f": pa.array([[1, 2, 3], None, [4, None, 6], [7, 8, 9]], pa.list_(pa.int16(), 3)),
        "v": pa.array([[1], None, [2, 3], []], pa.list_view(pa.int8())),
    })
    sink = pa.BufferOutputStream()
    with ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
        writer.write_table(table.slice(1, 2))
    stream_bytes = sink.getvalue().to_pybytes()
    sink = pa.BufferOutputStream()
    with ipc.new_file(sink, table.schema) as writer:
        writer.write_table(table)
    nested = [("valid_nested.arrows", stream_bytes), ("valid_nested.arrow", sink.getvalue().to_pybytes())]
    for name, data in nested:
        case(name, data, "OK")
    flips(nested, 8, 4321, "flip_nested")


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
    valid_inputs()
    framing()
    flatbuffers()
    types()
    batches()
    compression()
    dictionaries()
    nested_and_views()
    bit_flips()
    nested_inputs()
    check_valid_with_pyarrow()
    os.makedirs(out_dir, exist_ok=True)
    for old in os.listdir(out_dir):
        os.remove(os.path.join(out_dir, old))
    names = set()
    with open(os.path.join(out_dir, "EXPECTED"), "w") as expected:
        expected.write("# file<TAB>substring of the error message (OK: reads; *: either)\n")
        for name, data, substring in CASES:
            assert name not in names, name
            names.add(name)
            with open(os.path.join(out_dir, name), "wb") as f:
                f.write(data)
            expected.write(f"{name}\t{substring}\n")
    print(f"wrote {len(CASES)} files into {out_dir}")


if __name__ == "__main__":
    main()
