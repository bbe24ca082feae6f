"""mapInArrow and mapInPandas through rowbridge's operators against Spark's own, row for row,
in local mode: every flat and nested type, batch boundaries, empty partitions, functions that
change the data, errors from the worker and tasks stopped mid-stream."""

import threading
import time

import pyarrow as pa
import pyarrow.compute as pc
import pyspark
import pytest

from exchange_cases import (
    ENABLED,
    arrow_identity,
    batch_sizes,
    pandas_identity,
    FLAT,
    NESTED,
    collect_both,
    executed_plan,
    failure_of,
    first_line,
    frame,
    same_rows,
    wait_until_released,
)

SPARK_4 = int(pyspark.__version__.split(".")[0]) >= 4


@pytest.mark.parametrize("zone", ["America/Los_Angeles", "UTC", "Asia/Kolkata"])
def test_map_in_arrow_identity_flat(spark, zone):
    spark.conf.set("spark.sql.session.timeZone", zone)
    try:
        df = frame(spark, FLAT)
        ours, theirs = collect_both(
            spark, lambda: df.mapInArrow(arrow_identity, df.schema), "RowbridgeMapInArrow"
        )
    finally:
        spark.conf.set("spark.sql.session.timeZone", "America/Los_Angeles")
    assert len(ours) == 3000
    same_rows(ours, theirs)


def test_map_in_arrow_identity_nested(spark):
    df = frame(spark, NESTED)
    ours, theirs = collect_both(
        spark, lambda: df.mapInArrow(arrow_identity, df.schema), "RowbridgeMapInArrow"
    )
    assert len(ours) == 3000
    same_rows(ours, theirs)


def test_map_in_pandas_identity_flat(spark):
    df = frame(spark, FLAT)
    ours, theirs = collect_both(
        spark, lambda: df.mapInPandas(pandas_identity, df.schema), "RowbridgeMapInPandas"
    )
    assert len(ours) == 3000
    same_rows(ours, theirs)


def test_map_in_pandas_identity_arrays(spark):
    df = frame(spark, NESTED).select("id", "arr", "decs")
    ours, theirs = collect_both(
        spark, lambda: df.mapInPandas(pandas_identity, df.schema), "RowbridgeMapInPandas"
    )
    same_rows(ours, theirs)


def test_large_variable_width_types(spark):
    """spark.sql.execution.arrow.useLargeVarTypes: strings and binaries with 64-bit offsets,
    both ways."""
    spark.conf.set("spark.sql.execution.arrow.useLargeVarTypes", "true")
    try:
        df = frame(spark, FLAT).select("id", "s", "bin")
        for build, node in (
            (lambda: df.mapInArrow(arrow_identity, df.schema), "RowbridgeMapInArrow"),
            (lambda: df.mapInPandas(pandas_identity, df.schema), "RowbridgeMapInPandas"),
        ):
            ours, theirs = collect_both(spark, build, node)
            assert len(ours) == 3000
            same_rows(ours, theirs)
    finally:
        spark.conf.unset("spark.sql.execution.arrow.useLargeVarTypes")


def test_functions_that_change_rows_and_batches(spark):
    """Filters, new values, batches split in two and empty batches on the way back."""

    def change(batches):
        for batch in batches:
            kept = batch.filter(pc.not_equal(pc.bit_wise_and(batch.column("id"), 3), 1))
            doubled = pa.RecordBatch.from_arrays(
                [kept.column("id"), pc.multiply(kept.column("i"), pa.scalar(2, pa.int32())), kept.column("s")],
                names=["id", "twice", "s"],
            )
            yield doubled.slice(0, 5)
            yield doubled.slice(0, 0)
            yield doubled.slice(5)

    df = frame(spark, FLAT)
    ours, theirs = collect_both(
        spark,
        lambda: df.mapInArrow(change, "id long, twice int, s string"),
        "RowbridgeMapInArrow",
    )
    assert len(ours) == 2250
    same_rows(ours, theirs)


def test_batch_boundaries_follow_max_records_per_batch(spark):
    spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", "7")
    try:
        df = frame(spark, FLAT, rows=200, partitions=3)
        ours, theirs = collect_both(
            spark, lambda: df.mapInArrow(batch_sizes, "rows long"), "RowbridgeMapInArrow"
        )
    finally:
        spark.conf.unset("spark.sql.execution.arrow.maxRecordsPerBatch")
    assert [row.rows for row in ours] == [row.rows for row in theirs]
    assert max(row.rows for row in ours) == 7
    assert sum(row.rows for row in ours) == 200


