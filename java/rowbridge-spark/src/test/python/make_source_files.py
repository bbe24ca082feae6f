#!/usr/bin/env python3
"""Writes Arrow IPC files for the rowbridge data source's type test, with pyarrow.

    make_source_files.py OUTDIR [--seed S] [--leave-out KIND,...]

For each case NAME it writes OUTDIR/NAME.arrow, the input the source reads, and
OUTDIR/NAME.readable.arrow: the same values in the types Spark's ArrowColumnVector reads,
normalised here by CONTRACTS.md §2 (unsigned integers widened, uint64 to decimal(20,0), date64
to days, timestamps and durations to microseconds by floor division; month-day-nano intervals
are kept, as Spark truncates their nanoseconds toward zero as CONTRACTS.md §2 does,
decimal256 to decimal128, view, fixed-size and large layouts to the plain ones, dictionary and
run-end encodings decoded, extension types to their storage), uncompressed. The test compares the rows the source returns for
NAME.arrow with the rows Spark projects from NAME.readable.arrow.
"""

import argparse
import decimal
import os
import random

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.ipc as ipc

ROWS = 300
BATCH_ROWS = 128


def values(rng, make, null_rate=0.1):
    return [None if rng.random() < null_rate else make() for _ in range(ROWS)]


def floor_div(v, k):
    return None if v is None else v // k


def text(rng, low=0, high=24):
    letters = "abcdefghijklmnopqrstuvwxyzé€0123456789 "
    return "".join(rng.choice(letters) for _ in range(rng.randint(low, high)))


def blob(rng, low=0, high=24):
    return bytes(rng.randrange(256) for _ in range(rng.randint(low, high)))


def flat_columns(rng):
    """(name, input array, readable array) of every flat type of CONTRACTS.md §2."""
    cols = []

    def add(name, vals, in_type, out_type=None, out_vals=None):
        cols.append((name, pa.array(vals, in_type),
                     pa.array(vals if out_vals is None else out_vals, out_type or in_type)))

    add("bool", values(rng, lambda: rng.random() < 0.5), pa.bool_())
    for bits in (8, 16, 32, 64):
        lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
        add(f"int{bits}", values(rng, lambda: rng.choice([lo, hi, 0, rng.randint(lo, hi)])),
            getattr(pa, f"int{bits}")())
    for bits, wide in ((8, pa.int16()), (16, pa.int32()), (32, pa.int64())):
        hi = (1 << bits) - 1
        add(f"uint{bits}", values(rng, lambda: rng.choice([0, hi, rng.randint(0, hi)])),
            getattr(pa, f"uint{bits}")(), wide)
    u64 = values(rng, lambda: rng.choice([0, (1 << 64) - 1, rng.randint(0, (1 << 64) - 1)]))
    add("uint64", u64, pa.uint64(), pa.decimal128(20, 0),
        [None if v is None else decimal.Decimal(v) for v in u64])
    floats = [float("nan"), float("inf"), float("-inf"), -0.0, 0.0, 1.5e-300, 3.4e38]
    add("float32", values(rng, lambda: rng.choice(floats[:5] + [rng.uniform(-1e6, 1e6)])),
        pa.float32())
    add("float64", values(rng, lambda: rng.choice(floats + [rng.uniform(-1e9, 1e9)])),
        pa.float64())
    for p, s, bits in ((10, 2, 128), (18, 0, 128), (38, 6, 128), (25, 4, 256), (9, 3, 256)):
        vals = values(rng, lambda: decimal.Decimal(rng.randint(-10 ** p + 1, 10 ** p - 1))
                      .scaleb(-s))
        in_type = pa.decimal128(p, s) if bits == 128 else pa.decimal256(p, s)
        add(f"dec{bits}_{p}_{s}", vals, in_type, pa.decimal128(p, s))
    days = values(rng, lambda: rng.randint(-800000, 800000))
    add("date32", days, pa.date32())
    ms = values(rng, lambda: rng.randint(-86400000 * 100000, 86400000 * 100000))
    add("date64", ms, pa.date64(), pa.date32(), [floor_div(v, 86400000) for v in ms])
    per_micro = {"s": None, "ms": None, "us": 1, "ns": 1000}
    for unit, scale in (("s", 1000000), ("ms", 1000), ("us", 1), ("ns", 1000)):
        bound = (1 << 62) // (scale if unit in ("s", "ms") else 1)
        raw = values(rng, lambda: rng.randint(-bound, bound))
        if unit in ("s", "ms"):
            out = [None if v is None else v * scale for v in raw]
        else:
            out = [floor_div(v, per_micro[unit]) for v in raw]
        for tz in (None, "UTC", "Asia/Kolkata"):
            add(f"ts_{unit}_{tz or 'ntz'}", raw, pa.timestamp(unit, tz), pa.timestamp("us", tz),
                out)
        add(f"duration_{unit}", raw, pa.duration(unit), pa.duration("us"), out)
    mdn = values(rng, lambda: (rng.randint(-1000, 1000), rng.randint(-40000, 40000),
                               rng.randint(-(1 << 62), 1 << 62)))
    add("month_day_nano", mdn, pa.month_day_nano_interval(), pa.month_day_nano_interval(),
        mdn)
    strings = values(rng, lambda: text(rng))
    add("utf8", strings, pa.string())
    add("large_utf8", strings, pa.large_string())
    add("utf8_view", strings, pa.string_view(), pa.string())
    blobs = values(rng, lambda: blob(rng))
    add("binary", blobs, pa.binary())
    add("large_binary", blobs, pa.large_binary())
    add("binary_view", blobs, pa.binary_view(), pa.binary())
    fixed = values(rng, lambda: blob(rng, 5, 5))
    add("fixed_size_binary", fixed, pa.binary(5), pa.binary())
    add("null", [None] * ROWS, pa.null())
    return cols


