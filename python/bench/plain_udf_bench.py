#!/usr/bin/env python3
"""Plain (pickled) Python UDFs: rowbridge's path against Spark's (part of make bench-python).

    plain_udf_bench.py --lineitem PARQUET [--rounds R] [--cases a;b] [--aa MODE] [--json FILE]

Seven cases over TPC-H lineitem (cached and counted first), each a query whose digest forces
every row of the UDF's output (a sum of the rows' hashes, and a count):

- numeric: ``p * (1 - d)`` on l_extendedprice and l_discount as doubles, returning a double;
- string: ``s.upper()`` on l_comment;
- decimal: ``p * (1 - d)`` on the decimal columns, returning decimal(18,4);
- date: ``d + timedelta(days=1)`` on l_shipdate, returning a date;
- struct: ``(p * (1 - d), d.year)`` returning struct<net: double, year: int>;
- two UDFs in one projection: the numeric and the string ones;
- a UDF in a filter: ``d < 0.05`` on l_discount as a double, the filtered rows' keys digested.

Each case runs in five modes: "pickled" (Spark's pickled path: BatchEvalPython,
spark.rowbridge.python.enabled false), "rowbridge" (the same UDFs on rowbridge's path:
RowbridgeBatchEvalPython, enabled true), "arrow" (the same functions with useArrow=True on
Spark's own Arrow path, rowbridge off), "sql" (the same expression in SQL, no Python: the
floor) and an A/A twin (--aa, default the pickled mode again, to show the noise).

Timing: one PySpark session in local[2] with rowbridge's extension (ROWBRIDGE_CLASSPATH names its
jars) and rowbridge's Python worker and daemon modules (what rowbridge.spark.configure sets),
imported from this tree's python/ directory. Every mode runs once to warm up, then the rounds
interleave the modes, each round in a rotated order. Every run's answer must equal the pickled
path's (the arrow mode's differences are reported, not fatal: Spark's Arrow path may coerce
types otherwise). For each run the CPU time of the JVM and of its Python workers (the JVM's
process tree: the daemon and the workers it forks) is read from /proc around the run.
"""

import argparse
import datetime
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = os.path.abspath(os.path.join(HERE, ".."))
sys.path.insert(0, SOURCES)

import pyspark.sql.functions as F  # noqa: E402
from pyspark.sql import SparkSession  # noqa: E402
from pyspark.sql.functions import udf  # noqa: E402
from pyspark.sql.types import (  # noqa: E402
    BooleanType,
    DateType,
    DecimalType,
    DoubleType,
    IntegerType,
    StringType,
    StructField,
    StructType,
)

from bench_common import cpu_seconds, jvm_pid  # noqa: E402
from rowbridge.spark._configure import EXTENSION, PYTHON_MODULES  # noqa: E402

ENABLED = "spark.rowbridge.python.enabled"
MODES = ("sql", "pickled", "rowbridge", "arrow")
# The kind of query each mode runs (a mode's UDFs: plain, useArrow, or none) and its settings.
KIND = {"sql": "sql", "pickled": "udf", "rowbridge": "udf", "arrow": "arrow"}
SETTINGS = {"sql": "false", "pickled": "false", "rowbridge": "true", "arrow": "false"}
DAY = datetime.timedelta(days=1)


