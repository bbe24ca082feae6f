#!/usr/bin/env python3
"""The Python exchange benchmark (make bench-python) and make run's PySpark part.

    python_exchange_bench.py --lineitem PARQUET --lineitem-arrow DIR --nested DIR
                             [--rounds R] [--cases a,b] [--json FILE] [--plot PNG]
    python_exchange_bench.py --demo --nested DIR --record DIR
    python_exchange_bench.py --profile MODE|--memory MODE [--uncached]|--allocation MODE
                             --cases CASE --lineitem ... --lineitem-arrow ... --nested ...
    python_exchange_bench.py --comet --lineitem PARQUET [--rounds R] [--json FILE]
    python_exchange_bench.py --tasks --cases CASE --lineitem ... --lineitem-arrow ... --nested ...

One PySpark session in local[2] with rowbridge's extension (ROWBRIDGE_CLASSPATH names its
jars). The inputs are cached first, so that no scan is timed, except in the columnar cases,
which read format("rowbridge") files. Each case runs a Python exchange and a digest of every
column of its output, in three modes: rowbridge's operators (spark.rowbridge.python.enabled
true), Spark's (false) and Spark's again as an A/A twin. Every mode runs once to warm up, then
the rounds interleave the modes, each round in a rotated order; every run's answer (a sum of
row hashes and a count) must equal the others'. For each run the CPU time of the JVM and of
its Python workers (their process tree) is read from /proc, which splits the time between the
two sides of the socket.

On Spark 4.2, whose Arrow UDFs read a columnar child's batches themselves, a fourth mode,
"spark-rows", is Spark's row path (that columnar input off; MODE_SETTINGS_4_2).

With --comet (ROWBRIDGE_CLASSPATH then names the class path of
scripts/rowbridge_classpath.sh 4.1 comet), the session also has Apache Comet's plugin, and the
cases read lineitem's Parquet file through Comet's native scan (not cached: Comet scans it in
every mode). Spark's mode is then Comet's transition to rows and Spark's ArrowWriter
(rowbridge's reading of Comet's batches off), and a fourth mode, "comet", is Comet's own
exchange (spark.comet.exec.pyarrowUDF.enabled), which hands Comet's batches to Spark's runner
as rows of a batch.
"""

import argparse
import json
import os
import statistics
import sys
import time

import pandas as pd
import pyspark.sql.functions as F
from pyspark.sql import SparkSession
from pyspark.sql.functions import pandas_udf, udf
from pyspark.sql.types import DoubleType

from bench_common import cpu_seconds

ENABLED = "spark.rowbridge.python.enabled"
ENGINES = "spark.rowbridge.columnarToRow.engines.enabled"
COMET_EXCHANGE = "spark.comet.exec.pyarrowUDF.enabled"
MODES = ("rowbridge", "spark", "spark-aa")
COMET_MODES = ("rowbridge", "spark", "spark-aa", "comet")

# The settings of each mode; the Comet ones only in a session with Comet.
MODE_SETTINGS = {
    "rowbridge": {ENABLED: "true"},
    "spark": {ENABLED: "false"},
    "spark-aa": {ENABLED: "false"},
}
# Spark 4.2 reads a columnar child's batches into Arrow UDFs itself (its columnar input, on by
# default). Spark's modes keep that default; "spark-rows" is Spark's row path (the columnar input
# off), as before 4.2; rowbridge's mode runs rowbridge's path either way.
UDF_COLUMNAR_INPUT = "spark.sql.execution.arrow.pythonUDF.columnarInput.enabled"
MODES_4_2 = MODES + ("spark-rows",)
MODE_SETTINGS_4_2 = {
    "rowbridge": {ENABLED: "true", UDF_COLUMNAR_INPUT: "true"},
    "spark": {ENABLED: "false", UDF_COLUMNAR_INPUT: "true"},
    "spark-aa": {ENABLED: "false", UDF_COLUMNAR_INPUT: "true"},
    "spark-rows": {ENABLED: "false", UDF_COLUMNAR_INPUT: "false"},
}
COMET_MODE_SETTINGS = {
    "rowbridge": {ENABLED: "true", ENGINES: "true", COMET_EXCHANGE: "false"},
    "spark": {ENABLED: "false", ENGINES: "false", COMET_EXCHANGE: "false"},
    "spark-aa": {ENABLED: "false", ENGINES: "false", COMET_EXCHANGE: "false"},
    "comet": {ENABLED: "false", ENGINES: "false", COMET_EXCHANGE: "true"},
}