def nested_columns(rng):
    cols = []
    point = pa.struct([("x", pa.float64()), ("y", pa.string())])
    structs = values(rng, lambda: {"a": rng.choice([None, rng.randint(-99, 99)]),
                                   "b": rng.choice([None, text(rng)])})
    t = pa.struct([("a", pa.int64()), ("b", pa.string())])
    cols.append(("struct", pa.array(structs, t), pa.array(structs, t)))
    ints = values(rng, lambda: [rng.choice([None, rng.randint(-5, 5)])
                                for _ in range(rng.randint(0, 8))])
    cols.append(("list", pa.array(ints, pa.list_(pa.int64())),
                 pa.array(ints, pa.list_(pa.int64()))))
    words = values(rng, lambda: [rng.choice([None, text(rng)]) for _ in range(rng.randint(0, 5))])
    cols.append(("large_list", pa.array(words, pa.large_list(pa.string())),
                 pa.array(words, pa.list_(pa.string()))))
    cols.append(("list_view", pa.array(words, pa.list_view(pa.string())),
                 pa.array(words, pa.list_(pa.string()))))
    triples = values(rng, lambda: [rng.choice([None, rng.randint(0, 9)]) for _ in range(3)])
    cols.append(("fixed_size_list", pa.array(triples, pa.list_(pa.int32(), 3)),
                 pa.array(triples, pa.list_(pa.int32()))))
    maps = values(rng, lambda: [(f"k{i}", rng.choice([None, rng.randint(0, 99)]))
                                for i in range(rng.randint(0, 6))])
    cols.append(("map", pa.array(maps, pa.map_(pa.string(), pa.int64())),
                 pa.array(maps, pa.map_(pa.string(), pa.int64()))))
    points = values(rng, lambda: [rng.choice([None, {"x": rng.random(), "y": text(rng)}])
                                  for _ in range(rng.randint(0, 4))])
    cols.append(("list_of_struct", pa.array(points, pa.list_(point)),
                 pa.array(points, pa.list_(point))))
    deep = values(rng, lambda: {"tags": [text(rng) for _ in range(rng.randint(0, 3))],
                                "m": [(rng.randint(0, 9), [1.5] * rng.randint(0, 2))]})
    dt = pa.struct([("tags", pa.list_(pa.string())),
                    ("m", pa.map_(pa.int32(), pa.list_(pa.float64())))])
    cols.append(("struct_of_list_map", pa.array(deep, dt), pa.array(deep, dt)))
    return cols


def encoded_columns(rng):
    cols = []
    words = ["alpha", "bravo", "charlie", "", "delta é"]
    vals = values(rng, lambda: rng.choice(words))
    cols.append(("dict_utf8", pa.array(vals, pa.string()).dictionary_encode(),
                 pa.array(vals, pa.string())))
    nums = values(rng, lambda: rng.choice([7, -1, 1 << 40]))
    dict8 = pa.DictionaryArray.from_arrays(
        pa.array([None if v is None else [7, -1, 1 << 40].index(v) for v in nums], pa.int8()),
        pa.array([7, -1, 1 << 40], pa.int64()))
    cols.append(("dict_int64", dict8, pa.array(nums, pa.int64())))
    runs = []
    while len(runs) < ROWS:
        runs.extend([rng.choice([None, text(rng, 1, 6)])] * rng.randint(1, 9))
    runs = runs[:ROWS]
    cols.append(("ree_utf8", pc.run_end_encode(pa.array(runs, pa.string()),
                                               run_end_type=pa.int32()),
                 pa.array(runs, pa.string())))
    return cols


class Unregistered(pa.ExtensionType):
    """An extension type no reader knows, with metadata of its own."""

    def __init__(self, storage):
        super().__init__(storage, "example.unregistered")

    def __arrow_ext_serialize__(self):
        return b"v1"

    @classmethod
    def __arrow_ext_deserialize__(cls, storage_type, serialized):
        return cls(storage_type)


