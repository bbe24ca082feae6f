"""applyInPandas and applyInArrow through rowbridge's operator against Spark's own, row for
row, in local mode: every flat type, skewed groups, groups split over several batches, groups
whose function returns nothing, errors from the worker."""

import pandas as pd
import pyarrow as pa
import pyspark
from pyspark.sql import functions as F

from exchange_cases import FLAT, collect_both, failure_of, first_line, frame, same_rows

NODE = "RowbridgeFlatMapGroupsInPandas"


def sorted_rows(rows):
    return sorted(rows, key=repr)


def skewed(spark, rows=6000):
    """FLAT with a group key: one group holds most rows, the others a few each."""
    return frame(spark, FLAT, rows=rows, partitions=3).withColumn(
        "g", F.expr("IF(id % 10 < 7, 0, id % 13)")
    )


def test_apply_in_pandas_identity_over_every_flat_type(spark):
    df = skewed(spark)
    ours, theirs = collect_both(
        spark, lambda: df.groupBy("g").applyInPandas(lambda pdf: pdf, df.schema), NODE
    )
    assert len(ours) == 6000
    same_rows(sorted_rows(ours), sorted_rows(theirs))


def test_group_sizes_and_batches_as_spark_sends_them(spark):
    """What each call of the function sees: the group's rows (several batches of up to
    maxRecordsPerBatch on the lines that split groups, one batch elsewhere)."""

    def sizes(key, pdf):
        return pd.DataFrame({"g": [key[0]], "rows": [len(pdf)], "first": [int(pdf["id"].min())]})

    spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", "100")
    try:
        df = skewed(spark)
        ours, theirs = collect_both(
            spark,
            lambda: df.groupBy("g").applyInPandas(sizes, "g long, rows long, first long"),
            NODE,
        )
    finally:
        spark.conf.unset("spark.sql.execution.arrow.maxRecordsPerBatch")
    assert sorted_rows(ours) == sorted_rows(theirs)
    assert sum(row.rows for row in ours) == 6000


def test_group_batches_under_a_byte_limit(spark):
    def sizes(key, pdf):
        return pd.DataFrame({"g": [key[0]], "rows": [len(pdf)]})

    spark.conf.set("spark.sql.execution.arrow.maxBytesPerBatch", "30000")
    try:
        df = spark.sql(
            "SELECT id % 3 AS g, REPEAT(CAST(id AS STRING), CAST(id % 61 AS INT)) AS s"
            " FROM range(0, 20000, 1, 2)"
        )
        ours, theirs = collect_both(
            spark, lambda: df.groupBy("g").applyInPandas(sizes, "g long, rows long"), NODE
        )
    finally:
        spark.conf.unset("spark.sql.execution.arrow.maxBytesPerBatch")
    assert sorted_rows(ours) == sorted_rows(theirs)


def test_functions_that_return_more_fewer_or_no_rows(spark):
    def reshape(pdf):
        key = int(pdf["g"].iloc[0])
        if key % 3 == 0:
            return pdf.iloc[:0][["g", "id", "s"]]
        if key % 3 == 1:
            return pd.concat([pdf, pdf])[["g", "id", "s"]]
        return pdf.head(2)[["g", "id", "s"]]

    df = skewed(spark)
    ours, theirs = collect_both(
        spark,
        lambda: df.groupBy("g").applyInPandas(reshape, "g long, id long, s string"),
        NODE,
    )
    same_rows(sorted_rows(ours), sorted_rows(theirs))


def test_grouping_by_an_expression_and_no_key(spark):
    df = frame(spark, FLAT, rows=2000)

    def count(pdf):
        return pd.DataFrame({"n": [len(pdf)], "total": [int(pdf["id"].sum())]})

    for grouped in (df.groupBy(F.col("id") % 7), df.groupBy()):
        ours, theirs = collect_both(
            spark, lambda: grouped.applyInPandas(count, "n long, total long"), NODE
        )
        same_rows(sorted_rows(ours), sorted_rows(theirs))


def test_a_grouped_function_that_raises_is_a_python_exception(spark):
    def boom(pdf):
        if int(pdf["g"].iloc[0]) == 5:
            raise ValueError("boom in group 5")
        return pdf

    df = skewed(spark)
    build = lambda: df.groupBy("g").applyInPandas(boom, df.schema)  # noqa: E731
    ours = failure_of(spark, build, "true")
    theirs = failure_of(spark, build, "false")
    assert type(ours) is type(theirs), (ours, theirs)
    assert "ValueError: boom in group 5" in str(ours), ours
    assert first_line(ours) == first_line(theirs)


if hasattr(pyspark.sql.GroupedData, "applyInArrow"):  # the lines with applyInArrow (4.0 on)

    def test_apply_in_arrow_identity(spark):
        def identity(table: pa.Table) -> pa.Table:
            return table

        # Without the zoned timestamps, which PySpark checks against UTC in applyInArrow's
        # results whatever the session time zone (on Spark's path too).
        df = skewed(spark).drop("ts")
        ours, theirs = collect_both(
            spark,
            lambda: df.groupBy("g").applyInArrow(identity, df.schema),
            "RowbridgeFlatMapGroupsInArrow",
        )
        same_rows(sorted_rows(ours), sorted_rows(theirs))
