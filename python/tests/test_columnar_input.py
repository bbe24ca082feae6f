"""mapInArrow and mapInPandas over format("rowbridge"), whose Arrow-backed batches rowbridge
sends to the Python worker without making rows, against Spark's own path (the rows of the
scan's transition through Spark's ArrowWriter), row for row and batch for batch: every flat and
nested type, time zones other than the files', batch boundaries across the files' batches under
the row and the byte limit, and the columns that cannot go as they are (partition values,
large variable-width types), which go through rows."""

import pandas as pd
import pyspark
import pytest
from pyspark.sql.functions import pandas_udf
from pyspark.sql.types import DoubleType

from exchange_cases import (
    FLAT,
    NESTED,
    ENABLED,
    arrow_identity,
    batch_sizes,
    executed_plan,
    pandas_identity,
    collect_both,
    frame,
    metric,
    rowbridge_python_nodes,
    same_rows,
)

SPARK_4 = int(pyspark.__version__.split(".")[0]) >= 4
SPARK_4_2 = tuple(int(part) for part in pyspark.__version__.split(".")[:2]) >= (4, 2)
# Spark 4.2's setting: Arrow UDFs read a columnar child's batches themselves.
UDF_COLUMNAR_INPUT = "spark.sql.execution.arrow.pythonUDF.columnarInput.enabled"


@pytest.fixture(scope="module")
def files(spark, tmp_path_factory):
    """rowbridge IPC files of FLAT and NESTED, in batches of 333 rows (whose validity bits start
    off byte boundaries), written in UTC."""
    root = tmp_path_factory.mktemp("columnar-input")
    spark.conf.set("spark.sql.session.timeZone", "UTC")
    paths = {}
    try:
        for name, query in (("flat", FLAT), ("nested", NESTED)):
            path = str(root / name)
            frame(spark, query, rows=4000, partitions=3).write.format("rowbridge").option(
                "maxRowsPerBatch", "333"
            ).save(path)
            paths[name] = path
        path = str(root / "parts")
        spark.sql(
            "SELECT id, CAST(id % 3 AS INT) AS part, CONCAT('v', id) AS s FROM range(0, 2000, 1, 2)"
        ).write.format("rowbridge").partitionBy("part").save(path)
        paths["parts"] = path
    finally:
        spark.conf.set("spark.sql.session.timeZone", "America/Los_Angeles")
    return paths


def columnar_nodes(spark, build):
    """rowbridge's Python operators of `build()`'s plan after a run with rowbridge's path, each
    taking columnar input."""
    spark.conf.set("spark.rowbridge.python.enabled", "true")
    try:
        df = build()
        df.collect()
        nodes = rowbridge_python_nodes(df)
        assert nodes and all("columnar input" in n.simpleString(100) for n in nodes), nodes
        return nodes
    finally:
        spark.conf.unset("spark.rowbridge.python.enabled")


def run_columnar(spark, build, node):
    """Both answers (collect_both), and the totals of the columnar input's metrics:
    (batches sent without rows, input rows converted)."""
    ours, theirs = collect_both(spark, build, node)
    nodes = columnar_nodes(spark, build)
    sent = sum(metric(n, "numBatchesWithoutRows") for n in nodes)
    converted = sum(metric(n, "numInputRowsConverted") for n in nodes)
    return ours, theirs, sent, converted


@pytest.mark.parametrize("zone", ["America/Los_Angeles", "UTC"])
@pytest.mark.parametrize("name", ["flat", "nested"])
def test_map_in_arrow_sends_the_files_batches(spark, files, name, zone):
    spark.conf.set("spark.sql.session.timeZone", zone)
    try:
        df = spark.read.format("rowbridge").load(files[name])
        ours, theirs, sent, converted = run_columnar(
            spark, lambda: df.mapInArrow(arrow_identity, df.schema), "RowbridgeMapInArrow"
        )
    finally:
        spark.conf.set("spark.sql.session.timeZone", "America/Los_Angeles")
    assert len(ours) == 4000
    same_rows(ours, theirs)
    assert sent > 0 and converted == 0


def test_map_in_pandas_sends_the_files_batches(spark, files):
    df = spark.read.format("rowbridge").load(files["flat"])
    ours, theirs, sent, converted = run_columnar(
        spark, lambda: df.mapInPandas(pandas_identity, df.schema), "RowbridgeMapInPandas"
    )
    assert len(ours) == 4000
    same_rows(ours, theirs)
    assert sent > 0 and converted == 0


def test_batches_are_cut_as_sparks_across_the_files_batches(spark, files):
    spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", "500")
    try:
        df = spark.read.format("rowbridge").load(files["nested"])
        ours, theirs, _, converted = run_columnar(
            spark, lambda: df.mapInArrow(batch_sizes, "rows long"), "RowbridgeMapInArrow"
        )
    finally:
        spark.conf.unset("spark.sql.execution.arrow.maxRecordsPerBatch")
    assert [row.rows for row in ours] == [row.rows for row in theirs]
    assert max(row.rows for row in ours) == 500
    assert sum(row.rows for row in ours) == 4000
    assert converted == 0