def extension_columns(rng):
    """Extension types over their storage (CONTRACTS.md §2), the readable twin the storage:
    canonical ones (arrow.json, arrow.uuid, arrow.bool8), an unregistered one over a struct,
    a dictionary and a list's elements, and one on a struct's child."""
    cols = []

    def add(name, extension, storage):
        cols.append((name, pa.ExtensionArray.from_storage(extension, storage), storage))

    docs = values(rng, lambda: '{"k": %d, "s": "%s"}' % (rng.randint(-9, 9), text(rng, 0, 6)))
    add("json", pa.json_(pa.string()), pa.array(docs, pa.string()))
    uuids = values(rng, lambda: blob(rng, 16, 16))
    cols.append(("uuid", pa.ExtensionArray.from_storage(pa.uuid(), pa.array(uuids, pa.binary(16))),
                 pa.array(uuids, pa.binary())))
    add("bool8", pa.bool8(), pa.array(values(rng, lambda: rng.choice([0, 1, 2, -1])), pa.int8()))
    point = pa.struct([("x", pa.float64()), ("tag", pa.string())])
    points = values(rng, lambda: {"x": rng.uniform(-9, 9), "tag": rng.choice([None, text(rng)])})
    add("point", Unregistered(point), pa.array(points, point))
    words = ["alpha", "bravo", "", "delta é"]
    labels = values(rng, lambda: rng.choice(words))
    dictionary = pa.array(labels, pa.string()).dictionary_encode()
    cols.append(("label", pa.ExtensionArray.from_storage(Unregistered(dictionary.type),
                                                         dictionary),
                 pa.array(labels, pa.string())))
    lists = values(rng, lambda: [rng.choice([None, rng.randint(-99, 99)])
                                 for _ in range(rng.randint(0, 5))])
    storage = pa.array(lists, pa.list_(pa.int16()))
    elements = pa.ExtensionArray.from_storage(Unregistered(pa.int16()), storage.values)
    cols.append(("items", pa.ListArray.from_arrays(storage.offsets, elements,
                                                   mask=storage.is_null()), storage))
    rows = values(rng, lambda: {"a": rng.choice([None, rng.randint(-99, 99)]), "b": text(rng)})
    plain = pa.array(rows, pa.struct([("a", pa.int64()), ("b", pa.string())]))
    child = pa.ExtensionArray.from_storage(Unregistered(pa.int64()), plain.field("a"))
    cols.append(("inner", pa.StructArray.from_arrays([child, plain.field("b")], ["a", "b"],
                                                     mask=plain.is_null()), plain))
    return cols


LEAVE_OUT = {
    "views": lambda t: pa.types.is_string_view(t) or pa.types.is_binary_view(t),
    "list_views": lambda t: pa.types.is_list_view(t) or pa.types.is_large_list_view(t),
    "run_end": pa.types.is_run_end_encoded,
    "month_day_nano": pa.types.is_interval,
}


def of_kinds(t, kinds):
    """Whether t is, or holds, a type of one of the kinds of LEAVE_OUT named."""
    if any(LEAVE_OUT[k](t) for k in kinds):
        return True
    return any(of_kinds(t.field(i).type, kinds) for i in range(t.num_fields))


def write(path, columns, which, options=None):
    table = pa.table({name: arrays[which] for name, *arrays in
                      [(c[0], c[1], c[2]) for c in columns]})
    with ipc.new_file(path, table.schema, options=options) as writer:
        for batch in table.to_batches(max_chunksize=BATCH_ROWS):
            writer.write_batch(batch)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("outdir")
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--leave-out", default="",
                        help="comma-separated kinds of column to leave out, for an Arrow Java "
                             "that cannot import their schema: " + ", ".join(LEAVE_OUT))
    args = parser.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    rng = random.Random(args.seed)
    cases = {"flat": flat_columns(rng), "nested": nested_columns(rng),
             "encoded": encoded_columns(rng), "extension": extension_columns(rng)}
    left_out = [k for k in args.leave_out.split(",") if k]
    unknown = [k for k in left_out if k not in LEAVE_OUT]
    if unknown:
        parser.error(f"--leave-out: unknown kinds {unknown}")
    if left_out:
        cases = {name: [c for c in columns if not of_kinds(c[1].type, left_out)]
                 for name, columns in cases.items()}
    compressions = {"flat": [None, "zstd", "lz4"], "nested": ["zstd"], "encoded": [None],
                    "extension": [None]}
    for name, columns in cases.items():
        write(os.path.join(args.outdir, f"{name}.readable.arrow"), columns, 1)
        for codec in compressions[name]:
            suffix = "" if codec is None else "-" + codec
            options = None if codec is None else ipc.IpcWriteOptions(compression=codec)
            write(os.path.join(args.outdir, f"{name}{suffix}.arrow"), columns, 0, options)
    print(f"wrote {sum(len(c) for c in compressions.values())} inputs to {args.outdir} "
          f"(seed {args.seed})")


if __name__ == "__main__":
    main()