def session(master, memory, java_options="", comet=False):
    os.environ["PYSPARK_PYTHON"] = sys.executable
    classpath = os.environ["ROWBRIDGE_CLASSPATH"]
    builder = SparkSession.builder
    extensions = "io.rowbridge.spark.RowbridgeExtensions"
    if comet:
        extensions += ",org.apache.comet.CometSparkSessionExtensions"
        builder = (
            builder.config("spark.plugins", "org.apache.spark.CometPlugin")
            .config("spark.comet.enabled", "true")
            .config("spark.comet.exec.enabled", "true")
            .config("spark.shuffle.manager",
                    "org.apache.spark.sql.comet.execution.shuffle.CometShuffleManager")
            .config("spark.memory.offHeap.enabled", "true")
            .config("spark.memory.offHeap.size", "2g")
        )
    return (
        builder.master(master)
        .config("spark.driver.extraJavaOptions", java_options)
        .appName("rowbridge python exchange")
        .config("spark.driver.memory", memory)
        .config("spark.driver.extraClassPath", classpath)
        .config("spark.sql.extensions", extensions)
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.ui.showConsoleProgress", "false")
        # The digest hashes map columns too: their entries come in the same order either way.
        .config("spark.sql.legacy.allowHashOnMapType", "true")
        .getOrCreate()
    )


# ---- the cases ----


def digest_frame(df):
    """A sum of every row's hash over all columns (its low 32 bits: no overflow), and the row
    count."""
    hashes = F.xxhash64(*df.columns).bitwiseAND(0xFFFFFFFF)
    return df.select(F.sum(hashes).alias("h"), F.count(F.lit(1)).alias("n"))


def digest(df):
    row = digest_frame(df).collect()[0]
    return row.h, row.n


def arrow_identity(batches):
    for batch in batches:
        yield batch


def pandas_identity(frames):
    for frame in frames:
        yield frame


@pandas_udf(DoubleType())
def weighted(quantity: pd.Series, price: pd.Series, discount: pd.Series) -> pd.Series:
    return quantity * price * (1 - discount)


@pandas_udf(DoubleType())
def mixed_keys(order: pd.Series, part: pd.Series, supplier: pd.Series) -> pd.Series:
    return order.astype("float64") * 0.5 + part - supplier


@udf(DoubleType(), useArrow=True)
def weighted_rows(quantity, price, discount):
    return float(quantity) * float(price) * (1 - float(discount))


def group_identity(frame):
    return frame


