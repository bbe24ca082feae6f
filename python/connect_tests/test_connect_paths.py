"""rowbridge's other paths on Spark Connect sessions, planned by the server as on a classic one:
the Python exchange (mapInArrow, plain and pandas UDFs), the Arrow cache, format("rowbridge")
reads and writes, and the transition to rows; Spark's own paths (rowbridge switched off for the
session) give the expected answers. Each runs on the local[2] server and on the server in a JVM
of its own (the ``connect`` fixture)."""

import pyarrow as pa
import pytest
from pyspark.sql import functions as F

import rowbridge.spark
from conftest import connect_arrow

QUERY = (
    "SELECT id, CAST(id AS STRING) AS s, id / 4.0D AS x,"
    " IF(id % 5 = 0, NULL, SEQUENCE(0, CAST(id % 4 AS INT))) AS arr"
    " FROM range(0, 20000, 1, 4)"
)


def explained(df):
    return df._explain_string(extended=True)


def with_setting(spark, key, value, run):
    before = spark.conf.get(key, None)
    spark.conf.set(key, value)
    try:
        return run()
    finally:
        if before is None:
            spark.conf.unset(key)
        else:
            spark.conf.set(key, before)


def test_map_in_arrow_runs_rowbridges_exchange(connect):
    spark = connect
    # Defined here, so that it is pickled by value (the workers cannot import this module).
    def arrow_identity(batches):
        for batch in batches:
            yield batch

    df = spark.sql(QUERY)
    mapped = df.mapInArrow(arrow_identity, df.schema)
    assert "RowbridgeMapInArrow" in explained(mapped)
    spark_own = with_setting(
        spark, "spark.rowbridge.python.enabled", "false", lambda: connect_arrow(mapped)
    )
    assert connect_arrow(mapped).equals(spark_own)


def test_python_udfs_run_on_rowbridges_paths(connect):
    spark = connect
    def check():
        # Made here: a Connect client fixes a plain @udf's kind when it makes it, from the
        # setting of its active session, which for the separate server is the local one; so the
        # plain @udf says useArrow=False itself.
        @F.pandas_udf("long")
        def plus_one(values):
            return values + 1

        @F.udf("string", useArrow=False)
        def tagged(value):
            return None if value is None else "t-%s" % value

        df = spark.sql(QUERY).select(plus_one("id").alias("p"), tagged("s").alias("t"))
        rows = df.collect()
        spark_own = with_setting(spark, "spark.rowbridge.python.enabled", "false", df.collect)
        assert rows == spark_own
        plan = explained(df)
        assert "RowbridgeArrowEvalPython" in plan and "RowbridgeBatchEvalPython" in plan, plan

    # A plain @udf is pickled with Arrow optimization off (Spark 4.2 turns it on by default).
    with_setting(spark, "spark.sql.execution.pythonUDF.arrow.enabled", "false", check)


def test_arrow_cache_and_files(connect, tmp_path):
    spark = connect
    df = spark.sql(QUERY)
    path = str(tmp_path / "files")
    df.write.format("rowbridge").save(path)
    read = spark.read.format("rowbridge").load(path)
    assert "RowbridgeColumnarToRow" in explained(read)
    assert sorted(read.collect()) == sorted(df.collect())
    cached = read.where("id % 2 = 0").cache()
    try:
        assert cached.count() == 10000
        assert "InMemoryTableScan" in explained(cached)
        assert rowbridge.spark.to_arrow(cached).equals(connect_arrow(cached))
        assert sorted(cached.collect()) == sorted(df.where("id % 2 = 0").collect())
    finally:
        cached.unpersist()


def test_transition_off_gives_the_same_rows(connect, tmp_path):
    spark = connect
    path = str(tmp_path / "transition")
    spark.sql(QUERY).write.format("rowbridge").save(path)
    read = spark.read.format("rowbridge").load(path)
    ours = sorted(read.collect())
    theirs = with_setting(
        spark, "spark.rowbridge.columnarToRow.enabled", "false", lambda: sorted(read.collect())
    )
    assert ours == theirs
    assert pa.Table.from_pylist([row.asDict() for row in ours]).num_rows == 20000
