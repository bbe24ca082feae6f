"""create_dataframe of Arrow tables other engines make: polars (``DataFrame.to_arrow()``, whose
strings are views, and the DataFrame itself through ``__arrow_c_stream__``) and DuckDB (a query's
Arrow result). The oracle is rowbridge's scan of the same table written as an IPC file, as in
test_arrow_input.py. Random values, seed printed; ROWBRIDGE_TEST_SEED replays one."""

import datetime
import os
import random

import pyarrow as pa
import pytest

import rowbridge.spark

SEED = int(os.environ.get("ROWBRIDGE_TEST_SEED", random.randrange(1 << 30)))
ROWS = 500


def scanned(spark, table, tmp_path, name):
    path = tmp_path / ("%s.arrow" % name)
    with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_file(sink, table.schema) as writer:
        writer.write_table(table)
    return spark.read.format("rowbridge").load(str(path))


def arrow_input(spark):
    """PySpark 3.5's createDataFrame takes no Arrow: create_dataframe raises its named error."""
    return hasattr(spark, "_create_from_arrow_table")


@pytest.fixture(scope="module")
def rng():
    print("test_engine_tables seed: %d (ROWBRIDGE_TEST_SEED=%d replays it)" % (SEED, SEED))
    return random.Random(SEED)


def check(spark, data, table, tmp_path, name):
    """create_dataframe of ``data`` equals rowbridge's scan of ``table`` (its Arrow form)."""
    if not arrow_input(spark):
        with pytest.raises(rowbridge.spark.RowbridgeFrameError, match="PySpark 4.0 or later"):
            rowbridge.spark.create_dataframe(spark, data)
        return
    ours = rowbridge.spark.create_dataframe(spark, data)
    oracle = scanned(spark, table, tmp_path, name)
    assert ours.schema == oracle.schema, name
    assert ours.orderBy("id").collect() == oracle.orderBy("id").collect(), name


def test_polars_tables(spark, rng, tmp_path):
    import polars as pl

    frame = pl.DataFrame(
        {
            "id": list(range(ROWS)),
            "s": [None if rng.random() < 0.1 else "p%d-%s" % (i, "ü" * (i % 7)) for i in range(ROWS)],
            "x": [None if rng.random() < 0.1 else rng.uniform(-1e6, 1e6) for _ in range(ROWS)],
            "d": [datetime.date(2000, 1, 1) + datetime.timedelta(days=rng.randrange(9000))
                  for _ in range(ROWS)],
            "l": [[rng.randrange(100) for _ in range(rng.randrange(4))] for _ in range(ROWS)],
            "u": pl.Series([rng.randrange(1 << 16) for _ in range(ROWS)], dtype=pl.UInt16),
        }
    )
    table = frame.to_arrow()
    assert pa.types.is_string_view(table.schema.field("s").type) or pa.types.is_large_string(
        table.schema.field("s").type
    ), table.schema
    check(spark, table, table, tmp_path, "polars-to-arrow")
    check(spark, frame, table, tmp_path, "polars-capsule")


def test_duckdb_tables(spark, rng, tmp_path):
    import duckdb

    offset = rng.randrange(1000)
    connection = duckdb.connect()
    query = (
        "SELECT range AS id, IF(range %% 9 = 0, NULL, 'd' || (range + %d)) AS s,"
        " (range * 3 + %d)::DECIMAL(18, 2) AS amount, DATE '2001-01-01' + range::INTEGER AS day,"
        " [range, range + 1] AS pair, {'a': range, 'b': 'x' || range} AS st"
        " FROM range(%d)" % (offset, offset, ROWS)
    )
    result = connection.sql(query).arrow()
    table = result.read_all() if isinstance(result, pa.RecordBatchReader) else result
    check(spark, table, table, tmp_path, "duckdb")
    check(spark, connection.sql(query).arrow(), table, tmp_path, "duckdb-reader")
