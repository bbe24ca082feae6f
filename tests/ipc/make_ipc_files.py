#!/usr/bin/env python3
"""Writes Arrow IPC files and streams with pyarrow, for the reader's cross-checks.

    make_ipc_files.py OUTDIR

For every case (a schema and a few batches) it writes the file format and the
stream format, each uncompressed, LZ4_FRAME and ZSTD, plus a few variants
(legacy stream framing, metadata V4, streams with replacement and delta
dictionaries). OUTDIR/manifest.json describes every case: the files, the
schema as pyarrow itself exports it through the C Data Interface (formats,
names, flags, metadata), and the expected values of every batch in a
canonical form that tests/support/ipc_test_support.hpp computes from the arrays the
C++ reader exports:

    null                      -> null
    bool                      -> true / false
    fixed-width values        -> hex of their little-endian bytes
    strings, binaries         -> hex of their bytes
    struct                    -> [child values...]
    list kinds, map           -> [element values...] (a map's entries are structs)
    dictionary, run-end       -> the decoded value
    extension                 -> the value of its storage

Deterministic: the same pyarrow writes the same files.
"""

import ctypes
import decimal
import json
import os
import random
import sys

import pyarrow as pa
import pyarrow.ipc as ipc

# ---------------------------------------------------------------------------
# The schema as pyarrow exports it (C Data Interface).


class ArrowSchema(ctypes.Structure):
    pass


ArrowSchema._fields_ = [
    ("format", ctypes.c_char_p),
    ("name", ctypes.c_char_p),
    ("metadata", ctypes.c_void_p),
    ("flags", ctypes.c_int64),
    ("n_children", ctypes.c_int64),
    ("children", ctypes.POINTER(ctypes.POINTER(ArrowSchema))),
    ("dictionary", ctypes.POINTER(ArrowSchema)),
    ("release", ctypes.c_void_p),
    ("private_data", ctypes.c_void_p),
]
RELEASE = ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowSchema))


def decode_metadata(address):
    if not address:
        return []
    def int32(at):
        return int.from_bytes(ctypes.string_at(at, 4), "little", signed=True)
    count, at, pairs = int32(address), address + 4, []
    for _ in range(count):
        n = int32(at)
        key = ctypes.string_at(at + 4, n).decode()
        at += 4 + n
        n = int32(at)
        value = ctypes.string_at(at + 4, n).decode()
        at += 4 + n
        pairs.append([key, value])
    return pairs


def describe(schema):
    out = {
        "format": schema.format.decode(),
        "name": (schema.name or b"").decode(),
        "flags": schema.flags,
        "metadata": decode_metadata(schema.metadata),
        "children": [describe(schema.children[i].contents) for i in range(schema.n_children)],
    }
    if schema.dictionary:
        out["dictionary"] = describe(schema.dictionary.contents)
    return out


def exported_schema(schema):
    c_schema = ArrowSchema()
    schema._export_to_c(ctypes.addressof(c_schema))
    try:
        return describe(c_schema)
    finally:
        RELEASE(c_schema.release)(ctypes.byref(c_schema))


# ---------------------------------------------------------------------------
# Canonical values.


def fixed_width(t):
    """Byte width of a fixed-width type, or None."""
    if pa.types.is_boolean(t):
        return None
    if pa.types.is_fixed_size_binary(t) and not pa.types.is_decimal(t):
        return t.byte_width
    try:
        return t.bit_width // 8
    except ValueError:
        return None


def canon(array, i):
    """The canonical value of logical element i of `array`."""
    t = array.type
    if isinstance(t, pa.BaseExtensionType):
        return canon(array.storage, i)
    if pa.types.is_dictionary(t):
        if not array.is_valid()[i].as_py():
            return None
        return canon(array.dictionary, array.indices[i].as_py())
    if pa.types.is_run_end_encoded(t):
        logical = array.offset + i
        run_ends = array.run_ends.to_pylist()
        physical = next(p for p, end in enumerate(run_ends) if end > logical)
        return canon(array.values, physical)
    if pa.types.is_null(t) or not array.is_valid()[i].as_py():
        return None
    if pa.types.is_boolean(t):
        return array[i].as_py()
    if pa.types.is_struct(t):
        return [canon(array.field(j), i) for j in range(t.num_fields)]
    if pa.types.is_map(t):
        entries = array[i].values
        return [canon(entries, j) for j in range(len(entries))]
    if (pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t)
            or pa.types.is_list_view(t) or pa.types.is_large_list_view(t)):
        values = array[i].values
        return [canon(values, j) for j in range(len(values))]
    if (pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t)):
        return array[i].as_py().encode().hex()
    if (pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_binary_view(t)):
        return array[i].as_py().hex()
    width = fixed_width(t)
    if width is None:
        raise ValueError("no canonical form for " + str(t))
    data = array.buffers()[1]
    start = (array.offset + i) * width
    return data.to_pybytes()[start:start + width].hex()


