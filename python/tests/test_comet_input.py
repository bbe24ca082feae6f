"""mapInArrow and mapInPandas over Apache Comet's scans, in a session with Comet's plugin and
rowbridge's extension (Spark 4.1, Comet's jar on the class path: scripts/python_tests.sh runs
this module in a process of its own). rowbridge sends Comet's flat columns to the Python worker
without making rows; the answers must equal Spark's path (the rows of the transition through
Spark's ArrowWriter) and those of Comet's own transition, row for row and batch for batch.
Nested columns, which Comet's vectors do not give as flat buffers, go through rows."""

import pytest

from comet_session import files, spark  # noqa: F401  (the module's fixtures)
from exchange_cases import (
    arrow_identity,
    batch_sizes,
    collect_both,
    executed_plan,
    metric,
    pandas_identity,
    rowbridge_python_nodes,
    same_rows,
)

def run_from_comet(spark, build, node):
    """Both answers (collect_both), checked against the answer with Comet's own transition;
    and the columnar input's metrics: (batches sent without rows, input rows converted)."""
    ours, theirs = collect_both(spark, build, node)
    spark.conf.set("spark.rowbridge.columnarToRow.engines.enabled", "false")
    spark.conf.set("spark.rowbridge.python.enabled", "false")
    try:
        df = build()
        comets = df.collect()
        assert "CometColumnarToRow" in executed_plan(df), executed_plan(df)
    finally:
        spark.conf.unset("spark.rowbridge.columnarToRow.engines.enabled")
        spark.conf.unset("spark.rowbridge.python.enabled")
    same_rows(theirs, comets)
    df = build()
    df.collect()
    nodes = rowbridge_python_nodes(df)
    assert nodes and all("columnar input from comet" in n.simpleString(100) for n in nodes), nodes
    assert "CometNativeScan" in executed_plan(df) or "CometScan" in executed_plan(df)
    sent = sum(metric(n, "numBatchesWithoutRows") for n in nodes)
    converted = sum(metric(n, "numInputRowsConverted") for n in nodes)
    return ours, theirs, sent, converted


@pytest.mark.parametrize("zone", ["America/Los_Angeles", "UTC"])
def test_map_in_arrow_sends_comets_batches(spark, files, zone):
    spark.conf.set("spark.sql.session.timeZone", zone)
    try:
        df = spark.read.parquet(files["flat"])
        ours, theirs, sent, converted = run_from_comet(
            spark, lambda: df.mapInArrow(arrow_identity, df.schema), "RowbridgeMapInArrow"
        )
    finally:
        spark.conf.set("spark.sql.session.timeZone", "America/Los_Angeles")
    assert len(ours) == 6000
    same_rows(ours, theirs)
    assert sent > 0 and converted == 0


def test_map_in_pandas_sends_comets_batches(spark, files):
    df = spark.read.parquet(files["flat"])
    ours, theirs, sent, converted = run_from_comet(
        spark, lambda: df.mapInPandas(pandas_identity, df.schema), "RowbridgeMapInPandas"
    )
    same_rows(ours, theirs)
    assert sent > 0 and converted == 0


def test_a_filter_and_projection_in_comet_then_python(spark, files):
    df = spark.read.parquet(files["flat"])

    def build():
        projected = df.where("i % 3 <> 1 AND colour IS NOT NULL").selectExpr(
            "id", "UPPER(s) AS s", "dec_big + 1 AS dec_big", "colour", "ts"
        )
        return projected.mapInArrow(arrow_identity, projected.schema)

    ours, theirs, sent, converted = run_from_comet(spark, build, "RowbridgeMapInArrow")
    same_rows(sorted(ours), sorted(theirs))
    assert sent > 0 and converted == 0


@pytest.mark.parametrize("limit", ["maxRecordsPerBatch", "maxBytesPerBatch"])
def test_batches_are_cut_as_sparks(spark, files, limit):
    setting, value = {
        "maxRecordsPerBatch": ("spark.sql.execution.arrow.maxRecordsPerBatch", "700"),
        "maxBytesPerBatch": ("spark.sql.execution.arrow.maxBytesPerBatch", "30000"),
    }[limit]
    spark.conf.set(setting, value)
    try:
        df = spark.read.parquet(files["flat"])
        ours, theirs, _, converted = run_from_comet(
            spark, lambda: df.mapInArrow(batch_sizes, "rows long"), "RowbridgeMapInArrow"
        )
    finally:
        spark.conf.unset(setting)
    assert [row.rows for row in ours] == [row.rows for row in theirs]
    assert sum(row.rows for row in ours) == 6000
    assert max(row.rows for row in ours) < 2000
    assert converted == 0


def test_nested_columns_go_through_rows(spark, files):
    df = spark.read.parquet(files["nested"])
    ours, theirs, sent, converted = run_from_comet(
        spark, lambda: df.mapInArrow(arrow_identity, df.schema), "RowbridgeMapInArrow"
    )
    same_rows(ours, theirs)
    assert sent == 0 and converted == 3000


def test_a_limit_stops_the_stream_and_frees_everything(spark, files):
    df = spark.read.parquet(files["flat"])
    ours, theirs = collect_both(
        spark, lambda: df.mapInArrow(arrow_identity, df.schema).limit(3), "RowbridgeMapInArrow"
    )
    assert len(ours) == 3
    same_rows(ours, theirs)