def session():
    os.environ["PYSPARK_PYTHON"] = sys.executable
    # The workers import rowbridge's worker and daemon modules from this tree.
    paths = [SOURCES] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    os.environ["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    builder = SparkSession.builder.master("local[2]").appName("rowbridge plain UDFs")
    for setting, module in PYTHON_MODULES.items():
        builder = builder.config(setting, module)
    return (
        builder.config("spark.driver.memory", "6g")
        .config("spark.driver.extraClassPath", os.environ["ROWBRIDGE_CLASSPATH"])
        .config("spark.sql.extensions", EXTENSION)
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.executorEnv.TZ", "UTC")
        .getOrCreate()
    )


# ---- the functions, each as a plain UDF and as an Arrow-optimized one ----


def net(p, d):
    return p * (1 - d)


def upper(s):
    return s.upper()


def next_day(d):
    return d + DAY


def net_and_year(p, d, shipped):
    return (p * (1 - d), shipped.year)


def small_discount(d):
    return d < 0.05


FUNCTIONS = {
    "net": (net, DoubleType()),
    "upper": (upper, StringType()),
    "decimal_net": (net, DecimalType(18, 4)),
    "next_day": (next_day, DateType()),
    "net_and_year": (net_and_year, StructType([StructField("net", DoubleType()),
                                               StructField("year", IntegerType())])),
    "small_discount": (small_discount, BooleanType()),
}
UDFS = {
    kind: {name: udf(f, t, useArrow=(kind == "arrow")) for name, (f, t) in FUNCTIONS.items()}
    for kind in ("udf", "arrow")
}


def digest(df, *columns):
    """A sum of the rows' hashes over `columns` (their low 32 bits: no overflow) and a count."""
    hashes = F.xxhash64(*columns).bitwiseAND(0xFFFFFFFF)
    return df.select(F.sum(hashes).alias("h"), F.count(F.lit(1)).alias("n"))


def cases(lineitem):
    """{case: build(kind) -> the digest DataFrame}, kind "udf", "arrow" or "sql"."""
    price = F.col("l_extendedprice").cast("double")
    discount = F.col("l_discount").cast("double")
    doubles = lineitem.select(price.alias("p"), discount.alias("d"), "l_comment", "l_shipdate")

    def fn(kind, name):
        return UDFS[kind][name]

    def numeric(kind):
        out = fn(kind, "net")("p", "d") if kind != "sql" else F.col("p") * (1 - F.col("d"))
        return digest(doubles.select(out.alias("out")), "out")

    def string(kind):
        out = fn(kind, "upper")("l_comment") if kind != "sql" else F.upper("l_comment")
        return digest(lineitem.select(out.alias("out")), "out")

    def decimal(kind):
        p, d = F.col("l_extendedprice"), F.col("l_discount")
        out = fn(kind, "decimal_net")(p, d) if kind != "sql" else (p * (1 - d)).cast(
            "decimal(18,4)")
        return digest(lineitem.select(out.alias("out")), "out")

    def date(kind):
        out = fn(kind, "next_day")("l_shipdate") if kind != "sql" else F.date_add(
            "l_shipdate", 1)
        return digest(lineitem.select(out.alias("out")), "out")

    def struct(kind):
        if kind == "sql":
            out = F.struct((F.col("p") * (1 - F.col("d"))).alias("net"),
                           F.year("l_shipdate").alias("year"))
        else:
            out = fn(kind, "net_and_year")("p", "d", "l_shipdate")
        return digest(doubles.select(out.alias("out")), "out")

    def two(kind):
        if kind == "sql":
            a, b = F.col("p") * (1 - F.col("d")), F.upper("l_comment")
        else:
            a, b = fn(kind, "net")("p", "d"), fn(kind, "upper")("l_comment")
        return digest(doubles.select(a.alias("a"), b.alias("b")), "a", "b")

    def where(kind):
        d = F.col("l_discount").cast("double")
        keep = fn(kind, "small_discount")(d) if kind != "sql" else d < 0.05
        return digest(lineitem.filter(keep), "l_orderkey", "l_linenumber")

    return {
        "numeric: p * (1 - d) on two doubles": numeric,
        "string: s.upper() on l_comment": string,
        "decimal: p * (1 - d) on decimal(15,2)": decimal,
        "date: d + 1 day on l_shipdate": date,
        "struct<net double, year int>": struct,
        "two UDFs in one projection (numeric, string)": two,
        "a UDF in a filter: d < 0.05": where,
    }


def operator_of(df):
    """Which Python operator the executed plan of `df` ran: rowbridge's, Spark's pickled one,
    Spark's Arrow one, or none."""
    plan = df._jdf.queryExecution().executedPlan().toString()
    for node, name in (("RowbridgeBatchEvalPython", "rowbridge"),
                       ("RowbridgeArrowEvalPython", "rowbridge-arrow"),
                       ("BatchEvalPython", "pickled"), ("ArrowEvalPython", "arrow")):
        if node in plan:
            return name
    return "none"


def run(spark, pid, build, mode):
    spark.conf.set(ENABLED, SETTINGS[mode])
    df = build(KIND[mode])
    jvm_before, py_before = cpu_seconds(pid)
    start = time.perf_counter()
    row = df.collect()[0]
    seconds = time.perf_counter() - start
    jvm_after, py_after = cpu_seconds(pid)
    return {
        "seconds": seconds,
        "jvm_cpu": jvm_after - jvm_before,
        "python_cpu": py_after - py_before,
        "answer": [str(row.h), row.n],
        "operator": operator_of(df),
    }


def measure(spark, pid, name, build, rounds, aa):
    modes = MODES + ("aa",)
    SETTINGS["aa"], KIND["aa"] = SETTINGS[aa], KIND[aa]
    runs = {mode: [] for mode in modes}
    answers = {mode: run(spark, pid, build, mode)["answer"] for mode in modes}  # warm-up
    operators = {}
    for r in range(rounds):
        order = modes[r % len(modes):] + modes[: r % len(modes)]
        for mode in order:
            result = run(spark, pid, build, mode)
            runs[mode].append(result)
            operators[mode] = result["operator"]
            if result["answer"] != answers[mode]:
                raise SystemExit(f"{name}, {mode}: answer {result['answer']}, then "
                                 f"{answers[mode]}")
            print(f"  {mode:9s} {result['seconds']:7.2f} s  JVM CPU {result['jvm_cpu']:6.2f} s  "
                  f"Python CPU {result['python_cpu']:6.2f} s  ({result['operator']})",
                  flush=True)
    differ = sorted(m for m in modes if answers[m] != answers["pickled"])
    if set(differ) - {"arrow"}:
        raise SystemExit(f"{name}: answers differ from the pickled path's: "
                         + ", ".join(f"{m} {answers[m]}" for m in differ)
                         + f"; pickled {answers['pickled']}")
    if operators["rowbridge"] != "rowbridge" or operators["pickled"] != "pickled":
        raise SystemExit(f"{name}: operators {operators}: rowbridge's path did not run, or ran "
                         "where Spark's pickled path was meant to")
    summary = {"case": name, "answer": answers["pickled"], "operators": operators,
               "answers_differ": {m: answers[m] for m in differ}, "aa_of": aa}
    for mode in modes:
        times = [r["seconds"] for r in runs[mode]]
        summary[mode] = {
            "seconds": times,
            "best_s": min(times),
            "median_s": statistics.median(times),
            "jvm_cpu_s": statistics.median(r["jvm_cpu"] for r in runs[mode]),
            "python_cpu_s": statistics.median(r["python_cpu"] for r in runs[mode]),
        }
    rb = summary["rowbridge"]["median_s"]
    summary["pickled_over_rowbridge"] = summary["pickled"]["median_s"] / rb
    summary["arrow_over_rowbridge"] = summary["arrow"]["median_s"] / rb
    summary["aa_ratio"] = summary["aa"]["median_s"] / summary[aa]["median_s"]
    return summary


def table(results):
    lines = [
        "| case | SQL s | pickled s | rowbridge s | useArrow s | A/A s | pickled / rb "
        "| useArrow / rb | A/A | JVM CPU s (pickled / rb / arrow) "
        "| Python CPU s (pickled / rb / arrow) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for s in results:
        def cell(mode):
            return f"{s[mode]['best_s']:.2f} / {s[mode]['median_s']:.2f}"

        def cpu(key):
            return " / ".join(f"{s[m][key]:.1f}" for m in ("pickled", "rowbridge", "arrow"))

        note = " (answers differ: useArrow)" if s["answers_differ"] else ""
        lines.append(
            f"| {s['case']}{note} | {cell('sql')} | {cell('pickled')} | {cell('rowbridge')} "
            f"| {cell('arrow')} | {cell('aa')} | {s['pickled_over_rowbridge']:.2f}x "
            f"| {s['arrow_over_rowbridge']:.2f}x | {s['aa_ratio']:.2f} | {cpu('jvm_cpu_s')} "
            f"| {cpu('python_cpu_s')} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lineitem", required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cases", default="", help="case names separated by semicolons")
    parser.add_argument("--aa", default="pickled", choices=MODES,
                        help="the mode the A/A twin repeats")
    parser.add_argument("--json", default="")
    args = parser.parse_args()
    spark = session()
    pid = jvm_pid(spark)
    lineitem = spark.read.parquet(args.lineitem).cache()
    rows = lineitem.count()
    print(f"== Plain Python UDFs: PySpark {spark.version}, lineitem {rows:,} rows cached, "
          f"local[2]; {args.rounds} rounds; A/A twin of {args.aa}", flush=True)
    chosen = cases(lineitem)
    names = args.cases.split(";") if args.cases else list(chosen)
    results = []
    for name in names:
        print(name, flush=True)
        s = measure(spark, pid, name, chosen[name], args.rounds, args.aa)
        results.append(s)
        print(f"{name}: pickled / rowbridge {s['pickled_over_rowbridge']:.2f}x, useArrow / "
              f"rowbridge {s['arrow_over_rowbridge']:.2f}x, A/A {s['aa_ratio']:.2f}", flush=True)
        if args.json:
            write(args.json, spark, rows, args, results)
    print("\nWall times best / median of the rounds, in seconds; ratios of medians; CPU medians.")
    print(table(results))
    spark.stop()


def write(path, spark, rows, args, results):
    """The JSON of the cases so far (rewritten after each case)."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as out:
        json.dump({"spark": spark.version, "rows": rows, "rounds": args.rounds,
                   "aa_of": args.aa, "cases": results}, out, indent=1)


if __name__ == "__main__":
    main()
