"""to_arrow, to_pandas and create_dataframe against PySpark's own toArrow, Arrow toPandas and
createDataFrame, in the session conftest.py sets up with rowbridge.spark.configure."""

import pandas as pd
import pyarrow as pa
import pytest

import rowbridge.spark
from frames_cases import QUERIES, ArrowStream, arrow_enabled, spark_arrow


@pytest.mark.parametrize("name", list(QUERIES))
def test_to_arrow_equals_sparks(spark, name):
    df = spark.sql(QUERIES[name])
    ours = rowbridge.spark.to_arrow(df)
    theirs = spark_arrow(df)
    assert ours.schema.equals(theirs.schema), (ours.schema, theirs.schema)
    assert ours.equals(theirs)
    ours.validate(full=True)


def test_to_arrow_of_day_time_intervals_equals_sparks(spark):
    df = spark.sql("SELECT id, MAKE_DT_INTERVAL(1, 2, 3, id) AS dt FROM range(0, 500, 1, 2)")
    if not hasattr(df, "toArrow"):  # PySpark 3.5's Arrow schema has no interval
        return
    ours = rowbridge.spark.to_arrow(df)
    assert ours.schema.field("dt").type == pa.duration("us")
    assert ours.equals(df.toArrow())


@pytest.mark.parametrize("name", list(QUERIES))
def test_to_pandas_equals_sparks(spark, name):
    df = spark.sql(QUERIES[name])
    ours = rowbridge.spark.to_pandas(df)
    with arrow_enabled(spark):
        theirs = df.toPandas()
    assert list(ours.dtypes) == list(theirs.dtypes)
    pd.testing.assert_frame_equal(ours, theirs)


def test_a_result_over_max_result_size_gets_sparks_error(spark):
    df = spark.range(0, 1_000_000, 1, 4).selectExpr("id", "REPEAT('x', 24) AS s")
    with pytest.raises(Exception) as ours:
        rowbridge.spark.to_arrow(df)
    assert "spark.driver.maxResultSize" in str(ours.value)
    with arrow_enabled(spark), pytest.raises(Exception) as theirs:
        df.toPandas()
    assert type(ours.value) is type(theirs.value)
    # The session goes on.
    assert rowbridge.spark.to_arrow(spark.range(3)).num_rows == 3


def _arrow_input():
    return pa.table(
        {
            "id": pa.array(range(2000), pa.int64()),
            "s": pa.array([None if i % 7 == 0 else "v%d" % i for i in range(2000)]),
            "dec": pa.array([i * 10 for i in range(2000)], pa.decimal128(12, 2)),
            "ts": pa.array([i * 1_000_000 for i in range(2000)], pa.timestamp("us", tz="UTC")),
            "naive": pa.array([i * 1_000_000 for i in range(2000)], pa.timestamp("us")),
            "lst": pa.array([[i, None] for i in range(2000)], pa.list_(pa.int32())),
            "st": pa.array(
                [{"x": i, "y": str(i)} for i in range(2000)],
                pa.struct([("x", pa.int64()), ("y", pa.string())]),
            ),
        }
    )


def _same_frames(ours, theirs):
    assert ours.schema == theirs.schema, (ours.schema, theirs.schema)
    assert sorted(ours.collect()) == sorted(theirs.collect())


def _needs_arrow_input(spark):
    if not hasattr(spark, "_create_from_arrow_table"):
        with pytest.raises(rowbridge.spark.RowbridgeFrameError, match="PySpark 4.0 or later"):
            rowbridge.spark.create_dataframe(spark, _arrow_input())
        return False
    return True


@pytest.mark.parametrize("form", ["table", "reader", "capsule"])
def test_create_dataframe_from_arrow_equals_sparks(spark, form):
    if not _needs_arrow_input(spark):
        return
    table = _arrow_input()
    given = {
        "table": table,
        "reader": pa.RecordBatchReader.from_batches(table.schema, table.to_batches(500)),
        "capsule": ArrowStream(table),
    }[form]
    _same_frames(rowbridge.spark.create_dataframe(spark, given), spark.createDataFrame(table))