def canon_batch(batch):
    return {
        "length": batch.num_rows,
        "columns": [[canon(column, i) for i in range(batch.num_rows)] for column in batch.columns],
    }


# ---------------------------------------------------------------------------
# Data.

RNG = random.Random(20240607)
decimal.getcontext().prec = 100


def maybe_null(values, every=5):
    return [None if i % every == 3 else v for i, v in enumerate(values)]


def ints(bits, signed, n):
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    values = [lo, hi, 0, -1 if signed else 1] + [RNG.randint(lo, hi) for _ in range(n - 4)]
    return maybe_null(values)


def strings(n, long_every=3):
    out = []
    for i in range(n):
        size = RNG.randint(13, 40) if i % long_every == 0 else RNG.randint(0, 12)
        out.append("".join(RNG.choice("abcdefghijklmnopqrstuvwxyz\u00e9\u4e2d") for _ in range(size)))
    return maybe_null(out)


def decimals(precision, scale, n):
    bound = 10 ** precision - 1
    values = [bound, -bound, 0] + [RNG.randint(-bound, bound) for _ in range(n - 3)]
    return maybe_null([decimal.Decimal(v).scaleb(-scale) for v in values])


def flat_cases(n):
    """(name, [(column name, pyarrow array builder)], convertible)."""
    cases = []
    for bits in (8, 16, 32, 64):
        cases.append((f"int{bits}", pa.array(ints(bits, True, n), getattr(pa, f"int{bits}")()), True))
        cases.append((f"uint{bits}", pa.array(ints(bits, False, n), getattr(pa, f"uint{bits}")()), True))
    floats = [0.0, -0.0, float("inf"), float("-inf"), float("nan"), 1.5, -2.25e-30, 3.0e30]
    floats += [RNG.uniform(-1e6, 1e6) for _ in range(n - len(floats))]
    cases.append(("float32", pa.array(maybe_null(floats), pa.float32()), True))
    cases.append(("float64", pa.array(maybe_null(floats), pa.float64()), True))
    cases.append(("float16", pa.array(maybe_null([1.5, -0.0, 2.0, 65504.0] * (n // 4)), pa.float16()), False))
    cases.append(("bool", pa.array(maybe_null([RNG.random() < 0.5 for _ in range(n)])), True))
    cases.append(("date32", pa.array(ints(32, True, n), pa.int32()).cast(pa.date32()), True))
    date64 = [v * 86400000 + RNG.randint(-86399999, 86399999) for v in range(-n // 2, n - n // 2)]
    cases.append(("date64", pa.array(maybe_null(date64), pa.int64()).cast(pa.date64()), True))
    for unit, bound in (("s", 10 ** 11), ("ms", 10 ** 14), ("us", 10 ** 17), ("ns", 9 * 10 ** 18)):
        raw = pa.array(maybe_null([RNG.randint(-bound, bound) for _ in range(n)]), pa.int64())
        for tz in (None, "UTC", "America/Los_Angeles"):
            label = f"timestamp_{unit}_{(tz or 'ntz').replace('/', '_').lower()}"
            cases.append((label, raw.cast(pa.timestamp(unit, tz)), True))
        cases.append((f"duration_{unit}", raw.cast(pa.duration(unit)), True))
    cases.append(("time32_ms", pa.array(maybe_null(list(range(0, n * 1000, 1000))), pa.int32()).cast(pa.time32("ms")), False))
    cases.append(("time64_ns", pa.array(maybe_null(list(range(0, n * 7, 7))), pa.int64()).cast(pa.time64("ns")), False))
    mdn = [pa.MonthDayNano([RNG.randint(-1000, 1000), RNG.randint(-1000, 1000), RNG.randint(-(10 ** 12), 10 ** 12)])
           for _ in range(n)]
    cases.append(("interval_month_day_nano", pa.array(maybe_null(mdn), pa.month_day_nano_interval()), True))
    for width, precision, scale in ((32, 9, 2), (64, 18, 4), (128, 18, 0), (128, 38, 10), (128, 20, 0),
                                   (256, 18, 4), (256, 38, 6)):
        builder = getattr(pa, f"decimal{width}")
        cases.append((f"decimal{width}_{precision}_{scale}",
                      pa.array(decimals(precision, scale, n), builder(precision, scale)), True))
    text = strings(n)
    for name, t in (("utf8", pa.string()), ("large_utf8", pa.large_string()), ("utf8_view", pa.string_view())):
        cases.append((name, pa.array(text, t), True))
    blobs = [None if s is None else s.encode() + bytes([RNG.randint(0, 255)]) for s in text]
    for name, t in (("binary", pa.binary()), ("large_binary", pa.large_binary()), ("binary_view", pa.binary_view())):
        cases.append((name, pa.array(blobs, t), True))
    fixed = maybe_null([bytes(RNG.randint(0, 255) for _ in range(5)) for _ in range(n)])
    cases.append(("fixed_size_binary_5", pa.array(fixed, pa.binary(5)), True))
    words = ["apple", "banana", None, "cherry", "", "a longer dictionary value"]
    indices = [RNG.randint(0, len(words) - 1) for _ in range(n)]
    for index in (pa.int8(), pa.int16(), pa.int32(), pa.int64(), pa.uint8(), pa.uint32()):
        dictionary = pa.DictionaryArray.from_arrays(pa.array(maybe_null(indices, 7), index), pa.array(words))
        cases.append((f"dictionary_{index}_utf8", dictionary, True))
    dictionary = pa.DictionaryArray.from_arrays(pa.array(maybe_null(indices, 7), pa.int32()),
                                                pa.array([10, -20, 30, None, 50, 60], pa.int64()))
    cases.append(("dictionary_int32_int64", dictionary, True))
    for run_end_type in (pa.int16(), pa.int32(), pa.int64()):
        runs = sorted(RNG.sample(range(1, n), 6)) + [n]
        values = pa.array(maybe_null([f"run{i}" for i in range(len(runs))], 3))
        ree = pa.RunEndEncodedArray.from_arrays(pa.array(runs, run_end_type), values)
        cases.append((f"run_end_{run_end_type}_utf8", ree, True))
    runs = [3, 4, 10, n]
    ree = pa.RunEndEncodedArray.from_arrays(pa.array(runs, pa.int32()), pa.array([7, None, -9, 11], pa.int64()))
    cases.append(("run_end_int32_int64", ree, True))
    cases.append(("null", pa.nulls(n), True))
    return cases


def nested_cases(n):
    ints32 = pa.array(ints(32, True, 4 * n), pa.int32())
    text = pa.array(strings(4 * n))
    offsets = [0]
    for _ in range(n):
        offsets.append(offsets[-1] + RNG.randint(0, 4))
    validity = pa.array([i % 6 != 2 for i in range(n)])
    mask = pa.compute.invert(validity)
    struct = pa.StructArray.from_arrays([pa.array(ints(64, True, n), pa.int64()), text.slice(0, n)],
                                        names=["a", "b"], mask=mask)
    list_i32 = pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), ints32, mask=mask)
    large_list = pa.LargeListArray.from_arrays(pa.array(offsets, pa.int64()), text, mask=mask)
    fsl = pa.FixedSizeListArray.from_arrays(ints32.slice(0, 3 * n), 3, mask=mask)
    sizes = [offsets[i + 1] - offsets[i] for i in range(n)]
    starts = [RNG.randint(0, 3 * n) for _ in range(n)]
    list_view = pa.ListViewArray.from_arrays(pa.array(starts, pa.int32()), pa.array(sizes, pa.int32()),
                                             ints32, mask=mask)
    large_list_view = pa.LargeListViewArray.from_arrays(pa.array(starts, pa.int64()),
                                                        pa.array(sizes, pa.int64()), text, mask=mask)
    keys = pa.array([f"k{i}" for i in range(4 * n)])
    map_array = pa.MapArray.from_arrays(pa.array(offsets, pa.int32()), keys,
                                        pa.array(ints(64, True, 4 * n), pa.int64()), mask=mask)
    points = pa.StructArray.from_arrays([pa.array([RNG.uniform(-1, 1) for _ in range(4 * n)]), text],
                                        names=["x", "y"])
    list_struct = pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), points, mask=mask)
    inner = pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), ints32)
    nested_list = pa.ListArray.from_arrays(pa.array(list(range(0, n + 1)), pa.int32()), inner)
    dict_values = pa.DictionaryArray.from_arrays(pa.array([i % 3 for i in range(4 * n)], pa.int8()),
                                                 pa.array(["x", "yy", "zzz"]))
    list_dict = pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), dict_values)
    struct_dict = pa.StructArray.from_arrays([dict_values.slice(0, n), pa.array(ints(16, True, n), pa.int16())],
                                             names=["d", "e"])
    return [
        ("struct_int64_utf8", struct, False),
        ("list_int32", list_i32, False),
        ("large_list_utf8", large_list, False),
        ("fixed_size_list_3_int32", fsl, False),
        ("list_view_int32", list_view, False),
        ("large_list_view_utf8", large_list_view, False),
        ("map_utf8_int64", map_array, False),
        ("list_struct_f64_utf8", list_struct, False),
        ("list_list_int32", nested_list, False),
        ("list_dictionary", list_dict, False),
        ("struct_dictionary", struct_dict, False),
    ]