def cases(lineitem, lineitem_columnar, nested):
    numeric = ["l_quantity", "l_extendedprice", "l_discount"]
    doubles = [F.col(c).cast("double") for c in numeric]
    return {
        "mapInArrow identity, lineitem": lambda: lineitem.mapInArrow(
            arrow_identity, lineitem.schema
        ),
        "mapInPandas identity, lineitem": lambda: lineitem.mapInPandas(
            pandas_identity, lineitem.schema
        ),
        "mapInArrow identity, nested": lambda: nested.mapInArrow(arrow_identity, nested.schema),
        "pandas UDF, 3 numeric columns": lambda: lineitem.withColumn(
            "weighted", weighted(*doubles)
        ),
        "reference: the same column in SQL, no Python": lambda: lineitem.withColumn(
            "weighted", doubles[0] * doubles[1] * (1 - doubles[2])
        ),
        "Arrow-optimized UDF, 3 numeric columns": lambda: lineitem.withColumn(
            "weighted", weighted_rows(*doubles)
        ),
        "applyInPandas per (l_returnflag, l_linestatus)": lambda: lineitem.groupBy(
            "l_returnflag", "l_linestatus"
        ).applyInPandas(group_identity, lineitem.schema),
        "mapInArrow identity, lineitem from format(rowbridge)": lambda: lineitem_columnar.mapInArrow(
            arrow_identity, lineitem_columnar.schema
        ),
        "mapInPandas identity, lineitem from format(rowbridge)": lambda: lineitem_columnar.mapInPandas(
            pandas_identity, lineitem_columnar.schema
        ),
        "pandas UDF over 3 key columns, lineitem from format(rowbridge)": lambda: (
            lineitem_columnar.withColumn(
                "weighted", mixed_keys("l_orderkey", "l_partkey", "l_suppkey")
            )
        ),
    }


ROWBRIDGE_NODES = ("RowbridgeMapIn", "RowbridgeArrowEvalPython", "RowbridgeFlatMapGroups")


def operator_of(df):
    """Whose Python operator the executed plan of `df` ran."""
    plan = df._jdf.queryExecution().executedPlan().toString()
    return "rowbridge" if any(node in plan for node in ROWBRIDGE_NODES) else "spark"


def run(spark, jvm_pid, build, mode, settings=MODE_SETTINGS):
    for key, value in settings[mode].items():
        spark.conf.set(key, value)
    df = digest_frame(build())
    jvm_before, py_before = cpu_seconds(jvm_pid)
    start = time.perf_counter()
    row = df.collect()[0]  # this frame's own execution, whose plan operator_of reads
    seconds = time.perf_counter() - start
    jvm_after, py_after = cpu_seconds(jvm_pid)
    answer = (row.h, row.n)
    return {
        "seconds": seconds,
        "jvm_cpu": jvm_after - jvm_before,
        "python_cpu": py_after - py_before,
        "answer": answer,
        "operator": operator_of(df),
    }


def measure(spark, jvm_pid, name, build, rounds, modes=MODES, settings=MODE_SETTINGS):
    runs = {mode: [] for mode in modes}
    answers = set()
    for mode in modes:  # warm-up
        answers.add(run(spark, jvm_pid, build, mode, settings)["answer"])
    for r in range(rounds):
        order = modes[r % len(modes):] + modes[: r % len(modes)]
        for mode in order:
            result = run(spark, jvm_pid, build, mode, settings)
            answers.add(result["answer"])
            runs[mode].append(result)
    if len(answers) != 1:
        raise SystemExit(f"{name}: the modes' answers differ: {sorted(answers)}")
    summary = {"case": name, "answer": list(answers)[0], "operator": runs["rowbridge"][0]["operator"]}
    for mode in modes:
        times = [r["seconds"] for r in runs[mode]]
        summary[mode] = {
            "median_s": statistics.median(times),
            "min_s": min(times),
            "max_s": max(times),
            "jvm_cpu_s": statistics.median(r["jvm_cpu"] for r in runs[mode]),
            "python_cpu_s": statistics.median(r["python_cpu"] for r in runs[mode]),
        }
    summary["speedup"] = summary["spark"]["median_s"] / summary["rowbridge"]["median_s"]
    summary["aa"] = summary["spark-aa"]["median_s"] / summary["spark"]["median_s"]
    if "spark-rows" in modes:
        summary["spark_rows_over_spark"] = (
            summary["spark-rows"]["median_s"] / summary["spark"]["median_s"]
        )
    if "comet" in modes:
        summary["against_comet"] = summary["comet"]["median_s"] / summary["rowbridge"]["median_s"]
    return summary


