"""A small Flatbuffers builder and Arrow IPC message writer, for crafting test inputs.

Written from the Flatbuffers binary format and the Arrow format's Schema.fbs,
Message.fbs and File.fbs. Unlike a real writer it writes whatever it is told,
including values no writer would produce, so that tests can hand the reader
precisely malformed inputs.

Layout: objects are written front to back; every table is preceded by its
vtable, and the objects it refers to follow it (uoffsets point forward).
Scalars are aligned to their size from the start of the buffer.
"""

import struct

# ---------------------------------------------------------------------------
# Flatbuffers.

SCALARS = {"u8": "<B", "i8": "<b", "bool": "<B", "i16": "<h", "u16": "<H", "i32": "<i",
           "u32": "<I", "i64": "<q"}


class Table:
    """fields: {slot: (kind, value)}; kind is a scalar kind, "off" (value: a
    Table, Str or Vec), or "struct" (value: (bytes, alignment))."""

    def __init__(self, fields=None, vtable_override=None):
        self.fields = fields or {}
        self.vtable_override = vtable_override  # raw vtable words, for hostile tables


class Str:
    def __init__(self, data):
        self.data = data.encode() if isinstance(data, str) else data


class Vec:
    """kind "off" (items: objects), "struct" (items: bytes each, alignment), or
    a scalar kind (items: numbers). `count` overrides the stored length."""

    def __init__(self, kind, items, alignment=4, count=None):
        self.kind, self.items, self.alignment, self.count = kind, items, alignment, count


def _size(kind, value):
    if kind == "off":
        return 4, 4
    if kind == "struct":
        return len(value[0]), value[1]
    n = struct.calcsize(SCALARS[kind])
    return n, n


class Builder:
    def __init__(self):
        self.buf = bytearray()
        self.written = {}  # id(object) -> position, to share objects referred to twice

    def refer(self, at, obj):
        """Points the uoffset at `at` to `obj`, written once when it can be shared
        (uoffsets only point forward)."""
        position = self.written.get(id(obj))
        if position is None or position < at:
            position = self.write(obj)
            self.written[id(obj)] = position
        self.offset_to(at, position)

    def pad_to(self, alignment, remainder=0):
        while len(self.buf) % alignment != remainder:
            self.buf.append(0)

    def offset_to(self, at, target):
        struct.pack_into("<I", self.buf, at, target - at)

    def write(self, obj):
        if isinstance(obj, Table):
            return self.table(obj)
        if isinstance(obj, Str):
            return self.string(obj)
        return self.vector(obj)

    def table(self, t):
        slots = max(t.fields) + 1 if t.fields else 0
        # Inline layout relative to an 8-aligned table start (offset 0: soffset).
        layout, at = {}, 4
        for slot in sorted(t.fields, key=lambda s: -_size(*t.fields[s])[1]):
            size, alignment = _size(*t.fields[slot])
            at = (at + alignment - 1) // alignment * alignment
            layout[slot] = at
            at += size
        table_size = (at + 3) // 4 * 4
        self.pad_to(2)
        vtable = len(self.buf)
        words = t.vtable_override or ([4 + 2 * slots, table_size] + [layout.get(s, 0) for s in range(slots)])
        for w in words:
            self.buf += struct.pack("<H", w & 0xFFFF)
        self.pad_to(8)
        start = len(self.buf)
        self.buf += bytes(table_size)
        struct.pack_into("<i", self.buf, start, start - vtable)
        pending = []
        for slot, (kind, value) in t.fields.items():
            pos = start + layout[slot]
            if kind == "off":
                pending.append((pos, value))
            elif kind == "struct":
                self.buf[pos:pos + len(value[0])] = value[0]
            else:
                struct.pack_into(SCALARS[kind], self.buf, pos, value)
        for pos, child in pending:
            self.refer(pos, child)
        return start

    def string(self, s):
        self.pad_to(4)
        start = len(self.buf)
        self.buf += struct.pack("<I", len(s.data)) + s.data + b"\0"
        return start

    def vector(self, v):
        count = len(v.items) if v.count is None else v.count
        if v.kind == "off":
            self.pad_to(4)
            start = len(self.buf)
            self.buf += struct.pack("<I", count) + bytes(4 * len(v.items))
            for i, item in enumerate(v.items):
                self.refer(start + 4 + 4 * i, item)
            return start
        alignment = v.alignment if v.kind == "struct" else struct.calcsize(SCALARS[v.kind])
        self.pad_to(max(alignment, 4), (max(alignment, 4) - 4) % max(alignment, 4))
        start = len(self.buf)
        self.buf += struct.pack("<I", count)
        for item in v.items:
            self.buf += item if v.kind == "struct" else struct.pack(SCALARS[v.kind], item)
        return start

    def finish(self, root):
        self.buf += bytes(8)  # root uoffset, patched below
        self.offset_to(0, self.write(root))
        self.pad_to(8)
        return bytes(self.buf)


def flatbuffer(root):
    return Builder().finish(root)


# ---------------------------------------------------------------------------
# Arrow metadata tables.

