#!/usr/bin/env python3
"""Writes Arrow IPC inputs for the scan tests and measurements, with pyarrow.

    make_scan_files.py OUTDIR [--batches N] [--batch-rows R]
                              [--kinds flat,lists] [--compressions zstd,lz4,none]
                              [--formats file,stream] [--seed S]

Writes OUTDIR/KIND.COMPRESSION.arrow (file format) and .arrows (stream
format). Deterministic for given arguments (pyarrow's seeded generator).

  flat   a int64, b int32, c float64, d utf8 ("value_" + a), e utf8 (words),
         5 % nulls in b and e
  lists  ints list<int64> (0-15 elements), words list<utf8> (0-5),
         points list<struct<x float64, y utf8>> (0-3), id int64
"""

import argparse
import os

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.ipc as ipc

WORDS = pa.array(["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel",
                  "india", "juliett", "kilo", "lima", "mike", "november", "oscar", "papa"])


def uniform_ints(n, high, seed):
    """n integers uniform in [0, high)."""
    return pc.cast(pc.floor(pc.multiply(pc.random(n, initializer=seed), high)), pa.int64())


def with_nulls(values, seed, rate=0.05):
    mask = pc.less(pc.random(len(values), initializer=seed), rate)
    return pc.if_else(mask, pa.scalar(None, values.type), values)


def list_of(lengths, values):
    offsets = pa.concat_arrays([pa.array([0], pa.int64()), pc.cumulative_sum(lengths)])
    return pa.LargeListArray.from_arrays(offsets, values).cast(pa.list_(values.type))


def flat_batch(first, rows, seed):
    a = pa.array(range(first, first + rows), pa.int64())
    b = with_nulls(pc.cast(pc.bit_wise_and(a, 1023), pa.int32()), seed + 1)
    c = pc.random(rows, initializer=seed + 2)
    d = pc.binary_join_element_wise("value_", pc.cast(a, pa.string()), "")
    e = with_nulls(pc.take(WORDS, uniform_ints(rows, len(WORDS), seed + 3)), seed + 4)
    return pa.record_batch([a, b, c, d, e], names=["a", "b", "c", "d", "e"])


def lists_batch(first, rows, seed):
    ident = pa.array(range(first, first + rows), pa.int64())
    int_lengths = uniform_ints(rows, 16, seed + 1)
    total = pc.sum(int_lengths).as_py() or 0
    ints = list_of(int_lengths, pc.bit_wise_and(pa.array(range(total), pa.int64()), 4095))
    word_lengths = uniform_ints(rows, 6, seed + 2)
    total = pc.sum(word_lengths).as_py() or 0
    words = list_of(word_lengths, pc.take(WORDS, uniform_ints(total, len(WORDS), seed + 3)))
    point_lengths = uniform_ints(rows, 4, seed + 4)
    total = pc.sum(point_lengths).as_py() or 0
    points = pa.StructArray.from_arrays(
        [pc.random(total, initializer=seed + 5),
         pc.take(WORDS, uniform_ints(total, len(WORDS), seed + 6))], names=["x", "y"])
    return pa.record_batch([ident, ints, words, list_of(point_lengths, points)],
                           names=["id", "ints", "words", "points"])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("outdir")
    parser.add_argument("--batches", type=int, default=12)
    parser.add_argument("--batch-rows", type=int, default=1000)
    parser.add_argument("--kinds", default="flat,lists")
    parser.add_argument("--compressions", default="zstd,lz4,none")
    parser.add_argument("--formats", default="file,stream")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    makers = {"flat": flat_batch, "lists": lists_batch}
    for kind in args.kinds.split(","):
        batches = [makers[kind](i * args.batch_rows, args.batch_rows, args.seed + 100 * i)
                   for i in range(args.batches)]
        for compression in args.compressions.split(","):
            codec = {"none": None, "lz4": "lz4", "zstd": "zstd"}[compression]
            options = ipc.IpcWriteOptions(compression=codec)
            for fmt in args.formats.split(","):
                suffix = ".arrow" if fmt == "file" else ".arrows"
                path = os.path.join(args.outdir, kind + "." + compression + suffix)
                opener = ipc.new_file if fmt == "file" else ipc.new_stream
                with pa.OSFile(path + ".tmp", "wb") as sink:
                    with opener(sink, batches[0].schema, options=options) as writer:
                        for batch in batches:
                            writer.write_batch(batch)
                os.replace(path + ".tmp", path)


if __name__ == "__main__":
    main()