def table(results):
    lines = [
        "| case | rowbridge s | Spark s | A/A s | speed-up | A/A | JVM CPU s (rb / Spark) "
        "| Python CPU s (rb / Spark) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    rows = any("spark-rows" in s for s in results)
    if rows:
        lines[0] += " Spark's row path s | row path / Spark |"
        lines[1] += "---|---|"
    for s in results:
        rb, sp, aa = s["rowbridge"], s["spark"], s["spark-aa"]
        lines.append(
            f"| {s['case']}{'' if s['operator'] == 'rowbridge' else ' (Spark operator)'} "
            f"| {rb['median_s']:.2f} | {sp['median_s']:.2f} | {aa['median_s']:.2f} "
            f"| {s['speedup']:.2f}x | {s['aa']:.2f} "
            f"| {rb['jvm_cpu_s']:.1f} / {sp['jvm_cpu_s']:.1f} "
            f"| {rb['python_cpu_s']:.1f} / {sp['python_cpu_s']:.1f} |"
            + (f" {s['spark-rows']['median_s']:.2f} | {s['spark_rows_over_spark']:.2f} |"
               if rows else "")
        )
    return "\n".join(lines)


def plot(results, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [s["case"] for s in results]
    fig, ax = plt.subplots(figsize=(9, 0.6 * len(names) + 1.5))
    ys = range(len(names))
    ax.barh([y + 0.2 for y in ys], [s["spark"]["median_s"] for s in results], 0.4, label="Spark")
    ax.barh([y - 0.2 for y in ys], [s["rowbridge"]["median_s"] for s in results], 0.4,
            label="rowbridge")
    ax.set_yticks(list(ys))
    ax.set_yticklabels(names, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("seconds, median (local[2])")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def bench(args):
    spark = session("local[2]", "6g")
    jvm_pid = spark._jvm.java.lang.ProcessHandle.current().pid()
    lineitem = spark.read.parquet(args.lineitem).cache()
    nested = spark.read.format("rowbridge").load(args.nested).cache()
    print(f"lineitem: {lineitem.count():,} rows cached; nested: {nested.count():,} rows cached",
          flush=True)
    lineitem_columnar = spark.read.format("rowbridge").load(args.lineitem_arrow)
    chosen = cases(lineitem, lineitem_columnar, nested)
    names = args.cases.split(";") if args.cases else list(chosen)
    results = []
    spark_4_2 = tuple(int(part) for part in spark.version.split(".")[:2]) >= (4, 2)
    modes, settings = (MODES_4_2, MODE_SETTINGS_4_2) if spark_4_2 else (MODES, MODE_SETTINGS)
    for name in names:
        summary = measure(spark, jvm_pid, name, chosen[name], args.rounds, modes, settings)
        results.append(summary)
        print(f"{name}: rowbridge {summary['rowbridge']['median_s']:.2f} s, Spark "
              f"{summary['spark']['median_s']:.2f} s ({summary['speedup']:.2f}x, A/A "
              f"{summary['aa']:.2f})", flush=True)
    print(table(results))
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"spark": spark.version, "rounds": args.rounds, "cases": results}, out,
                      indent=1)
    if args.plot:
        plot(results, args.plot)
    spark.stop()


def comet_bench(args):
    """mapInArrow and mapInPandas identity over Comet's scan of lineitem, in four modes."""
    spark = session("local[2]", "6g", comet=True)
    jvm_pid = spark._jvm.java.lang.ProcessHandle.current().pid()
    lineitem = spark.read.parquet(args.lineitem)
    chosen = {
        "mapInArrow identity, lineitem from Comet's scan": lambda: lineitem.mapInArrow(
            arrow_identity, lineitem.schema
        ),
        "mapInPandas identity, lineitem from Comet's scan": lambda: lineitem.mapInPandas(
            pandas_identity, lineitem.schema
        ),
    }
    results = []
    lines = [
        "| case | rowbridge s | Spark s | A/A s | Comet's exchange s | speed-up | A/A "
        "| against Comet's | JVM CPU s (rb / Spark / Comet) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, build in chosen.items():
        s = measure(spark, jvm_pid, name, build, args.rounds, COMET_MODES, COMET_MODE_SETTINGS)
        results.append(s)
        rb, sp, aa, cm = s["rowbridge"], s["spark"], s["spark-aa"], s["comet"]
        lines.append(
            f"| {name} | {rb['median_s']:.2f} | {sp['median_s']:.2f} | {aa['median_s']:.2f} "
            f"| {cm['median_s']:.2f} | {s['speedup']:.2f}x | {s['aa']:.2f} "
            f"| {s['against_comet']:.2f}x "
            f"| {rb['jvm_cpu_s']:.1f} / {sp['jvm_cpu_s']:.1f} / {cm['jvm_cpu_s']:.1f} |"
        )
        print(lines[-1], flush=True)
    print("\n".join(lines))
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"spark": spark.version, "rounds": args.rounds, "cases": results}, out,
                      indent=1)
    spark.stop()