EXTENSION_TYPES = {}


def extended(storage, name, serialized=b""):
    """`storage` as an extension type `name` with `serialized` metadata, which readers do
    not know (one pyarrow class per name, as pyarrow rebuilds types by their class)."""
    if name not in EXTENSION_TYPES:
        def init(self, storage_type, serialized_metadata):
            self.serialized_metadata = serialized_metadata
            pa.ExtensionType.__init__(self, storage_type, name)

        EXTENSION_TYPES[name] = type(f"Extension_{len(EXTENSION_TYPES)}", (pa.ExtensionType,), {
            "__init__": init,
            "__arrow_ext_serialize__": lambda self: self.serialized_metadata,
            "__arrow_ext_deserialize__": classmethod(lambda cls, t, data: cls(t, data)),
        })
    return pa.ExtensionArray.from_storage(EXTENSION_TYPES[name](storage.type, serialized), storage)


def extension_cases(n):
    """(name, schema, batches, convert, nested): extension types over their storage
    (CONTRACTS.md section 2). "extension_integration" is the shape of arrow-testing's
    generated_extension integration file (archery's generate_extension_case): an extension
    "uuid" over fixed_size_binary(16) and "dict-extension" over dictionary<int8, utf8>, in
    batches of 0 and 13 rows."""
    rows = 13
    uuids = pa.array([bytes(RNG.randrange(256) for _ in range(16)) if i % 4 != 1 else None
                      for i in range(rows)], pa.binary(16))
    words = pa.DictionaryArray.from_arrays(
        pa.array([i % 5 if i % 3 != 2 else None for i in range(rows)], pa.int8()),
        pa.array(["a", "bb", "ccc", "", "é"]))
    integration = pa.table({"uuids": extended(uuids, "uuid", b"uuid-serialized"),
                            "dict_exts": extended(words, "dict-extension",
                                                  b"dict-extension-serialized")})
    canonical = pa.table({
        "json": pa.ExtensionArray.from_storage(pa.json_(pa.string()),
                                               pa.array(maybe_null(strings(n)))),
        "uuid": pa.ExtensionArray.from_storage(
            pa.uuid(), pa.array(maybe_null([RNG.randbytes(16) for _ in range(n)]), pa.binary(16))),
        "bool8": pa.ExtensionArray.from_storage(
            pa.bool8(), pa.array(maybe_null(ints(8, True, n)), pa.int8())),
        "unknown": extended(pa.array(maybe_null(ints(64, True, n)), pa.int64()),
                            "example.unknown", b"\x00meta"),
    })
    whole = integration.combine_chunks().to_batches()[0]
    mask = pa.array([i % 6 == 2 for i in range(n)])
    child = extended(pa.array(ints(32, True, n), pa.int32()), "example.child")
    point = pa.StructArray.from_arrays([child, pa.array(strings(n))], names=["x", "y"], mask=mask)
    offsets = [0]
    for _ in range(n):
        offsets.append(offsets[-1] + RNG.randint(0, 3))
    elements = extended(pa.array(ints(16, True, offsets[-1]), pa.int16()), "example.element")
    nested = pa.table({
        "point": extended(point, "example.point", b"p"),
        "items": pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), elements, mask=mask),
    })
    return [
        ("extension_integration", integration.schema, [whole.slice(0, 0), whole], True, False),
        ("extension_canonical", canonical.schema, canonical.to_batches(), True, False),
        ("extension_nested", nested.schema, nested.to_batches(), False, True),
    ]


