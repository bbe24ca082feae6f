"""The session, queries and Parquet fixtures of the suites over Apache Comet's plans. The session: Comet's plugin, its extension after
rowbridge's, its native execution and shuffle, and the off-heap memory Comet requires (Spark
4.1, Comet's jar on the class path: scripts/python_tests.sh runs these modules in a process of
their own)."""

import pytest

from conftest import session_builder

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


def comet_session():
    """A new local[2] session with Comet and rowbridge; the caller stops it."""
    return (
        session_builder("local[2]")
        .config("spark.plugins", "org.apache.spark.CometPlugin")
        .config(
            "spark.sql.extensions",
            "io.rowbridge.spark.RowbridgeExtensions,org.apache.comet.CometSparkSessionExtensions",
        )
        .config("spark.comet.enabled", "true")
        .config("spark.comet.exec.enabled", "true")
        .config(
            "spark.shuffle.manager",
            "org.apache.spark.sql.comet.execution.shuffle.CometShuffleManager",
        )
        .config("spark.memory.offHeap.enabled", "true")
        .config("spark.memory.offHeap.size", "512m")
        .getOrCreate()
    )


def write_parquet(spark, root, queries):
    """Each query of ``queries`` (name -> SQL) written as Parquet under ``root``: name -> path."""
    paths = {}
    for name, query in queries.items():
        paths[name] = str(root / name)
        spark.sql(query).write.parquet(paths[name])
    return paths


@pytest.fixture(scope="module")
def spark():
    """A Comet session for the module, stopped after it."""
    session = comet_session()
    yield session
    session.stop()


@pytest.fixture(scope="module")
def files(spark, tmp_path_factory):
    """COMET_FLAT and COMET_NESTED as Parquet: name -> path."""
    queries = {"flat": COMET_FLAT, "nested": COMET_NESTED}
    return write_parquet(spark, tmp_path_factory.mktemp("comet"), queries)