def profile(args):
    """Where the JVM's time goes in one case: Java Flight Recorder's execution samples over
    `--rounds` runs in one mode after a warm-up run, in a JVM of its own, summed by the frame on
    top of the stack and by the code it belongs to."""
    spark = session("local[2]", "6g")
    lineitem, lineitem_columnar, nested = inputs(spark, args)
    build = cases(lineitem, lineitem_columnar, nested)[args.cases]
    spark.conf.set(ENABLED, "true" if args.profile == "rowbridge" else "false")
    digest(build())  # warm-up
    events = recorded(spark, args, "jdk.ExecutionSample", 1,
                      lambda: [digest(build()) for _ in range(args.rounds)])
    spark.stop()
    from collections import Counter

    frames = Counter()
    for event in events:
        top = ((event["values"].get("stackTrace") or {}).get("frames") or [None])[0]
        if top:
            frames[f"{type_name(top)}.{top['method']['name']}"] += 1
    total = sum(frames.values())
    owners = Counter()
    for frame, count in frames.items():
        owners[owner_of(frame)] += count
    print(f"{args.cases}, {args.profile}: {total} samples")
    for owner, count in owners.most_common():
        print(f"  {100.0 * count / total:5.1f} %  {owner}")
    for frame, count in frames.most_common(15):
        print(f"  {100.0 * count / total:5.1f} %  {frame}")


