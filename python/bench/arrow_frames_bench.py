#!/usr/bin/env python3
"""Data that is already Arrow, to Python: rowbridge.spark's to_arrow and to_pandas of Arrow-native
plans against PySpark's own and against pyarrow reading the same files (part of make
bench-python).

    arrow_frames_bench.py --lineitem PARQUET --files DIR [--rounds R] [--json FILE] [--comet]
    arrow_frames_bench.py --memory SOURCE OP MODE --lineitem PARQUET --files DIR   (one run)

Sources, both TPC-H lineitem at SF 1:
- files: ``format("rowbridge")`` over DIR, lineitem written there once as 8 LZ4 IPC files of
  64 k-row batches;
- cache: lineitem cached with rowbridge's Arrow cache (``ArrowCachedBatchSerializer``);
- comet (with --comet, in a session with Apache Comet's plugin and Comet's jar on
  ROWBRIDGE_CLASSPATH): Comet's native scan of the Parquet file, whose batches rowbridge takes
  through Comet's EngineInput; its floor is pyarrow reading the Parquet file.

Operations and modes:
- to_arrow: rowbridge (the plan's own Arrow batches), rowbridge-rows (the same with
  ``spark.rowbridge.frames.columnar.enabled=false``: rows through rowbridge's decoder), spark
  (PySpark's ``toArrow``), spark-aa (the same again, the A/A twin), and for the files pyarrow
  (``pyarrow.feather.read_table`` of each file, then one table: the floor).
- to_pandas: the same modes with ``to_pandas``, PySpark's Arrow ``toPandas`` and pyarrow's
  ``to_pandas`` after its read (``date_as_object``, as PySpark's).

Timing: one PySpark session in local[2] (the source tree's python/rowbridge; ROWBRIDGE_CLASSPATH
names rowbridge's jars); every mode runs once to warm up, then the rounds interleave the modes in a
rotated order; every answer (rows, and the sum of l_orderkey) must equal Spark's. Memory: each
source, operation and mode once more in a process of its own, reporting the peak resident memory of
the Python driver and of the driver's JVM.
"""

import argparse
import glob
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)

import pyarrow as pa  # noqa: E402
import pyarrow.compute  # noqa: E402,F401
import pyarrow.feather as feather  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402
import frames_bench  # noqa: E402
from frames_bench import jvm_pid, peak_kib, reset_peak  # noqa: E402

import rowbridge.spark  # noqa: E402

SOURCES = ("files", "cache")
COMET_SETTINGS = {
    "spark.plugins": "org.apache.spark.CometPlugin",
    "spark.sql.extensions": rowbridge.spark.EXTENSION
    + ",org.apache.comet.CometSparkSessionExtensions",
    "spark.comet.enabled": "true",
    "spark.comet.exec.enabled": "true",
    "spark.memory.offHeap.enabled": "true",
    "spark.memory.offHeap.size": "4g",
}
OPS = ("to_arrow", "to_pandas")
MODES = ("rowbridge", "rowbridge-rows", "spark", "spark-aa", "pyarrow")
COLUMNAR = "spark.rowbridge.frames.columnar.enabled"


def session(comet=False):
    if comet:
        return frames_bench.session("rowbridge-comet-frames-bench", COMET_SETTINGS)
    return frames_bench.session(
        "rowbridge-arrow-frames-bench",
        {"spark.sql.cache.serializer": "io.rowbridge.spark.ArrowCachedBatchSerializer"},
    )


def write_files(spark, parquet, directory):
    """lineitem as 8 LZ4 IPC files of 64 k-row batches, once."""
    if glob.glob(os.path.join(directory, "*.arrow")):
        return
    (
        spark.read.parquet(parquet)
        .repartition(8)
        .write.format("rowbridge")
        .option("compression", "lz4")
        .option("maxRowsPerBatch", "65536")
        .mode("overwrite")
        .save(directory)
    )


class Sources:
    def __init__(self, spark, args, wanted):
        self.lineitem = args.lineitem
        self.frames = {}
        if "comet" in wanted:
            self.files = [args.lineitem]
            self.frames["comet"] = spark.read.parquet(args.lineitem)
            return
        write_files(spark, args.lineitem, args.files)
        self.files = sorted(glob.glob(os.path.join(args.files, "*.arrow")))
        if "files" in wanted:
            self.frames["files"] = spark.read.format("rowbridge").load(args.files)
        if "cache" in wanted:
            cached = spark.read.parquet(args.lineitem).cache()
            cached.count()
            self.frames["cache"] = cached


def pyarrow_table(files):
    return pa.concat_tables([feather.read_table(path) for path in files])