def test_create_dataframe_with_a_schema_through_a_scan_of_the_batches(spark):
    if not _needs_arrow_input(spark):
        return
    table = _arrow_input().select(["id", "s", "dec"])
    schema = "id long, s string, dec decimal(14, 2)"
    threshold = "spark.sql.execution.arrow.localRelationThreshold"
    rows_per_batch = "spark.sql.execution.arrow.maxRecordsPerBatch"
    spark.conf.set(threshold, "1k")  # past it, a scan of the batches, not a local relation
    spark.conf.set(rows_per_batch, "300")
    try:
        ours = rowbridge.spark.create_dataframe(spark, table, schema)
        theirs = spark.createDataFrame(table, schema)
        plan = ours._jdf.queryExecution().executedPlan().toString()
        assert "7 Arrow batches from Python" in plan and "RowbridgeColumnarToRow" in plan, plan
        _same_frames(ours, theirs)
        # Partitions hold consecutive batches: the rows keep their order.
        assert [row.id for row in ours.select("id").collect()] == list(range(2000))
    finally:
        spark.conf.unset(threshold)
        spark.conf.unset(rows_per_batch)


def test_create_dataframe_from_pandas_equals_sparks(spark):
    pdf = pd.DataFrame(
        {
            "id": range(3000),
            "f": [i / 3 if i % 5 else None for i in range(3000)],
            "s": ["s%d" % i for i in range(3000)],
            "t": pd.date_range("2024-01-09", periods=3000, freq="min"),
            "tz": pd.date_range("2024-01-09", periods=3000, freq="min", tz="Europe/Paris"),
        }
    )
    ours = rowbridge.spark.create_dataframe(spark, pdf)
    with arrow_enabled(spark):
        theirs = spark.createDataFrame(pdf)
    _same_frames(ours, theirs)
    # No rows: as PySpark, a schema is needed, and its error comes without one.
    schema = "id long, f double, s string, t timestamp, tz timestamp"
    empty = rowbridge.spark.create_dataframe(spark, pdf.iloc[:0], schema)
    assert empty.count() == 0 and empty.columns == list(pdf.columns)
    with pytest.raises(Exception) as ours_error:
        rowbridge.spark.create_dataframe(spark, pdf.iloc[:0])
    with pytest.raises(Exception) as their_error:
        spark.createDataFrame(pdf.iloc[:0])
    assert type(ours_error.value) is type(their_error.value)


def test_an_arrow_type_spark_lacks_is_a_named_error(spark):
    union = pa.UnionArray.from_sparse(
        pa.array([0, 1], pa.int8()), [pa.array([1, 2], pa.uint64()), pa.array(["a", "b"])]
    )
    table = pa.table({"id": pa.array([1, 2], pa.int64()), "u": union})
    if not hasattr(spark, "_create_from_arrow_table"):
        return _needs_arrow_input(spark)
    with pytest.raises(rowbridge.spark.RowbridgeFrameError) as error:
        rowbridge.spark.create_dataframe(spark, table)
    assert "column 1 ('u')" in str(error.value) and "union" in str(error.value)


def test_create_dataframe_refuses_other_inputs_by_name(spark):
    with pytest.raises(rowbridge.spark.RowbridgeFrameError, match="not list"):
        rowbridge.spark.create_dataframe(spark, [(1, 2)])


def _with_settings(spark, settings, body):
    before = {key: spark.conf.get(key, None) for key in settings}
    for key, value in settings.items():
        spark.conf.set(key, value)
    try:
        return body()
    finally:
        for key, value in before.items():
            if value is None:
                spark.conf.unset(key)
            else:
                spark.conf.set(key, value)


@pytest.mark.parametrize(
    "settings",
    [
        {"spark.sql.execution.arrow.pyspark.selfDestruct.enabled": "true"},
        {"spark.sql.execution.pandas.structHandlingMode": "row"},
        {"spark.sql.execution.pandas.structHandlingMode": "dict"},
        {"spark.sql.session.timeZone": "Asia/Kolkata"},
        {"spark.sql.execution.arrow.useLargeVarTypes": "true"},
    ],
    ids=lambda settings: ",".join("%s=%s" % (k.split(".")[-1], v) for k, v in settings.items()),
)
def test_to_pandas_follows_the_sessions_settings_as_spark(spark, settings):
    df = spark.sql(QUERIES["nested"]).join(spark.sql(QUERIES["flat"]), "id")
    if "row" in settings.values():  # PySpark's row mode fails on arrays of structs
        df = df.select("id", "st", "m", "ts", "d")

    def both():
        ours = rowbridge.spark.to_pandas(df)
        with arrow_enabled(spark):
            theirs = df.toPandas()
        return ours, theirs

    ours, theirs = _with_settings(spark, settings, both)
    assert list(ours.dtypes) == list(theirs.dtypes)
    pd.testing.assert_frame_equal(ours, theirs)