def task_times(args):
    """Each task's time in one case, per mode: a warm-up run per mode, then one run per mode
    with Spark's event log on; prints each stage's tasks (wall time, the executor's run time and
    CPU time, from the log's task-end events), longest first. Where one task bounds the case,
    its time is the case's."""
    import glob
    import tempfile

    log_dir = tempfile.mkdtemp(prefix="rowbridge-tasks-")
    os.environ["PYSPARK_SUBMIT_ARGS"] = (
        f"--conf spark.eventLog.enabled=true --conf spark.eventLog.dir=file://{log_dir} "
        "--conf spark.eventLog.compress=false pyspark-shell"
    )
    spark = session("local[2]", "6g")
    lineitem, lineitem_columnar, nested = inputs(spark, args)
    build = cases(lineitem, lineitem_columnar, nested)[args.cases]
    jobs = {}
    for mode in ("rowbridge", "spark"):
        spark.conf.set(ENABLED, "true" if mode == "rowbridge" else "false")
        digest(build())  # warm-up
    for mode in ("rowbridge", "spark"):
        spark.conf.set(ENABLED, "true" if mode == "rowbridge" else "false")
        spark.sparkContext.setJobGroup(f"tasks-{mode}", mode)
        start = time.perf_counter()
        digest(build())
        jobs[mode] = time.perf_counter() - start
    spark.sparkContext.setLocalProperty("spark.jobGroup.id", None)
    spark.stop()
    stage_groups, stage_names, tasks = {}, {}, {}
    # Spark 4 writes a directory of rolled files per application.
    paths = [p for p in glob.glob(os.path.join(log_dir, "**"), recursive=True) if os.path.isfile(p)]
    for path in paths:
        if path.endswith(".zstd") or path.endswith(".lz4"):
            raise SystemExit(f"{path}: compressed event log (spark.eventLog.compress is on)")
        with open(path) as log:
            for line in log:
                event = json.loads(line)
                kind = event.get("Event")
                if kind == "SparkListenerJobStart":
                    group = (event.get("Properties") or {}).get("spark.jobGroup.id", "")
                    for stage in event.get("Stage IDs", []):
                        stage_groups[stage] = group
                    for info in event.get("Stage Infos", []):
                        stage_names[info["Stage ID"]] = info["Stage Name"]
                elif kind == "SparkListenerTaskEnd":
                    info, metrics = event["Task Info"], event.get("Task Metrics") or {}
                    tasks.setdefault(event["Stage ID"], []).append((
                        (info["Finish Time"] - info["Launch Time"]) / 1000.0,
                        metrics.get("Executor Run Time", 0) / 1000.0,
                        metrics.get("Executor CPU Time", 0) / 1e9,
                    ))
    for mode in ("rowbridge", "spark"):
        print(f"{args.cases}, {mode}: {jobs[mode]:.2f} s")
        for stage in sorted(s for s, g in stage_groups.items() if g == f"tasks-{mode}"):
            times = sorted(tasks.get(stage, []), reverse=True)
            shown = ", ".join(f"{w:.2f} s (run {r:.2f}, CPU {c:.2f})" for w, r, c in times[:4])
            print(f"  stage {stage} ({stage_names.get(stage, '?')}), {len(times)} tasks: {shown}")


def type_name(frame):
    """The class of a frame of `jfr print --json`, dotted."""
    return frame["method"]["type"]["name"].replace("/", ".")


def recorded(spark, args, event, depth, body):
    """The events `event` (with stacks of `depth` frames) Java Flight Recorder records in the
    session's JVM while `body()` runs, as `jfr print --json` prints them."""
    import subprocess

    recording = os.path.abspath(args.profile_jfr)
    jvm = spark._jvm
    recorder = jvm.jdk.jfr.Recording()
    setting = recorder.enable(event)
    setting.withStackTrace()
    if event == "jdk.ExecutionSample":
        setting.withPeriod(jvm.java.time.Duration.ofMillis(10))
    else:
        setting.withoutThreshold()
    recorder.start()
    body()
    recorder.stop()
    recorder.dump(jvm.java.io.File(recording).toPath())
    recorder.close()
    jfr = os.path.join(os.environ["JAVA_HOME"], "bin", "jfr")
    printed = subprocess.run(
        [jfr, "print", "--json", "--events", event, "--stack-depth", str(depth), recording],
        check=True, capture_output=True, text=True).stdout
    return json.loads(printed)["recording"]["events"]


def memory(args):
    """The JVM's peak resident memory (VmHWM) in one mode, in a JVM of its own: with the inputs
    cached, after caching them and after running one case `--rounds` times; with `--uncached`,
    after a scan of the input alone (its digest) and after the case `--rounds` times over the
    same scan, so that the difference is the exchange's own (the executor's, in local mode).
    The heap is committed and touched at start (-Xms, AlwaysPreTouch), so that the resident
    memory that grows is native memory and code, not the heap's growth, which follows the
    collector rather than the exchange."""
    spark = session("local[2]", "6g", "-Xms6g -XX:+AlwaysPreTouch")
    jvm_pid = spark._jvm.java.lang.ProcessHandle.current().pid()
    lineitem, lineitem_columnar, nested = inputs(spark, args, cache=not args.uncached)
    build = cases(lineitem, lineitem_columnar, nested)[args.cases]
    spark.conf.set(ENABLED, "true" if args.memory == "rowbridge" else "false")
    if args.uncached:
        for _ in range(args.rounds):
            digest(input_of(args.cases, lineitem, lineitem_columnar, nested))
    before = peak_resident_kib(jvm_pid)
    for _ in range(args.rounds):
        digest(build())
    after = peak_resident_kib(jvm_pid)
    print(f"{args.cases}, {args.memory}: JVM peak resident {before / 1024:.0f} MiB after "
          f"{'scanning the input' if args.uncached else 'caching'}, {after / 1024:.0f} MiB "
          f"after {args.rounds} runs")
    spark.stop()


