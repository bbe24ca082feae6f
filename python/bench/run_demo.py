"""make run's PySpark part: what a PySpark user gets from rowbridge, each case against Spark's
own path in the same session, answers compared, with the ratio.

- ``mapInArrow`` over cached rows (rowbridge's operator against Spark's);
- a plain ``@udf`` (rowbridge's path against Spark's pickled path);
- ``to_arrow`` of a DataFrame in the Arrow cache (``rowbridge.spark.to_arrow`` against
  PySpark's ``toArrow``).

    run_demo.py --record DIR     (make run's record dataset, written by the demo)
"""

import argparse
import os
import sys
import time

import pyspark.sql.functions as F
from pyspark.sql import SparkSession
from pyspark.sql.functions import udf

REPO_PYTHON = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
ENABLED = "spark.rowbridge.python.enabled"


def session():
    """local[2] with rowbridge's jars (ROWBRIDGE_CLASSPATH), extension, Python modules and cache."""
    sys.path.insert(0, REPO_PYTHON)
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYTHONPATH"] = os.pathsep.join(
        [REPO_PYTHON] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    )
    from rowbridge.spark import _configure

    classpath = os.environ["ROWBRIDGE_CLASSPATH"]
    builder = (
        SparkSession.builder.master("local[2]")
        .appName("rowbridge make run")
        .config("spark.driver.memory", "3g")
        .config("spark.driver.extraClassPath", classpath)
        .config("spark.sql.extensions", _configure.EXTENSION)
        .config("spark.sql.cache.serializer", "io.rowbridge.spark.ArrowCachedBatchSerializer")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.session.timeZone", "UTC")
    )
    for setting, module in _configure.PYTHON_MODULES.items():
        builder = builder.config(setting, module)
    return builder.getOrCreate()


def digest(df):
    """The sum of the rows' hashes (low 32 bits) and the row count."""
    hashes = F.xxhash64(*df.columns).bitwiseAND(0xFFFFFFFF)
    row = df.select(F.sum(hashes).alias("h"), F.count(F.lit(1)).alias("n")).collect()[0]
    return row.h, row.n


def timed(spark, run):
    """(rowbridge's answer and seconds, Spark's answer and seconds), each after a warm-up."""
    results = {}
    for mode in ("rowbridge", "spark"):
        spark.conf.set(ENABLED, "true" if mode == "rowbridge" else "false")
        run(mode)
        start = time.perf_counter()
        results[mode] = (run(mode), time.perf_counter() - start)
    spark.conf.set(ENABLED, "true")
    return results["rowbridge"], results["spark"]


def show(name, ours, theirs, same):
    (answer, ours_s), (_, theirs_s) = ours, theirs
    if not same:
        raise SystemExit(f"{name}: rowbridge's answer differs from Spark's")
    print(f"{name}: {answer}; rowbridge {ours_s:.2f} s, Spark {theirs_s:.2f} s "
          f"({theirs_s / ours_s:.2f}x)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--record", required=True)
    args = parser.parse_args()
    spark = session()
    import rowbridge.spark as rb

    # The first million rows of the workload of record, cached as rows and in the Arrow cache
    # (the SparkSession's cache serializer).
    record = spark.read.format("rowbridge").load(args.record).where(F.col("a") < 1000000)
    rows = record.select("a", "b", "c", "d").cache()
    print(f"== PySpark {spark.version}: {rows.count():,} rows of record (a long, b int, "
          "c double, d string), cached, local[2]")

    def map_in_arrow(mode):
        return digest(rows.mapInArrow(lambda batches: batches, rows.schema))

    ours, theirs = timed(spark, map_in_arrow)
    show("mapInArrow identity", ours, theirs, ours[0] == theirs[0])

    scaled = udf(lambda b, c: b * 0.5 + c, "double")

    def plain_udf(mode):
        return digest(rows.select("a", scaled("b", "c").alias("scaled")))

    ours, theirs = timed(spark, plain_udf)
    show("plain @udf b * 0.5 + c (pickled on Spark's path)", ours, theirs, ours[0] == theirs[0])

    def collect(mode):
        table = rb.to_arrow(rows) if mode == "rowbridge" else rows.toArrow()
        return table.num_rows, table

    ours, theirs = timed(spark, collect)
    same = ours[0][1].equals(theirs[0][1])
    show("to_arrow of the Arrow-cached rows", ((ours[0][0], ours[1])), theirs, same)
    spark.conf.set(ENABLED, "true")
    print("  " + "\n  ".join(str(r) for r in rows.select(scaled("b", "c").alias("s")).head(3)))
    spark.stop()


if __name__ == "__main__":
    main()