TYPE = {"Null": 1, "Int": 2, "FloatingPoint": 3, "Binary": 4, "Utf8": 5, "Bool": 6, "Decimal": 7,
        "Date": 8, "Time": 9, "Timestamp": 10, "Interval": 11, "List": 12, "Struct_": 13,
        "Union": 14, "FixedSizeBinary": 15, "FixedSizeList": 16, "Map": 17, "Duration": 18,
        "LargeBinary": 19, "LargeUtf8": 20, "LargeList": 21, "RunEndEncoded": 22,
        "BinaryView": 23, "Utf8View": 24, "ListView": 25, "LargeListView": 26}
SCHEMA, DICTIONARY_BATCH, RECORD_BATCH, TENSOR = 1, 2, 3, 4
V4, V5 = 3, 4


def int_type(bits=32, signed=True):
    return ("Int", Table({0: ("i32", bits), 1: ("bool", 1 if signed else 0)}))


def field(name, type_pair, children=(), nullable=True, dictionary=None):
    type_name, type_table = type_pair
    fields = {0: ("off", Str(name)), 1: ("bool", 1 if nullable else 0), 2: ("u8", TYPE.get(type_name, type_name)),
              3: ("off", type_table), 5: ("off", Vec("off", list(children)))}
    if dictionary is not None:
        dict_id, index_type = dictionary
        fields[4] = ("off", Table({0: ("i64", dict_id), 1: ("off", int_type(*index_type)[1])}))
    return Table(fields)


def schema(fields, endianness=0):
    table = {1: ("off", Vec("off", list(fields)))}
    if endianness:
        table[0] = ("i16", endianness)
    return Table(table)


def record_batch(length, nodes, buffers, codec=None, variadic=None):
    """nodes: [(length, null_count)]; buffers: [(offset, length)]."""
    table = {0: ("i64", length),
             1: ("off", Vec("struct", [struct.pack("<qq", *n) for n in nodes], 8)),
             2: ("off", Vec("struct", [struct.pack("<qq", *b) for b in buffers], 8))}
    if codec is not None:
        table[3] = ("off", Table({0: ("i8", codec)}))
    if variadic is not None:
        table[4] = ("off", Vec("i64", variadic))
    return Table(table)


def dictionary_batch(dict_id, batch, delta=False):
    return Table({0: ("i64", dict_id), 1: ("off", batch), 2: ("bool", 1 if delta else 0)})


def message(header_type, header, body_length, version=V5):
    return Table({0: ("i16", version), 1: ("u8", header_type), 2: ("off", header), 3: ("i64", body_length)})


# ---------------------------------------------------------------------------
# Bodies and framing.


def pad8(data):
    return data + bytes(-len(data) % 8)


class Body:
    """Collects buffers into a message body (8-byte aligned)."""

    def __init__(self):
        self.data = bytearray()
        self.buffers = []

    def add(self, data):
        self.buffers.append((len(self.data), len(data)))
        self.data += pad8(bytes(data))
        return self

    def add_raw(self, offset, length):
        self.buffers.append((offset, length))
        return self


def encapsulate(metadata_root, body=b"", legacy=False, metadata=None):
    """One encapsulated message: continuation, length, flatbuffer, body."""
    meta = pad8(metadata if metadata is not None else flatbuffer(metadata_root))
    prefix = struct.pack("<i", len(meta)) if legacy else struct.pack("<Ii", 0xFFFFFFFF, len(meta))
    return prefix + meta + bytes(body)


EOS = struct.pack("<Ii", 0xFFFFFFFF, 0)


def schema_message(schema_table, version=V5):
    return encapsulate(message(SCHEMA, schema_table, 0, version))


def batch_message(batch_table, body, version=V5):
    return encapsulate(message(RECORD_BATCH, batch_table, len(body), version), body)


def dictionary_message(dict_table, body):
    return encapsulate(message(DICTIONARY_BATCH, dict_table, len(body)), body)


def stream(schema_table, messages, eos=True):
    return schema_message(schema_table) + b"".join(messages) + (EOS if eos else b"")


def file(schema_table, dictionaries, batches, footer_schema=None, version=V5):
    """dictionaries, batches: encapsulated messages. Returns the file bytes."""
    out = bytearray(b"ARROW1\0\0")
    out += schema_message(schema_table)
    blocks = {"dict": [], "batch": []}
    for kind, messages in (("dict", dictionaries), ("batch", batches)):
        for m in messages:
            meta_length = struct.unpack_from("<i", m, 4)[0] + 8
            blocks[kind].append(struct.pack("<qi4xq", len(out), meta_length, len(m) - meta_length))
            out += m
    out += EOS
    footer = Table({0: ("i16", version), 1: ("off", footer_schema or schema_table),
                    2: ("off", Vec("struct", blocks["dict"], 8)),
                    3: ("off", Vec("struct", blocks["batch"], 8))})
    data = flatbuffer(footer)
    out += data + struct.pack("<i", len(data)) + b"ARROW1"
    return bytes(out)


def bitmap(valid):
    out = bytearray((len(valid) + 7) // 8)
    for i, v in enumerate(valid):
        if v:
            out[i // 8] |= 1 << (i % 8)
    return bytes(out)


def int32s(values):
    return struct.pack(f"<{len(values)}i", *values)


def int64s(values):
    return struct.pack(f"<{len(values)}q", *values)