def input_of(name, lineitem, lineitem_columnar, nested):
    if "nested" in name:
        return nested
    return lineitem_columnar if "format(rowbridge)" in name else lineitem


def inputs(spark, args, cache=True):
    """lineitem (Parquet), lineitem in format("rowbridge") (never cached) and the nested
    dataset; the first and the last cached and counted when `cache`."""
    lineitem = spark.read.parquet(args.lineitem)
    nested = spark.read.format("rowbridge").load(args.nested)
    if cache:
        lineitem = lineitem.cache()
        nested = nested.cache()
        lineitem.count()
        nested.count()
    columnar = spark.read.format("rowbridge").load(args.lineitem_arrow) if args.lineitem_arrow \
        else None
    return lineitem, columnar, nested


def allocation(args):
    """What the JVM allocates in one case and mode, in a JVM of its own: Java Flight Recorder's
    allocation samples (jdk.ObjectAllocationSample, whose weights add up to the bytes allocated)
    over `--rounds` runs after a warm-up run, split by whether rowbridge's code is on the
    allocating stack, per row of the case's input."""
    spark = session("local[2]", "6g")
    lineitem, lineitem_columnar, nested = inputs(spark, args)
    build = cases(lineitem, lineitem_columnar, nested)[args.cases]
    spark.conf.set(ENABLED, "true" if args.allocation == "rowbridge" else "false")
    rows = digest(build())[1]  # warm-up
    events = recorded(spark, args, "jdk.ObjectAllocationSample", 64,
                      lambda: [digest(build()) for _ in range(args.rounds)])
    spark.stop()
    ours = total = 0
    by_site = {}
    everywhere = {}
    for event in events:
        values = event["values"]
        weight = values["weight"]
        total += weight
        frames = [type_name(f) + "." + f["method"]["name"]
                  for f in (values.get("stackTrace") or {}).get("frames") or []]
        site = (values["objectClass"]["name"].replace("/", "."),) + tuple(frames[:4])
        everywhere[site] = everywhere.get(site, 0) + weight
        if allocated_by_rowbridge(frames):
            ours += weight
            by_site[site] = by_site.get(site, 0) + weight
    all_rows = rows * args.rounds
    print(f"{args.cases}, {args.allocation}: {len(events)} allocation samples over "
          f"{args.rounds} runs of {rows:,} rows; JVM allocation {total / all_rows:.1f} B/row, "
          f"by rowbridge's code {ours / all_rows:.3f} B/row")
    for title, sites in (("rowbridge's", by_site), ("all", everywhere)):
        print(f" {title} top sites (sampled: a sample weighs what its thread allocated since "
              "its last one):")
        for site, weight in sorted(sites.items(), key=lambda kv: -kv[1])[:6]:
            print(f"  {weight / all_rows:8.3f} B/row  {site[0]} at " + " < ".join(site[1:]))


def allocated_by_rowbridge(frames):
    """Whether rowbridge's code is the allocating stack's nearest code of a project: a frame of
    rowbridge's comes before (nearer the allocation than) any frame of Spark's generated code or
    Spark's operators, whose allocations (reading the child's rows, say) rowbridge's iterators
    only trigger."""
    for frame in frames:
        if frame.startswith(("io.rowbridge", "org.apache.spark.sql.execution.python.rowbridge")):
            return True
        if "GeneratedClass" in frame or frame.startswith((
                "org.apache.spark.sql.execution", "org.apache.spark.sql.catalyst",
                "org.apache.spark.api.python", "org.apache.spark.rdd")):
            return False
    return False


