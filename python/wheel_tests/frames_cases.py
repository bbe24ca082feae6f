"""Queries of every type the Arrow paths carry, and PySpark's own answers to compare with."""

import pyarrow as pa

# Every type PySpark's Arrow conversion takes. Structs are never null here: PySpark's final cast
# in toArrow fails on a null struct whose fields are not nullable.
QUERIES = {
    "flat": "SELECT id, CAST(id AS INT) AS i, id % 2 = 0 AS b, CAST(id AS SMALLINT) AS sh,"
    " CAST(id % 128 AS TINYINT) AS t, id / 3.0D AS dbl, CAST(id / 7 AS FLOAT) AS f,"
    " CAST(id AS DECIMAL(20, 3)) AS dec_big, CAST(id AS DECIMAL(9, 2)) AS dec_small,"
    " IF(id % 5 = 0, NULL, CONCAT('name-', id, REPEAT('é', CAST(id % 9 AS INT)))) AS s,"
    " CAST(CONCAT('b', id) AS BINARY) AS bin, DATE_ADD(DATE'2020-01-01', CAST(id AS INT)) AS d,"
    " TIMESTAMP_SECONDS(id * 1000) AS ts, CAST(TIMESTAMP_SECONDS(id) AS TIMESTAMP_NTZ) AS ntz"
    " FROM range(0, 5000, 1, 4)",
    "nested": "SELECT id, NAMED_STRUCT('x', id, 'y', IF(id % 4 = 0, NULL, CAST(id AS STRING)))"
    " AS st, IF(id % 6 = 0, NULL, SEQUENCE(0, CAST(id % 5 AS INT))) AS arr,"
    " MAP(CAST(id AS STRING), IF(id % 3 = 0, NULL, id)) AS m,"
    " ARRAY(NAMED_STRUCT('k', ARRAY(id, NULL), 'v', MAP('a', CAST(id AS STRING)))) AS deep"
    " FROM range(0, 3000, 1, 3)",
    "empty": "SELECT id, CAST(id AS STRING) AS s FROM range(0, 0, 1, 2)",
    "one partition of many": "SELECT id FROM range(0, 10, 1, 5) WHERE id = 7",
}


def spark_arrow(df):
    """PySpark's own Arrow collect of ``df``: toArrow (4.0 and later), or on 3.5 the batches of
    its Arrow toPandas path, cast as rowbridge casts them."""
    if hasattr(df, "toArrow"):
        return df.toArrow()
    from pyspark.sql.pandas.types import to_arrow_schema

    schema = to_arrow_schema(df.schema)
    batches = df._collect_as_arrow()
    if not batches:
        return schema.empty_table()
    return pa.Table.from_batches(batches).cast(schema)


class ArrowStream:
    """Any object with ``__arrow_c_stream__`` (the Arrow PyCapsule stream interface)."""

    def __init__(self, table):
        self._table = table

    def __arrow_c_stream__(self, requested_schema=None):
        return self._table.__arrow_c_stream__(requested_schema)


def arrow_enabled(spark):
    """A context in which PySpark's own toPandas and createDataFrame use Arrow."""
    import contextlib

    @contextlib.contextmanager
    def enabled():
        key = "spark.sql.execution.arrow.pyspark.enabled"
        before = spark.conf.get(key)
        spark.conf.set(key, "true")
        try:
            yield
        finally:
            spark.conf.set(key, before)

    return enabled()