def test_to_pandas_of_legacy_structs_with_duplicated_names_fails_as_spark(spark):
    df = spark.sql("SELECT NAMED_STRUCT('a', 1, 'a', 2) AS st FROM range(3)")
    settings = {"spark.sql.execution.pandas.structHandlingMode": "legacy"}

    def error_of(collect):
        with pytest.raises(Exception) as raised:
            collect()
        return raised.value

    def both():
        ours = error_of(lambda: rowbridge.spark.to_pandas(df))
        with arrow_enabled(spark):
            theirs = error_of(df.toPandas)
        return ours, theirs

    ours, theirs = _with_settings(spark, settings, both)
    assert type(ours) is type(theirs)
    assert "DUPLICATED_FIELD_NAME_IN_ARROW_STRUCT" in str(ours), ours


def _pandas_input():
    return pd.DataFrame(
        {
            "id": range(1500),
            "s": ["s%d" % i if i % 9 else None for i in range(1500)],
            "t": pd.date_range("2024-03-30", periods=1500, freq="h"),
            "m": [{"k%d" % (i % 3): i} for i in range(1500)],
        }
    )


@pytest.mark.parametrize(
    "settings",
    [
        {},
        {"spark.sql.timestampType": "TIMESTAMP_NTZ"},
        {"spark.sql.execution.pandas.inferPandasDictAsMap": "true"},
        {"spark.sql.execution.arrow.maxRecordsPerBatch": "100"},
        {"spark.sql.session.timeZone": "Australia/Lord_Howe"},
    ],
    ids=lambda settings: ",".join("%s=%s" % (k.split(".")[-1], v) for k, v in settings.items())
    or "defaults",
)
def test_create_dataframe_from_pandas_follows_the_sessions_settings_as_spark(spark, settings):
    pdf = _pandas_input()
    if "spark.sql.execution.pandas.inferPandasDictAsMap" not in settings:
        pdf = pdf.drop(columns=["m"])  # a dict column is a struct without it: not Arrow's

    def both():
        ours = rowbridge.spark.create_dataframe(spark, pdf)
        with arrow_enabled(spark):
            theirs = spark.createDataFrame(pdf)
        _same_frames(ours, theirs)

    if settings.get("spark.sql.execution.pandas.inferPandasDictAsMap") and pyspark_line() < (4, 0):
        return  # 3.5 has no such setting
    _with_settings(spark, settings, both)


@pytest.mark.parametrize("schema", ["names", "ddl", "struct"])
def test_create_dataframe_with_each_form_of_schema_equals_sparks(spark, schema):
    pdf = _pandas_input().drop(columns=["m"])
    given = {
        "names": ["a", "b", "c"],
        "ddl": "a long, b string, c timestamp",
        "struct": spark.createDataFrame([], "a long, b string, c timestamp").schema,
    }[schema]
    ours = rowbridge.spark.create_dataframe(spark, pdf, given)
    with arrow_enabled(spark):
        theirs = spark.createDataFrame(pdf, given)
    _same_frames(ours, theirs)
    if pyspark_line() < (4, 0):
        return
    table = pa.Table.from_pandas(pdf, preserve_index=False)
    if schema == "names":
        _same_frames(
            rowbridge.spark.create_dataframe(spark, table, given),
            spark.createDataFrame(table, given),
        )
        return
    # A struct of other names than the table's: PySpark's cast fails, and so does rowbridge.
    with pytest.raises(Exception) as ours_error:
        rowbridge.spark.create_dataframe(spark, table, given)
    with pytest.raises(Exception) as their_error:
        spark.createDataFrame(table, given)
    assert type(ours_error.value) is type(their_error.value)
    assert str(ours_error.value) == str(their_error.value)


def test_create_dataframe_from_arrow_prefers_ntz_as_spark(spark):
    if pyspark_line() < (4, 0):
        return
    table = _arrow_input()

    def both():
        _same_frames(rowbridge.spark.create_dataframe(spark, table), spark.createDataFrame(table))

    _with_settings(spark, {"spark.sql.timestampType": "TIMESTAMP_NTZ"}, both)


def pyspark_line():
    import pyspark

    return tuple(int(part) for part in pyspark.__version__.split(".")[:2])