def peak_resident_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


OWNERS = (
    ("io.rowbridge", "rowbridge (Java side)"),
    ("org.apache.spark.sql.execution.arrow", "Spark's ArrowWriter"),
    ("org.apache.spark.sql.vectorized", "Spark's Arrow column vectors"),
    ("org.apache.spark.sql.catalyst.expressions", "Spark's projections and rows"),
    ("org.apache.arrow", "Arrow Java (vectors, IPC)"),
    ("org.apache.spark.unsafe", "Spark's memory access"),
    ("sun.nio", "sockets"),
    ("java.", "the JDK"),
    ("jdk.", "the JDK"),
)


def owner_of(frame):
    for prefix, owner in OWNERS:
        if frame.startswith(prefix):
            return owner
    return frame.rsplit(".", 2)[0] if "." in frame else frame


def demo(args):
    """make run's PySpark part: a mapInArrow and a pandas UDF over the demo's data, each with
    rowbridge's operators and with Spark's, answers compared and timed."""
    spark = session("local[2]", "3g")
    # The first million rows of the workload of record, and every nested row.
    record = spark.read.format("rowbridge").load(args.record).where(F.col("a") < 1000000).cache()
    nested = spark.read.format("rowbridge").load(args.nested).cache()
    print(f"== PySpark {spark.version}: record {record.count():,} rows, nested "
          f"{nested.count():,} rows (cached), local[2]")

    @pandas_udf("double")
    def scaled(b: pd.Series, c: pd.Series) -> pd.Series:
        return b * 0.5 + c

    shown = {
        "mapInArrow identity over nested": lambda: nested.mapInArrow(
            arrow_identity, nested.schema
        ),
        "pandas UDF over record (b, c)": lambda: record.withColumn("scaled", scaled("b", "c")),
    }
    for name, build in shown.items():
        timings = {}
        for mode in ("rowbridge", "spark"):
            spark.conf.set(ENABLED, "true" if mode == "rowbridge" else "false")
            digest(build())  # warm-up
            start = time.perf_counter()
            timings[mode] = (digest(build()), time.perf_counter() - start)
        (ours, ours_s), (theirs, theirs_s) = timings["rowbridge"], timings["spark"]
        if ours != theirs:
            raise SystemExit(f"{name}: rowbridge {ours} != Spark {theirs}")
        print(f"{name}: hash sum {ours[0]}, {ours[1]:,} rows; rowbridge {ours_s:.2f} s, "
              f"Spark {theirs_s:.2f} s ({theirs_s / ours_s:.2f}x)")
    spark.conf.set(ENABLED, "true")
    few = nested.where(F.col("id") < 3)
    sample = few.mapInArrow(arrow_identity, few.schema).collect()
    for row in sample:
        print(f"  {row}")
    spark.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lineitem")
    parser.add_argument("--lineitem-arrow")
    parser.add_argument("--nested")
    parser.add_argument("--comet", action="store_true")
    parser.add_argument("--tasks", action="store_true")
    parser.add_argument("--record")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cases", default="")
    parser.add_argument("--json", default="")
    parser.add_argument("--plot", default="")
    parser.add_argument("--demo", action="store_true")
    parser.add_argument("--profile", choices=("rowbridge", "spark"))
    parser.add_argument("--profile-jfr", default="build/bench/python.jfr")
    parser.add_argument("--memory", choices=("rowbridge", "spark"))
    parser.add_argument("--uncached", action="store_true")
    parser.add_argument("--allocation", choices=("rowbridge", "spark"))
    args = parser.parse_args()
    if args.comet:
        comet_bench(args)
    elif args.tasks:
        task_times(args)
    elif args.demo:
        demo(args)
    elif args.profile:
        profile(args)
    elif args.memory:
        memory(args)
    elif args.allocation:
        allocation(args)
    else:
        bench(args)


if __name__ == "__main__":
    main()
