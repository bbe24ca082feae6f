"""Plain (pickled) Python UDFs on rowbridge's path against Spark's own pickled path, the
oracle: random values of every type in, random mismatched values out, the ways a UDF is
called, and the faults. Every case checks that the plan ran rowbridge's node (else it would
compare Spark with Spark). The seed (ROWBRIDGE_TEST_SEED to replay) is in every message."""

import os
import sys
import threading
import time

import pytest
from pyspark import cloudpickle
from pyspark.sql import functions as F
from pyspark.sql.types import DoubleType, LongType, StringType

import plain_udf_cases as cases
from plain_udf_cases import (
    ENABLED,
    FLAT_KINDS,
    NODE,
    SEED,
    SPARK_LINE,
    SPARK_NODE,
    compare,
    frame_of,
    nested_kinds,
    returned_column,
    returned_values,
    rng,
    run,
    udf_columns,
)

cloudpickle.register_pickle_by_value(sys.modules[__name__])

ROWS = 160


@pytest.fixture(autouse=True)
def _plain(spark):
    with cases.plain_udfs(spark):
        yield


def test_every_flat_type_in(spark):
    """Identity, shape (the exact Python types and values the function saw), str and a small
    computation over every flat type's random values, all in one projection."""
    r = rng("flat")
    df = frame_of(spark, FLAT_KINDS, ROWS, r)
    compare(spark, lambda: df.select("id", *udf_columns(FLAT_KINDS)), "flat types in", rows=True)