def test_batch_boundaries_follow_max_bytes_per_batch(spark):
    """Rows whose batches may reach the byte limit go through Spark's own writer: the same
    batches as Spark's, cut by bytes before the row limit (Spark 4; Spark 3.5 has no byte
    limit, and neither side cuts there)."""
    spark.conf.set("spark.sql.execution.arrow.maxBytesPerBatch", "20000")
    try:
        df = spark.sql(
            "SELECT id, REPEAT(CAST(id AS STRING), CAST(id % 97 AS INT)) AS s"
            " FROM range(0, 20000, 1, 2)"
        )
        ours, theirs = collect_both(
            spark, lambda: df.mapInArrow(batch_sizes, "rows long"), "RowbridgeMapInArrow"
        )
    finally:
        spark.conf.unset("spark.sql.execution.arrow.maxBytesPerBatch")
    assert [row.rows for row in ours] == [row.rows for row in theirs]
    assert (max(row.rows for row in ours) < 10000) == SPARK_4
    assert sum(row.rows for row in ours) == 20000


def test_empty_partitions_and_frames(spark):
    for query in (
        "SELECT id, CAST(id AS STRING) AS s FROM range(0, 0, 1, 3)",
        "SELECT id, CAST(id AS STRING) AS s FROM range(0, 3, 1, 8)",
        "SELECT id, CAST(id AS STRING) AS s FROM range(0, 1000, 1, 4) WHERE id < 0",
    ):
        df = spark.sql(query)
        ours, theirs = collect_both(
            spark, lambda: df.mapInArrow(arrow_identity, df.schema), "RowbridgeMapInArrow"
        )
        same_rows(ours, theirs)
        ours, theirs = collect_both(
            spark, lambda: df.mapInPandas(pandas_identity, df.schema), "RowbridgeMapInPandas"
        )
        same_rows(ours, theirs)


def test_skewed_partitions_after_a_shuffle(spark):
    df = spark.sql(
        "SELECT id, CAST(id AS STRING) AS s FROM range(0, 20000, 1, 4)"
    ).repartition(4, pyspark.sql.functions.expr("IF(id % 10 = 0, id, 0)"))
    ours, theirs = collect_both(
        spark, lambda: df.mapInArrow(arrow_identity, df.schema), "RowbridgeMapInArrow"
    )
    same_rows(sorted(ours), sorted(theirs))


def test_a_function_that_raises_is_a_python_exception(spark):
    def boom(batches):
        for batch in batches:
            if batch.column("id")[0].as_py() >= 1000:
                raise ValueError("boom at id %d" % batch.column("id")[0].as_py())
            yield batch

    df = frame(spark, FLAT)
    build = lambda: df.mapInArrow(boom, df.schema)  # noqa: E731
    ours = failure_of(spark, build, "true")
    theirs = failure_of(spark, build, "false")
    assert type(ours) is type(theirs), (ours, theirs)
    assert "PythonException" in type(ours).__name__, ours
    assert "ValueError: boom at id" in str(ours), ours
    assert wait_until_released(spark) == 0


def test_a_wrong_return_schema_is_sparks_error(spark):
    def wrong(batches):
        for batch in batches:
            yield pa.RecordBatch.from_pydict({"id": pc.cast(batch.column("id"), pa.string())})

    df = frame(spark, FLAT)
    build = lambda: df.mapInArrow(wrong, "id long")  # noqa: E731
    ours = failure_of(spark, build, "true")
    theirs = failure_of(spark, build, "false")
    assert type(ours) is type(theirs), (ours, theirs)
    assert first_line(ours) == first_line(theirs), (ours, theirs)
    assert wait_until_released(spark) == 0


def test_a_task_stopped_mid_stream_leaves_no_native_memory(spark):
    def slow(batches):
        for batch in batches:
            time.sleep(0.05)
            yield batch

    spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", "500")
    try:
        df = spark.sql("SELECT id, CAST(id AS STRING) AS s FROM range(0, 2000000, 1, 2)")
        timer = threading.Timer(4.0, spark.sparkContext.cancelAllJobs)
        timer.start()
        with pytest.raises(Exception) as stopped:
            df.mapInArrow(slow, df.schema).collect()
        timer.cancel()
        assert "cancel" in str(stopped.value).lower(), stopped.value
        assert wait_until_released(spark) == 0
        # A limit stops reading the worker's rows early.
        first = df.mapInArrow(slow, df.schema).limit(3).collect()
        assert [row.id for row in first] == [0, 1, 2]
        assert wait_until_released(spark) == 0
    finally:
        spark.conf.unset("spark.sql.execution.arrow.maxRecordsPerBatch")
    # The workers still serve the next query.
    df = frame(spark, FLAT, rows=500)
    ours, theirs = collect_both(
        spark, lambda: df.mapInArrow(arrow_identity, df.schema), "RowbridgeMapInArrow"
    )
    same_rows(ours, theirs)


def test_the_setting_is_read_per_query(spark):
    df = frame(spark, FLAT, rows=10)
    spark.conf.set(ENABLED, "false")
    try:
        off = df.mapInArrow(arrow_identity, df.schema)
        off.collect()
        assert "RowbridgeMapIn" not in executed_plan(off)
        spark.conf.set(ENABLED, "true")
        on = df.mapInArrow(arrow_identity, df.schema)
        on.collect()
        assert "RowbridgeMapInArrow" in executed_plan(on)
    finally:
        spark.conf.unset(ENABLED)
