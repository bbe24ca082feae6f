#!/usr/bin/env python3
"""DataFrames to and from Arrow and pandas: rowbridge.spark against PySpark's own (part of make
bench-python).

    frames_bench.py --lineitem PARQUET [--rounds R] [--ops a,b] [--json FILE]
    frames_bench.py --memory OP MODE --lineitem PARQUET      (one run; prints its peaks)

Three operations over TPC-H lineitem (SF 1), each in three modes: rowbridge, Spark and Spark
again as an A/A twin.

- to_arrow: rowbridge.spark.to_arrow(df) against df.toArrow(), df being lineitem cached.
- to_pandas: rowbridge.spark.to_pandas(df) against df.toPandas() with Arrow enabled.
- create_dataframe: rowbridge.spark.create_dataframe(spark, table) against
  spark.createDataFrame(table), from lineitem as a pyarrow.Table, each followed by a write to
  Spark's noop sink, so that every row is made.

Timing: one PySpark session in local[2] (the source tree's python/rowbridge; ROWBRIDGE_CLASSPATH
names rowbridge's jars); every mode runs once to warm up, then the rounds interleave the modes,
each round in a rotated order; each run's answer (row count, and a column's sum) must equal the
others'. Memory: each operation and mode once more in a process of its own (--memory), which
reports the peak resident memory of the Python driver (VmHWM) and of the driver's JVM, and how
much each grew during the run.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

import pyarrow as pa  # noqa: E402
import pyarrow.compute  # noqa: E402,F401
import pyarrow.parquet as pq  # noqa: E402
from pyspark.sql import SparkSession  # noqa: E402

import rowbridge.spark  # noqa: E402

MODES = ("rowbridge", "spark", "spark-aa")
OPS = ("to_arrow", "to_pandas", "create_dataframe")


def session(name="rowbridge-frames-bench", settings=None):
    """The benchmarks' session: local[2], rowbridge's jars and extension, Arrow on, and
    ``settings`` besides."""
    os.environ["PYSPARK_PYTHON"] = sys.executable
    classpath = os.environ["ROWBRIDGE_CLASSPATH"]
    builder = (
        SparkSession.builder.master("local[2]")
        .appName(name)
        .config("spark.driver.extraClassPath", classpath)
        .config("spark.sql.extensions", rowbridge.spark.EXTENSION)
        .config("spark.driver.memory", "8g")
        .config("spark.driver.maxResultSize", "0")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
    )
    for key, value in (settings or {}).items():
        builder = builder.config(key, value)
    return builder.getOrCreate()


def jvm_pid(spark):
    return int(spark._jvm.java.lang.ProcessHandle.current().pid())


def peak_kib(pid, field="VmHWM"):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def reset_peak(pid):
    """Starts a new peak (Linux: writing 5 to clear_refs resets VmHWM)."""
    try:
        with open("/proc/%d/clear_refs" % pid, "w") as refs:
            refs.write("5")
    except OSError:
        pass


class Inputs:
    """lineitem cached in Spark, and as a pyarrow.Table, made once."""

    def __init__(self, spark, parquet, ops):
        self.df = spark.read.parquet(parquet).cache()
        self.rows = self.df.count()
        self.table = None
        if "create_dataframe" in ops:
            self.table = lineitem_table(parquet)


def lineitem_table(parquet):
    """lineitem as a pyarrow.Table as Spark reads the file: plain strings (the generator writes
    string views)."""
    table = pq.read_table(parquet)
    return table.cast(
        pa.schema(
            [
                pa.field(f.name, pa.string(), f.nullable) if f.type == pa.string_view() else f
                for f in table.schema
            ]
        )
    )


def answer_of_table(table):
    return table.num_rows, pa.compute.sum(table.column("l_orderkey")).as_py()


def run(spark, inputs, op, mode):
    """Runs one operation in one mode; returns (seconds, answer)."""
    ours = mode == "rowbridge"
    start = time.perf_counter()
    if op == "to_arrow":
        result = rowbridge.spark.to_arrow(inputs.df) if ours else inputs.df.toArrow()
        answer = answer_of_table(result)
    elif op == "to_pandas":
        result = rowbridge.spark.to_pandas(inputs.df) if ours else inputs.df.toPandas()
        answer = (len(result), int(result["l_orderkey"].sum()))
    else:
        if ours:
            df = rowbridge.spark.create_dataframe(spark, inputs.table)
        else:
            df = spark.createDataFrame(inputs.table)
        df.write.format("noop").mode("overwrite").save()
        answer = (inputs.table.num_rows, None)
        result = df
    seconds = time.perf_counter() - start
    del result
    return seconds, answer


def measure(spark, inputs, op, rounds):
    times = {mode: [] for mode in MODES}
    answers = {}
    for mode in MODES:
        _, answers[mode] = run(spark, inputs, op, mode)
    for r in range(rounds):
        order = MODES[r % len(MODES):] + MODES[: r % len(MODES)]
        for mode in order:
            seconds, answer = run(spark, inputs, op, mode)
            if answer != answers["spark"]:
                raise SystemExit("%s %s: answer %s, Spark's %s" % (op, mode, answer, answers["spark"]))
            times[mode].append(seconds)
            print("  %-17s %-10s %7.2f s" % (op, mode, seconds), flush=True)
    return times


def memory_run(args):
    """One operation in one mode, in this process: prints the peaks as JSON."""
    spark = session()
    inputs = Inputs(spark, args.lineitem, [args.memory[0]])
    jvm = jvm_pid(spark)
    own = os.getpid()
    for pid in (own, jvm):
        reset_peak(pid)
    before = {"python": peak_kib(own, "VmRSS"), "jvm": peak_kib(jvm, "VmRSS")}
    run(spark, inputs, args.memory[0], args.memory[1])
    peaks = {"python": peak_kib(own), "jvm": peak_kib(jvm)}
    print(
        "MEMORY "
        + json.dumps(
            {
                "op": args.memory[0],
                "mode": args.memory[1],
                "peak_mib": {k: v / 1024 for k, v in peaks.items()},
                "growth_mib": {k: (peaks[k] - before[k]) / 1024 for k in peaks},
            }
        ),
        flush=True,
    )
    spark.stop()


def memory_of(args, op, mode):
    command = [sys.executable, os.path.abspath(__file__), "--memory", op, mode,
               "--lineitem", args.lineitem]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    line = next(line for line in output.splitlines() if line.startswith("MEMORY "))
    return json.loads(line[len("MEMORY "):])


def bench(args):
    ops = [op for op in (args.ops.split(",") if args.ops else OPS)]
    spark = session()
    inputs = Inputs(spark, args.lineitem, ops)
    print("== DataFrames to and from Arrow and pandas: lineitem, %d rows; %d rounds"
          % (inputs.rows, args.rounds), flush=True)
    results = {"rows": inputs.rows, "rounds": args.rounds, "ops": {}}
    for op in ops:
        times = measure(spark, inputs, op, args.rounds)
        results["ops"][op] = {"seconds": times}
    spark.stop()
    for op in ops:
        results["ops"][op]["memory"] = {mode: memory_of(args, op, mode) for mode in MODES[:2]}
    print()
    print("| operation | rowbridge s | Spark s | speed-up | A/A | Python peak MiB rowbridge / Spark"
          " | JVM peak MiB rowbridge / Spark |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for op, result in results["ops"].items():
        best = {mode: min(values) for mode, values in result["seconds"].items()}
        median = {mode: statistics.median(values) for mode, values in result["seconds"].items()}
        result["best"] = best
        result["median"] = median
        result["speedup"] = best["spark"] / best["rowbridge"]
        result["aa"] = best["spark"] / best["spark-aa"]
        memory = result["memory"]
        print("| %s | %.2f | %.2f | %.2f× | %.2f | %.0f / %.0f | %.0f / %.0f |" % (
            op, best["rowbridge"], best["spark"], result["speedup"], result["aa"],
            memory["rowbridge"]["peak_mib"]["python"], memory["spark"]["peak_mib"]["python"],
            memory["rowbridge"]["peak_mib"]["jvm"], memory["spark"]["peak_mib"]["jvm"]))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(results, out, indent=1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lineitem", required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--ops", default="")
    parser.add_argument("--json", default="")
    parser.add_argument("--memory", nargs=2, metavar=("OP", "MODE"))
    args = parser.parse_args()
    if args.memory:
        memory_run(args)
    else:
        bench(args)


if __name__ == "__main__":
    main()
