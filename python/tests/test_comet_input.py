"""mapInArrow and mapInPandas over Apache Comet's scans, in a session with Comet's plugin and
rowbridge's extension (Spark 4.1, Comet's jar on the class path: scripts/python_tests.sh runs
this module in a process of its own). rowbridge sends Comet's flat columns to the Python worker
without making rows; the answers must equal Spark's path (the rows of the transition through
Spark's ArrowWriter) and those of Comet's own transition, row for row and batch for batch.
Nested columns, which Comet's vectors do not give as flat buffers, go through rows."""

import pytest

from comet_session import comet_session, write_parquet
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

# Comet reads these natively: the flat types Spark writes to Parquet (but smallint, which
# Comet 1.2's scan leaves to Spark), with nulls, NaN,
# multi-byte strings, a low-cardinality string (dictionary-encoded in the files), decimals of
# both widths and zoned and local timestamps.
COMET_FLAT = (
    "SELECT id, CAST(id AS INT) AS i, CAST(id % 128 AS TINYINT) AS t, IF(id % 7 = 0, NULL, id % 2 = 0) AS b,"
    " CAST(id / 7 AS FLOAT) AS f,"
    " CASE id % 11 WHEN 0 THEN CAST('NaN' AS DOUBLE) ELSE id / 3.0D END AS dbl,"
    " IF(id % 5 = 0, NULL, CAST(id * 1.25 AS DECIMAL(9, 2))) AS dec_small,"
    " CAST(id * 1000000007 AS DECIMAL(38, 10)) AS dec_big,"
    " IF(id % 4 = 0, NULL, CONCAT('name-', id, REPEAT('é', CAST(id % 9 AS INT)))) AS s,"
    " ELEMENT_AT(ARRAY('red', 'green', 'blue', NULL), CAST(id % 4 AS INT) + 1) AS colour,"
    " IF(id % 6 = 0, NULL, CAST(CONCAT('b', id) AS BINARY)) AS bin,"
    " DATE_ADD(DATE'1960-01-01', CAST(id * 13 AS INT)) AS d,"
    " IF(id % 9 = 0, NULL, TIMESTAMP_SECONDS(id * 7919 - 400000000)) AS ts,"
    " CAST(TIMESTAMP_SECONDS(id * 3) AS TIMESTAMP_NTZ) AS ntz"
    " FROM range(0, 6000, 1, 3)"
)

COMET_NESTED = (
    "SELECT id, NAMED_STRUCT('x', id, 'y', CAST(id AS STRING)) AS st,"
    " IF(id % 6 = 0, NULL, SEQUENCE(0, CAST(id % 5 AS INT))) AS arr"
    " FROM range(0, 3000, 1, 2)"
)


@pytest.fixture(scope="module")
def spark():
    session = comet_session()
    yield session
    session.stop()


@pytest.fixture(scope="module")
def files(spark, tmp_path_factory):
    queries = {"flat": COMET_FLAT, "nested": COMET_NESTED}
    return write_parquet(spark, tmp_path_factory.mktemp("comet-input"), queries)


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