# ---------------------------------------------------------------------------
# Writing.


def write(path, schema, batches, stream, **options):
    write_options = ipc.IpcWriteOptions(**options)
    with pa.OSFile(path, "wb") as sink:
        opener = ipc.new_stream if stream else ipc.new_file
        with opener(sink, schema, options=write_options) as writer:
            for batch in batches:
                writer.write_batch(batch)


def split(array, sizes):
    out, at = [], 0
    for size in sizes:
        out.append(array.slice(at, size))
        at += size
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_ipc_files.py OUTDIR")
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    n = 40
    cases = []

    def add(name, schema, batches, convert, nested, variants):
        entry = {
            "name": name,
            "convert": convert,
            "nested": nested,
            "schema": exported_schema(schema),
            "batches": [canon_batch(b) for b in batches],
            "files": [],
        }
        for suffix, stream, options in variants:
            file_name = f"{name}.{suffix}"
            write(os.path.join(out_dir, file_name), schema, batches, stream, **options)
            entry["files"].append({"path": file_name, "format": "stream" if stream else "file"})
        cases.append(entry)

    standard = []
    for compression in (None, "lz4", "zstd"):
        label = compression or "plain"
        standard.append((f"{label}.arrow", False, {"compression": compression}))
        standard.append((f"{label}.arrows", True, {"compression": compression}))

    metadata = {"origin": "make_ipc_files.py", "case": "flat"}
    for name, array, convert in flat_cases(n):
        field = pa.field("c0", array.type, metadata={"column": name})
        schema = pa.schema([field], metadata=metadata)
        batches = [pa.record_batch([part], schema=schema) for part in split(array, [n // 2, 0, n - n // 2])]
        add(name, schema, batches, convert, False, standard)

    for name, array, convert in nested_cases(n):
        schema = pa.schema([pa.field("c0", array.type)])
        batches = [pa.record_batch([part], schema=schema) for part in split(array, [n // 4, n - n // 4])]
        add(name, schema, batches, convert, True, standard)

    for name, schema, batches, convert, nested in extension_cases(n):
        add(name, schema, batches, convert, nested, standard)

    # The workload of record, several batches, with legacy framing and V4 metadata too.
    rows = 3000
    record = pa.record_batch(
        [pa.array(range(rows), pa.int64()), pa.array([i * 7 % 1000 - 500 for i in range(rows)], pa.int32()),
         pa.array([i * 0.5 for i in range(rows)], pa.float64()), pa.array([f"value_{i}" for i in range(rows)])],
        names=["a", "b", "c", "d"])
    batches = [record.slice(at, 1024) for at in range(0, rows, 1024)]
    add("record", record.schema, batches, True, False, standard + [
        ("legacy.arrows", True, {"use_legacy_format": True}),
        ("v4.arrow", False, {"metadata_version": ipc.MetadataVersion.V4}),
        ("v4.arrows", True, {"metadata_version": ipc.MetadataVersion.V4, "compression": "zstd"}),
    ])

    # Streams whose dictionaries change: a replacement, then deltas.
    schema = pa.schema([pa.field("d", pa.dictionary(pa.int32(), pa.string())), pa.field("i", pa.int32())])
    growing = [["a", "b"], ["a", "b", "c"], ["a", "b", "c", "d", "e"], ["z"], ["z", "y"]]
    batches = []
    for k, words in enumerate(growing):
        indices = pa.array([(j * 3 + k) % len(words) if j % 4 != 1 else None for j in range(6)], pa.int32())
        batches.append(pa.record_batch(
            [pa.DictionaryArray.from_arrays(indices, pa.array(words)), pa.array(range(k * 6, k * 6 + 6), pa.int32())],
            schema=schema))
    add("dictionary_deltas", schema, batches, True, False, [
        (f"{label}.arrows", True, {"emit_dictionary_deltas": True, "compression": compression})
        for compression, label in ((None, "plain"), ("lz4", "lz4"), ("zstd", "zstd"))
    ] + [("replacement.arrows", True, {"emit_dictionary_deltas": False})])

    # A file with no batch at all.
    schema = pa.schema([pa.field("x", pa.int64())])
    add("no_batches", schema, [], True, False, [("plain.arrow", False, {}), ("plain.arrows", True, {})])

    with open(os.path.join(out_dir, "manifest.json"), "w") as f:
        json.dump({"pyarrow": pa.__version__, "cases": cases}, f, indent=1)
    print(f"wrote {sum(len(c['files']) for c in cases)} files for {len(cases)} cases into {out_dir}")


if __name__ == "__main__":
    main()
