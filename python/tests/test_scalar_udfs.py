"""Scalar pandas UDFs, Arrow UDFs and Arrow-optimized Python UDFs through rowbridge's
operator against Spark's own, row for row, in local mode."""

import pandas as pd
import pyarrow as pa
import pyspark.sql.functions as F
from pyspark.sql.functions import pandas_udf, udf

from exchange_cases import FLAT, NESTED, collect_both, failure_of, first_line, frame, same_rows

NODE = "RowbridgeArrowEvalPython"


def test_a_pandas_udf_over_three_numeric_columns(spark):
    @pandas_udf("double")
    def combine(a: pd.Series, b: pd.Series, c: pd.Series) -> pd.Series:
        return a * 2 + b - c

    df = frame(spark, FLAT)
    ours, theirs = collect_both(
        spark, lambda: df.select("id", combine("id", "i", "dbl").alias("r")), NODE
    )
    assert len(ours) == 3000
    same_rows(ours, theirs)


def test_pandas_udfs_over_every_flat_type(spark):
    """Each column through an identity pandas UDF of its own type, several UDFs in one
    projection, one argument shared by two of them, and chained UDFs."""
    df = frame(spark, FLAT)
    columns = [field.name for field in df.schema.fields]
    types = {field.name: field.dataType for field in df.schema.fields}

    def identity(data_type):
        return pandas_udf(lambda series: series, data_type)

    plus_one = pandas_udf(lambda series: series + 1, "long")

    def build():
        projected = [identity(types[name])(name).alias(name) for name in columns]
        return df.select(
            *projected,
            identity(types["s"])("s").alias("s_again"),
            plus_one(plus_one("id")).alias("id_plus_two"),
        )

    ours, theirs = collect_both(spark, build, NODE)
    assert len(ours) == 3000
    same_rows(ours, theirs)


def test_a_pandas_udf_returning_a_struct(spark):
    @pandas_udf("x long, y string")
    def pair(a: pd.Series, s: pd.Series) -> pd.DataFrame:
        return pd.DataFrame({"x": a * 3, "y": s})

    df = frame(spark, FLAT)
    ours, theirs = collect_both(spark, lambda: df.select(pair("id", "s").alias("p")), NODE)
    same_rows(ours, theirs)


def test_an_arrow_optimized_python_udf(spark):
    @udf("string", useArrow=True)
    def describe(i, s, d):
        return f"{i}:{s}:{d}"

    df = frame(spark, FLAT)
    ours, theirs = collect_both(
        spark, lambda: df.select("id", describe("i", "s", "dec_small").alias("r")), NODE
    )
    same_rows(ours, theirs)


def test_arrow_optimized_python_udfs_over_nested_types(spark):
    @udf("array<int>", useArrow=True)
    def reverse(values):
        return None if values is None else list(reversed(values))

    @udf("map<string, bigint>", useArrow=True)
    def same_map(m):
        return m

    df = frame(spark, NESTED)
    ours, theirs = collect_both(
        spark, lambda: df.select("id", reverse("arr").alias("r"), same_map("m").alias("m")), NODE
    )
    same_rows(ours, theirs)


if hasattr(F, "arrow_udf"):  # the lines with Arrow UDFs (Spark 4.1 on)

    def test_an_arrow_udf(spark):
        import pyarrow.compute as pc

        @F.arrow_udf("long")
        def twice(values: pa.Array) -> pa.Array:
            return pc.multiply(values, 2)

        df = frame(spark, FLAT)
        ours, theirs = collect_both(
            spark, lambda: df.select("id", twice("id").alias("r")), NODE
        )
        same_rows(ours, theirs)


def test_a_pandas_udf_that_raises_is_a_python_exception(spark):
    @pandas_udf("long")
    def boom(a: pd.Series) -> pd.Series:
        if a.max() >= 1000:
            raise ValueError("boom in a pandas udf")
        return a

    df = frame(spark, FLAT)
    build = lambda: df.select(boom("id"))  # noqa: E731
    ours = failure_of(spark, build, "true")
    theirs = failure_of(spark, build, "false")
    assert type(ours) is type(theirs), (ours, theirs)
    assert "ValueError: boom in a pandas udf" in str(ours), ours


def test_a_pandas_udf_of_the_wrong_length_is_sparks_error(spark):
    @pandas_udf("long")
    def short(a: pd.Series) -> pd.Series:
        return a.iloc[:-1]

    df = frame(spark, FLAT)
    build = lambda: df.select(short("id"))  # noqa: E731
    ours = failure_of(spark, build, "true")
    theirs = failure_of(spark, build, "false")
    assert type(ours) is type(theirs), (ours, theirs)
    assert first_line(ours) == first_line(theirs), (ours, theirs)
