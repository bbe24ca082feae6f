#!/usr/bin/env python3
"""rowbridge.spark on a Spark Connect session: to_arrow, to_pandas and create_dataframe against
Connect's own toArrow, toPandas and createDataFrame (part of make bench-python).

    connect_frames_bench.py --lineitem PARQUET --files DIR [--rounds R] [--json FILE]

Sources, both TPC-H lineitem at SF 1:
- rows: lineitem cached in Spark's default cache (a row plan: rowbridge's decoder makes the
  batches);
- arrow: ``format("rowbridge")`` over DIR (8 LZ4 IPC files of 64 k-row batches, written by
  arrow_frames_bench.py if missing): an Arrow-native plan, whose own batches go out.

Operations and modes: to_arrow and to_pandas of each source (rowbridge, connect: Connect's own,
connect-aa: the same again, the A/A twin); create_dataframe of lineitem's first --create-rows
rows (1.5 M by default: Connect's own createDataFrame holds every row on the server's driver,
and all of lineitem exhausts an 8 GiB driver there) as a pyarrow Table (rowbridge, connect,
connect-aa), each followed by a write to Spark's noop sink so that every row is made.

Timing: one Connect session, ``remote("local[2]")`` (its server in this process's JVM, with
rowbridge's jars from ROWBRIDGE_CLASSPATH and its plugin); every mode runs once to warm up, then
the rounds interleave the modes in a rotated order; every answer must equal Connect's.
"""

import argparse
import glob
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)

import pyarrow as pa  # noqa: E402
import pyarrow.compute  # noqa: E402,F401
from pyspark.sql import SparkSession  # noqa: E402

from frames_bench import lineitem_table  # noqa: E402

import rowbridge.spark  # noqa: E402
from rowbridge.spark import _connect  # noqa: E402

MODES = ("rowbridge", "connect", "connect-aa")
CASES = ("rows to_arrow", "rows to_pandas", "arrow to_arrow", "arrow to_pandas", "table create_dataframe")


def session():
    os.environ["PYSPARK_PYTHON"] = sys.executable
    builder = (
        SparkSession.builder.remote("local[2]")
        .config("spark.driver.extraClassPath", os.environ["ROWBRIDGE_CLASSPATH"])
        .config("spark.sql.extensions", rowbridge.spark.EXTENSION)
        .config("spark.driver.memory", "8g")
        .config("spark.driver.maxResultSize", "0")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
    )
    for setting in _connect.PLUGIN_SETTINGS:
        builder = builder.config(setting, _connect.PLUGIN)
    return builder.getOrCreate()


class Sources:
    def __init__(self, spark, args):
        if not glob.glob(os.path.join(args.files, "*.arrow")):
            raise SystemExit("%s has no IPC files: run arrow_frames_bench.py first" % args.files)
        self.frames = {
            "rows": spark.read.parquet(args.lineitem).cache(),
            "arrow": spark.read.format("rowbridge").load(args.files),
        }
        self.frames["rows"].count()
        self.table = lineitem_table(args.lineitem).slice(0, args.create_rows)


def run(spark, sources, case, mode):
    source, op = case.split()
    ours = mode == "rowbridge"
    start = time.perf_counter()
    if op == "create_dataframe":
        table = sources.table
        if ours:
            df = rowbridge.spark.create_dataframe(spark, table)
        else:
            df = spark.createDataFrame(table)
        df.write.format("noop").mode("overwrite").save()
        answer = (table.num_rows,)
    else:
        df = sources.frames[source]
        if op == "to_arrow":
            result = rowbridge.spark.to_arrow(df) if ours else df.toArrow()
            answer = (result.num_rows, pa.compute.sum(result.column("l_orderkey")).as_py())
        else:
            result = rowbridge.spark.to_pandas(df) if ours else df.toPandas()
            answer = (len(result), int(result["l_orderkey"].sum()))
        del result
    return time.perf_counter() - start, answer


def measure(spark, sources, case, rounds):
    expected = {mode: run(spark, sources, case, mode)[1] for mode in MODES}  # warm-up
    if len(set(expected.values())) != 1:
        raise SystemExit("%s: answers differ: %s" % (case, expected))
    times = {mode: [] for mode in MODES}
    for r in range(rounds):
        for mode in MODES[r % len(MODES):] + MODES[: r % len(MODES)]:
            seconds, answer = run(spark, sources, case, mode)
            if answer != expected["connect"]:
                raise SystemExit("%s %s: answer %s, Connect's %s" % (case, mode, answer, expected))
            times[mode].append(seconds)
            print("  %-24s %-11s %7.2f s" % (case, mode, seconds), flush=True)
    return times


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lineitem", required=True)
    parser.add_argument("--files", required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cases", help="cases to run, separated by semicolons")
    parser.add_argument("--create-rows", type=int, default=1_500_000)
    parser.add_argument("--json")
    args = parser.parse_args()
    cases = args.cases.split(";") if args.cases else list(CASES)
    spark = session()
    sources = Sources(spark, args)
    print("== rowbridge.spark on Spark Connect (remote(\"local[2]\")): lineitem SF 1; %d rounds"
          % args.rounds, flush=True)
    results = {"rounds": args.rounds, "cases": {}}
    for case in cases:
        results["cases"][case] = {"seconds": measure(spark, sources, case, args.rounds)}
    spark.stop()
    print()
    print("| source | operation | rowbridge s | Connect s | A/A | × Connect |")
    print("|---|---|---:|---:|---:|---:|")
    for case, result in results["cases"].items():
        best = {mode: min(values) for mode, values in result["seconds"].items()}
        result["best"] = best
        result["median"] = {m: statistics.median(v) for m, v in result["seconds"].items()}
        print("| %s | %s | %.2f | %.2f | %.2f | %.2f× |"
              % (*case.split(), best["rowbridge"], best["connect"],
                 best["connect"] / best["connect-aa"], best["connect"] / best["rowbridge"]))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(results, out, indent=1)


if __name__ == "__main__":
    main()
