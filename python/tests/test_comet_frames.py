"""to_arrow and to_pandas of Apache Comet's native plans: rowbridge takes Comet's batches as they
are (EngineInput's flat buffers, copied buffer by buffer into Arrow messages; nested columns
through Spark's ArrowWriter from the batch's values), never Comet's rows. The answers must equal
PySpark's own toArrow and Arrow toPandas of the same plan (which go through Comet's transition
to rows), schema, values and pandas dtypes alike."""

import sys

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pytest

from comet_session import files, spark  # noqa: F401  (the module's fixtures)
from conftest import SOURCES

if SOURCES not in sys.path:
    sys.path.insert(0, SOURCES)

import rowbridge.spark  # noqa: E402  (this tree's package, as the workers import it)

ENGINES = "spark.rowbridge.columnarToRow.engines.enabled"
ARROW = "spark.sql.execution.arrow.pyspark.enabled"


def same_as_spark(spark, df):
    ours = rowbridge.spark.to_arrow(df)
    theirs = df.toArrow()
    assert ours.schema.equals(theirs.schema), (ours.schema, theirs.schema)
    ours.validate(full=True)
    same_table(ours, theirs)
    ours_pandas = rowbridge.spark.to_pandas(df)
    spark.conf.set(ARROW, "true")
    try:
        theirs_pandas = df.toPandas()
    finally:
        spark.conf.unset(ARROW)
    assert list(ours_pandas.dtypes) == list(theirs_pandas.dtypes)
    pd.testing.assert_frame_equal(ours_pandas, theirs_pandas)
    return ours


def same_table(ours, theirs):
    """Equal tables, NaN equal to NaN (Table.equals finds no NaN equal)."""
    assert ours.num_rows == theirs.num_rows
    for name in ours.column_names:
        a, b = ours.column(name).combine_chunks(), theirs.column(name).combine_chunks()
        if pa.types.is_floating(a.type):
            assert pc.is_nan(a).equals(pc.is_nan(b)), name
            a = pc.if_else(pc.is_nan(a), 0.0, a)
            b = pc.if_else(pc.is_nan(b), 0.0, b)
        assert a.equals(b), name


def messages_made(spark):
    """(from Comet's buffers, by Spark's writer): the messages made in the driver's JVM."""
    made = spark._jvm.io.rowbridge.spark.frames.EngineBatchMessages.messagesMade()
    return made[0], made[1]


def comets_path(df):
    path = rowbridge.spark.arrow_path(df)
    assert path.startswith("columnar") and "comet's vectors" in path, path
    return path


@pytest.mark.parametrize("zone", ["America/Los_Angeles", "UTC"])
def test_a_comet_scan_goes_columnar_and_equals_spark(spark, files, zone):
    spark.conf.set("spark.sql.session.timeZone", zone)
    try:
        df = spark.read.parquet(files["flat"])
        comets_path(df)
        buffers, written = messages_made(spark)
        assert same_as_spark(spark, df).num_rows == 6000
        after = messages_made(spark)
        assert after[0] > buffers and after[1] == written, (buffers, written, after)
    finally:
        spark.conf.set("spark.sql.session.timeZone", "America/Los_Angeles")


def test_comets_filters_and_projections_stay_columnar(spark, files):
    df = spark.read.parquet(files["flat"])
    reordered = df.select("ts", "s", "id", "dec_big", "colour")
    comets_path(reordered)
    same_as_spark(spark, reordered)
    computed = df.where("i % 3 <> 1 AND colour IS NOT NULL").selectExpr(
        "id", "i + 1 AS next", "UPPER(s) AS s", "dec_small", "d"
    )
    comets_path(computed)
    assert same_as_spark(spark, computed).num_rows > 0


def test_empty_results_and_limits_equal_spark(spark, files):
    df = spark.read.parquet(files["flat"])
    empty = df.where("id < 0")
    assert same_as_spark(spark, empty).num_rows == 0
    assert same_as_spark(spark, df.limit(17)).num_rows == 17


def test_nested_columns_are_written_from_comets_batches(spark, files):
    df = spark.read.parquet(files["nested"])
    comets_path(df)
    buffers, written = messages_made(spark)
    assert same_as_spark(spark, df).num_rows == 3000
    after = messages_made(spark)
    assert after[0] == buffers and after[1] > written, (buffers, written, after)


def test_a_plan_with_a_shuffle_goes_through_rows_and_equals_spark(spark, files):
    # Comet's batches are taken within one stage only: adaptive execution plans the stages.
    df = (
        spark.read.parquet(files["flat"])
        .groupBy("colour")
        .agg({"id": "sum", "dbl": "max"})
        .orderBy("colour")
    )
    assert rowbridge.spark.arrow_path(df).startswith("rows"), rowbridge.spark.arrow_path(df)
    same_as_spark(spark, df)


def test_with_engines_off_the_rows_path_gives_the_same_answer(spark, files):
    df = spark.read.parquet(files["flat"])
    spark.conf.set(ENGINES, "false")
    try:
        assert rowbridge.spark.arrow_path(df).startswith("rows"), rowbridge.spark.arrow_path(df)
        same_as_spark(spark, df)
    finally:
        spark.conf.unset(ENGINES)