def run(spark, sources, source, op, mode):
    """One run; returns (seconds, answer) or None where the mode does not apply."""
    if mode == "pyarrow" and source == "cache":
        return None
    df = sources.frames[source]
    if mode == "rowbridge-rows":
        spark.conf.set(COLUMNAR, "false")
    start = time.perf_counter()
    try:
        if mode == "pyarrow":
            if source == "comet":
                table = pq.read_table(sources.lineitem)
            else:
                table = pyarrow_table(sources.files)
            result = table if op == "to_arrow" else table.to_pandas(date_as_object=True)
        elif mode.startswith("rowbridge"):
            result = (rowbridge.spark.to_arrow if op == "to_arrow" else rowbridge.spark.to_pandas)(df)
        else:
            result = df.toArrow() if op == "to_arrow" else df.toPandas()
        seconds = time.perf_counter() - start
    finally:
        spark.conf.unset(COLUMNAR)
    if op == "to_arrow":
        answer = (result.num_rows, pa.compute.sum(result.column("l_orderkey")).as_py())
    else:
        answer = (len(result), int(result["l_orderkey"].sum()))
    del result
    return seconds, answer


def measure(spark, sources, source, op, rounds):
    modes = [m for m in MODES if run(spark, sources, source, op, m) is not None]  # warm-up
    expected = run(spark, sources, source, op, "spark")[1]
    times = {mode: [] for mode in modes}
    for r in range(rounds):
        for mode in modes[r % len(modes):] + modes[: r % len(modes)]:
            seconds, answer = run(spark, sources, source, op, mode)
            if answer != expected:
                raise SystemExit("%s %s %s: answer %s, Spark's %s"
                                 % (source, op, mode, answer, expected))
            times[mode].append(seconds)
            print("  %-6s %-10s %-15s %7.2f s" % (source, op, mode, seconds), flush=True)
    return times


def memory_run(args):
    source, op, mode = args.memory
    spark = session(source == "comet")
    sources = Sources(spark, args, [source])
    jvm = jvm_pid(spark)
    for pid in (os.getpid(), jvm):
        reset_peak(pid)
    run(spark, sources, source, op, mode)
    peaks = {"python": peak_kib(os.getpid()) / 1024, "jvm": peak_kib(jvm) / 1024}
    print("MEMORY " + json.dumps(peaks), flush=True)
    spark.stop()


def memory_of(args, source, op, mode):
    command = [sys.executable, os.path.abspath(__file__), "--memory", source, op, mode,
               "--lineitem", args.lineitem, "--files", args.files]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    line = next(line for line in output.splitlines() if line.startswith("MEMORY "))
    return json.loads(line[len("MEMORY "):])


def bench(args):
    spark = session(args.comet)
    wanted = ("comet",) if args.comet else SOURCES
    sources = Sources(spark, args, wanted)
    size = sum(os.path.getsize(path) for path in sources.files)
    print("== Arrow-native DataFrames to Python: lineitem SF 1 (%d files, %.0f MiB); %d rounds"
          % (len(sources.files), size / 2**20, args.rounds), flush=True)
    results = {"rounds": args.rounds, "files_mib": size / 2**20, "cases": {}}
    for source in wanted:
        for op in OPS:
            results["cases"]["%s %s" % (source, op)] = {
                "seconds": measure(spark, sources, source, op, args.rounds)}
    spark.stop()
    for key, result in results["cases"].items():
        source, op = key.split()
        result["memory"] = {mode: memory_of(args, source, op, mode)
                            for mode in ("rowbridge", "spark")}
    print()
    print("| source | operation | rowbridge s | by rows s | Spark s | A/A | pyarrow s"
          " | × Spark | ÷ pyarrow | peak MiB Python / JVM: rowbridge | Spark |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for key, result in results["cases"].items():
        best = {mode: min(values) for mode, values in result["seconds"].items()}
        result["best"] = best
        result["median"] = {m: statistics.median(v) for m, v in result["seconds"].items()}
        floor = best.get("pyarrow")
        memory = result["memory"]
        print("| %s | %s | %.2f | %.2f | %.2f | %.2f | %s | %.2f× | %s | %.0f / %.0f | %.0f / %.0f |"
              % (*key.split(), best["rowbridge"], best["rowbridge-rows"], best["spark"],
                 best["spark"] / best["spark-aa"], "%.2f" % floor if floor else "–",
                 best["spark"] / best["rowbridge"],
                 "%.2f×" % (best["rowbridge"] / floor) if floor else "–",
                 memory["rowbridge"]["python"], memory["rowbridge"]["jvm"],
                 memory["spark"]["python"], memory["spark"]["jvm"]))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(results, out, indent=1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lineitem", required=True)
    parser.add_argument("--files", required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", default="")
    parser.add_argument("--memory", nargs=3, metavar=("SOURCE", "OP", "MODE"))
    parser.add_argument("--comet", action="store_true", help="Comet's scan of the Parquet file")
    args = parser.parse_args()
    if args.memory:
        memory_run(args)
    else:
        bench(args)


if __name__ == "__main__":
    main()