def test_every_nested_type_in(spark):
    """Structs, arrays and maps (string, int and long keys, Java hash collisions, sizes past a
    HashMap's resize), nested in each other, nulls at every depth."""
    r = rng("nested")
    kinds = nested_kinds(r)
    df = frame_of(spark, kinds, ROWS // 2, r)
    types = ", ".join(f"{k.name} {k.data_type.simpleString()}" for k in kinds)
    columns = udf_columns(kinds)
    compare(spark, lambda: df.select("id", *columns), f"nested types in ({types})", rows=True)


def test_mismatched_return_values(spark):
    """Every return type given values of its own and of other types. The values Spark takes
    run in one projection; each value Spark fails on runs alone, and the failure must match."""
    r = rng("returned")
    values = returned_values(r)
    base = spark.range(0, 60, 1, 2)
    taken = [v for v in values if not v.fails]
    failing = [v for v in values if v.fails]

    def alone(v):
        return base.select("id", returned_column(v))

    def build_taken():
        return base.select("id", *[returned_column(v).alias(f"c{i}") for i, v in enumerate(taken)])

    labels = "; ".join(f"c{i}: {v.label()}" for i, v in enumerate(taken))
    outcome = compare(spark, build_taken, f"returned values ({labels})")
    if outcome.error:  # a value Spark fails on (the same way on both paths): each alone then
        for v in taken:
            compare(spark, lambda v=v: alone(v), f"returned {v.label()}")
    for v in r.sample(failing, min(len(failing), 3)):
        outcome = compare(spark, lambda v=v: alone(v), f"returned {v.label()}")
        assert outcome.error, f"seed {SEED}: Spark took {v.label()}"


def _plus_one(x):
    return None if x is None else x + 1


def _length(s):
    return None if s is None else len(s)


def _describe(i, s, d):
    return f"{i}|{s}|{d}"


def _keyword(x, y="default"):
    return f"{x}:{y}"


def test_the_ways_a_udf_is_called(spark):
    """Chained UDFs, a UDF in an expression and in a filter, several in one projection sharing
    an argument, F.udf and SQL text, no argument, a non-deterministic one, keyword arguments."""
    r = rng("calls")
    kinds = [cases.FLAT["int"], cases.FLAT["string"], cases.FLAT["dec18_4"], cases.FLAT["double"]]
    df = frame_of(spark, kinds, ROWS, r)
    plus_one = F.udf(_plus_one, LongType())
    length = F.udf(_length, "int")
    to_string = F.udf(lambda x: None if x is None else str(x), StringType())
    describe = F.udf(_describe, "string")
    half = F.udf(lambda x: None if x is None else x / 2, DoubleType()).asNondeterministic()
    seven = F.udf(lambda: 7, "int")
    keyword = F.udf(_keyword, "string")
    keyword_columns = []
    if SPARK_LINE >= (4, 0):  # keyword arguments in calls of Python UDFs: Spark 4.0 on
        keyword_columns = [
            keyword(x=F.col("int"), y=F.col("string")).alias("keywords"),
            keyword(F.col("int")).alias("keyword_default"),
            keyword(F.col("string"), y=F.lit("y")).alias("keyword_mixed"),
        ]

    def build():
        return df.filter(F.udf(lambda i: i is None or i % 3 != 0, "boolean")("int")).select(
            "id",
            plus_one(plus_one("int")).alias("chained"),
            length(to_string(plus_one("int"))).alias("chained3"),
            (F.col("int").cast("long") * 2 + plus_one("int")).alias("in_expression"),
            F.concat(to_string("string"), F.lit("!"), to_string("dec18_4")).alias("concat"),
            describe("int", "string", "dec18_4").alias("three_args"),
            describe(F.lit(1), "string", F.lit(None)).alias("literals"),
            F.when(length("string") > 3, plus_one("int")).otherwise(F.lit(-1)).alias("when"),
            half("double").alias("nondeterministic"),
            to_string("int").alias("shared1"),
            plus_one("int").alias("shared2"),
            *keyword_columns,
        )

    compare(spark, build, "the ways a UDF is called", rows=True)

    df.createOrReplaceTempView("plain_udf_input")
    spark.udf.register("plain_plus_one", _plus_one, LongType())
    spark.udf.register("plain_shape", cases.shape, StringType())
    compare(
        spark,
        lambda: spark.sql(
            "SELECT id, plain_plus_one(int) AS p, plain_shape(string) AS s,"
            " plain_shape(NAMED_STRUCT('x', int, 'y', ARRAY(dec18_4))) AS nested"
            " FROM plain_udf_input WHERE plain_plus_one(int) % 2 = 0"
        ),
        "UDFs in SQL text",
    )

    # A UDF of no argument: on rowbridge's path, or on Spark's and named so in the plan.
    build_seven = lambda: df.select("id", seven().alias("seven"))  # noqa: E731
    plan = compare(spark, build_seven, "a UDF of no argument", check_plan=False).ours.plan
    spark_lines = [line for line in plan.splitlines() if SPARK_NODE.search(line)]
    assert NODE in plan or spark_lines, plan
    assert all("pickled path" in line for line in spark_lines), f"seed {SEED}: {plan}"


def test_a_udf_after_a_shuffle_and_an_aggregate(spark):
    r = rng("shuffle")
    df = frame_of(spark, [cases.FLAT["int"], cases.FLAT["string"]], ROWS, r)
    grouped = df.groupBy((F.col("id") % 17).alias("id")).agg(
        F.collect_list("string").alias("strings"), F.sum("int").alias("total")
    )
    compare(
        spark,
        lambda: grouped.select(
            "id",
            F.udf(cases.shape, "string")("total"),
            F.udf(lambda s: None if s is None else sorted(s), "array<string>")("strings"),
        ),
        "a UDF after a shuffle",
    )


def _on_sparks_path_per_udf(spark, build, context):
    """`build()`'s answers equal Spark's, and the plan it ran with rowbridge's path on has
    rowbridge's node, and Spark's node for the other UDFs, saying it is Spark's pickled path."""
    outcome = compare(spark, build, context, check_plan=False)
    lines = outcome.ours.plan.splitlines()
    assert any(NODE in line for line in lines), f"seed {SEED}, {context}: {outcome.ours.plan}"
    spark_lines = [line for line in lines if SPARK_NODE.search(line)]
    assert spark_lines and all("pickled path" in line for line in spark_lines), (
        f"seed {SEED}, {context}: {outcome.ours.plan}"
    )
    return outcome


def test_udfs_rowbridge_leaves_to_spark_per_udf(spark):
    """A UDF over or returning a UDT (ml's vectors), over a Variant (Spark 4.0 on) or returning
    a TIME (Spark 4.1 on) stays on Spark's pickled path, explain says so, and the plain UDF
    beside it still takes rowbridge's."""
    from pyspark.ml.linalg import Vectors, VectorUDT

    df = spark.createDataFrame(
        [(i, Vectors.dense([float(i), -i / 3.0]), f"v{i}") for i in range(50)], ["id", "v", "s"]
    )
    vector_sum = F.udf(lambda v: float(v.toArray().sum()), "double")
    scaled = F.udf(lambda v: Vectors.dense(v.toArray() * 2), VectorUDT())
    upper = F.udf(lambda s: s.upper(), "string")

    def build():
        return df.select(
            "id", vector_sum("v").alias("sum"), scaled("v").alias("scaled"), upper("s").alias("u")
        )

    outcome = _on_sparks_path_per_udf(spark, build, "a UDT beside a plain UDF")
    assert len(outcome.rows) == 50

    if SPARK_LINE >= (4, 0):
        variants = spark.sql(
            "SELECT id, PARSE_JSON(CONCAT('{\"a\": ', id, ', \"b\": [1, null]}')) AS v,"
            " CAST(id AS STRING) AS s FROM range(0, 40, 1, 2)"
        )
        _on_sparks_path_per_udf(
            spark,
            lambda: variants.select("id", F.udf(str, "string")("v"), upper("s")),
            "a Variant argument beside a plain UDF",
        )
    if "time" in cases.FLAT:
        r = rng("time")
        times = frame_of(spark, [cases.FLAT["time"]], 60, r)
        _on_sparks_path_per_udf(
            spark,
            lambda: times.select(
                "id",
                F.udf(lambda t: t, cases.FLAT["time"].data_type)("time"),
                F.udf(cases.shape, "string")("time"),
            ),
            "a TIME result beside a plain UDF",
        )


def _boom(i):
    if i == 137:
        raise ValueError(f"plain udf failed on row {i}")
    return i


def test_a_raising_udf_is_a_python_exception(spark):
    df = spark.range(0, 300, 1, 2)
    build = lambda: df.select(F.udf(_boom, "long")("id"))  # noqa: E731
    outcome = compare(spark, build, "a raising UDF")
    expected = ("PythonException", "ValueError: plain udf failed on row 137")
    assert outcome.error == expected, outcome.error
    spark.conf.set(ENABLED, "true")
    try:
        with pytest.raises(Exception) as raised:
            build().collect()
    finally:
        spark.conf.unset(ENABLED)
    assert type(raised.value).__name__ == "PythonException"
    assert "Traceback" in str(raised.value) and "_boom" in str(raised.value), raised.value


def _killer(i):
    if i == 211:
        os.kill(os.getpid(), 9)
    return i * 2


def _still_works(spark):
    spark.conf.set(ENABLED, "true")
    try:
        df = spark.range(0, 500, 1, 2).select("id", F.udf(_plus_one, "long")("id").alias("p"))
        rows = df.collect()
        assert NODE in cases.executed_plan(df)
    finally:
        spark.conf.unset(ENABLED)
    assert sorted((row.id, row.p) for row in rows) == [(i, i + 1) for i in range(500)]


def test_a_worker_killed_mid_stream(spark):
    df = spark.range(0, 400, 1, 2)
    ours = run(spark, lambda: df.select(F.udf(_killer, "long")("id")), "true")
    theirs = run(spark, lambda: df.select(F.udf(_killer, "long")("id")), "false")
    assert NODE in ours.plan, ours.plan
    assert ours.error and theirs.error, (ours, theirs)
    assert ours.error == theirs.error, f"seed {SEED}: rowbridge {ours.error}, Spark {theirs.error}"
    assert "Python worker exited unexpectedly" in ours.error[1], ours.error
    _still_works(spark)


def _slow(i):
    time.sleep(0.01)
    return i


def test_a_cancelled_job(spark):
    df = spark.range(0, 100_000, 1, 2)
    for enabled in ("true", "false"):
        spark.conf.set(ENABLED, enabled)
        timer = threading.Timer(1.0, spark.sparkContext.cancelAllJobs)
        try:
            query = df.select(F.udf(_slow, "long")("id"))
            timer.start()
            with pytest.raises(Exception) as stopped:
                query.collect()
            if enabled == "true":
                assert NODE in cases.executed_plan(query)
        finally:
            timer.cancel()
            spark.conf.unset(ENABLED)
        assert "cancel" in str(stopped.value).lower(), stopped.value
    _still_works(spark)