def test_batches_are_cut_as_sparks_at_the_byte_limit(spark, tmp_path):
    """The batch closes with the row whose values bring its Arrow data to the limit, as
    Spark's writer measures it (Spark 4; Spark 3.5 has no byte limit)."""
    path = str(tmp_path / "strings")
    spark.sql(
        "SELECT id, REPEAT(CAST(id AS STRING), CAST(id % 97 AS INT)) AS s,"
        " IF(id % 3 = 0, NULL, SEQUENCE(0, CAST(id % 13 AS INT))) AS arr"
        " FROM range(0, 20000, 1, 2)"
    ).write.format("rowbridge").option("maxRowsPerBatch", "1111").save(path)
    spark.conf.set("spark.sql.execution.arrow.maxBytesPerBatch", "20000")
    try:
        df = spark.read.format("rowbridge").load(path)
        ours, theirs, _, converted = run_columnar(
            spark, lambda: df.mapInArrow(batch_sizes, "rows long"), "RowbridgeMapInArrow"
        )
    finally:
        spark.conf.unset("spark.sql.execution.arrow.maxBytesPerBatch")
    assert [row.rows for row in ours] == [row.rows for row in theirs]
    assert (max(row.rows for row in ours) < 1111) == SPARK_4
    assert sum(row.rows for row in ours) == 20000
    assert converted == 0


def test_partition_columns_go_through_rows(spark, files):
    df = spark.read.format("rowbridge").load(files["parts"])
    ours, theirs, sent, converted = run_columnar(
        spark, lambda: df.mapInArrow(arrow_identity, df.schema), "RowbridgeMapInArrow"
    )
    assert len(ours) == 2000
    same_rows(ours, theirs)
    assert sent == 0 and converted == 2000


def test_large_variable_width_types_go_through_rows(spark, files):
    spark.conf.set("spark.sql.execution.arrow.useLargeVarTypes", "true")
    try:
        df = spark.read.format("rowbridge").load(files["flat"])
        ours, theirs, sent, converted = run_columnar(
            spark, lambda: df.mapInArrow(arrow_identity, df.schema), "RowbridgeMapInArrow"
        )
    finally:
        spark.conf.unset("spark.sql.execution.arrow.useLargeVarTypes")
    same_rows(ours, theirs)
    assert sent == 0 and converted == 4000


def test_a_limit_stops_the_stream_and_frees_everything(spark, files):
    df = spark.read.format("rowbridge").load(files["nested"])
    ours, theirs = collect_both(
        spark,
        lambda: df.mapInArrow(arrow_identity, df.schema).limit(3),
        "RowbridgeMapInArrow",
    )
    assert len(ours) == 3
    same_rows(ours, theirs)


@pandas_udf(DoubleType())
def scaled_sum(i: pd.Series, dbl: pd.Series) -> pd.Series:
    return i.astype("float64") * 0.5 + dbl


@pytest.mark.parametrize("columnar_input", ["true", "false"])
@pytest.mark.parametrize("enabled", ["true", "false"])
def test_a_pandas_udf_over_the_files_keeps_every_passed_column(
    spark, files, enabled, columnar_input
):
    """A pandas UDF straight over the scan's columns, every other column passed through, in
    batches of 150 rows over the files' 333. On Spark 4.2 with its columnar input on, Spark's
    ArrowEvalPythonExec holds each input batch's columns until the worker's results return, after
    the scan has reused its vectors: rowbridge takes the UDF over its transition, or, with its
    Python operators off, hides the vectors so that Spark copies the rows. The oracle is Spark's
    own path over the rows of the query that wrote the files."""
    spark.conf.set("spark.sql.session.timeZone", "UTC")
    spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", "150")
    try:
        spark.conf.set(ENABLED, "false")
        source = frame(spark, FLAT, rows=4000, partitions=3)
        expected = source.withColumn("w", scaled_sum("i", "dbl")).orderBy("id").collect()
        spark.conf.set(ENABLED, enabled)
        spark.conf.set(UDF_COLUMNAR_INPUT, columnar_input)
        df = spark.read.format("rowbridge").load(files["flat"])
        query = df.withColumn("w", scaled_sum("i", "dbl"))
        actual = query.orderBy("id").collect()
        plan = executed_plan(query)
    finally:
        for key in (ENABLED, UDF_COLUMNAR_INPUT, "spark.sql.execution.arrow.maxRecordsPerBatch"):
            spark.conf.unset(key)
        spark.conf.set("spark.sql.session.timeZone", "America/Los_Angeles")
    assert len(actual) == 4000
    same_rows(actual, expected)
    # rowbridge takes the UDF (over its transition, on 4.2 too); Spark's on 4.2 reads the batches
    # itself, behind rowbridge's guard.
    assert ("RowbridgeArrowEvalPython" in plan) == (enabled == "true"), plan
    spark_reads_batches = SPARK_4_2 and columnar_input == "true" and enabled == "false"
    assert ("HideReusedVectors" in plan) == spark_reads_batches, plan


@pytest.mark.parametrize("enabled", ["true", "false"])
def test_chained_pandas_udfs_over_the_files(spark, files, enabled):
    """A UDF over another's result: two ArrowEvalPythonExecs, the lower one under a Python node
    (on Spark 4.2 it reads the scan's batches itself and stays Spark's, guarded), the upper one
    under a row node. Against Spark's path over the query that wrote the files."""
    spark.conf.set("spark.sql.session.timeZone", "UTC")
    spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", "150")

    def build(df):
        first = df.withColumn("w", scaled_sum("i", "dbl"))
        return first.withColumn("w2", scaled_sum("id", "w")).orderBy("id")

    try:
        spark.conf.set(ENABLED, "false")
        expected = build(frame(spark, FLAT, rows=4000, partitions=3)).collect()
        spark.conf.set(ENABLED, enabled)
        actual = build(spark.read.format("rowbridge").load(files["flat"])).collect()
    finally:
        for key in (ENABLED, "spark.sql.execution.arrow.maxRecordsPerBatch"):
            spark.conf.unset(key)
        spark.conf.set("spark.sql.session.timeZone", "America/Los_Angeles")
    assert len(actual) == 4000
    same_rows(actual, expected)
