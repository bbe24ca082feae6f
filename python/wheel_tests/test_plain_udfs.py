"""Plain (pickled) Python UDFs on rowbridge's path, from the installed wheel, in the session
conftest.py sets up with rowbridge.spark.configure alone: the same answers as Spark's own
pickled path (spark.rowbridge.python.enabled=false), the oracle. Values are random from a seed,
ROWBRIDGE_TEST_SEED when set, printed in every assertion message."""

import datetime as dt
import decimal
import math
import os
import random
import re
import sys

import pytest
from pyspark import cloudpickle
from pyspark.sql import Row
from pyspark.sql import functions as F

cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the workers cannot import it

ENABLED = "spark.rowbridge.python.enabled"
NODE = "RowbridgeBatchEvalPython"
SPARK_NODE = re.compile(r"(?<!\w)(BatchEvalPython|SparkPickledEvalPython)\b")
SEED = int(os.environ.get("ROWBRIDGE_TEST_SEED") or random.SystemRandom().randrange(1 << 32))
print(f"plain UDF wheel suite: ROWBRIDGE_TEST_SEED={SEED}")

QUERY = (
    "SELECT id, CAST(id * {a} % 256 - 128 AS TINYINT) AS t, CAST(id * {b} AS INT) AS i,"
    " IF(id % 7 = 0, NULL, id * {c} - 9223372036854775000) AS l,"
    " CASE id % 5 WHEN 0 THEN CAST('NaN' AS DOUBLE) WHEN 1 THEN -0.0D"
    " ELSE id / {d}.0D END AS dbl, CAST(id / 7 AS FLOAT) AS f,"
    " IF(id % 4 = 0, NULL, CONCAT('é', id, REPEAT('日本', CAST(id % 3 AS INT)))) AS s,"
    " CAST(CONCAT('b', id) AS BINARY) AS bin, id % 3 = 0 AS b,"
    " CAST(id * {e} / 1000 AS DECIMAL(38, 10)) AS dec, CAST(id * 1e-10 AS DECIMAL(38, 10)) AS tiny,"
    " DATE_ADD(DATE'1582-10-01', CAST(id * ({f} % 7000 + 1) AS INT)) AS d,"
    " TIMESTAMP_SECONDS(1615712400 + (id - 100) * 37 + {g}) AS ts,"
    " CAST(TIMESTAMP_SECONDS(id * {g}) AS TIMESTAMP_NTZ) AS ntz,"
    " NAMED_STRUCT('x', id, 'y', IF(id % 3 = 0, NULL, CAST(id AS STRING))) AS st,"
    " IF(id % 6 = 0, NULL,"
    " TRANSFORM(SEQUENCE(0, CAST(id % 5 AS INT)), v -> IF(v = 2, NULL, v))) AS arr,"
    " MAP_FROM_ARRAYS(TRANSFORM(SEQUENCE(0, CAST(id % 15 AS INT)), v -> CONCAT('k', v * {a})),"
    " TRANSFORM(SEQUENCE(0, CAST(id % 15 AS INT)), v -> IF(v = 1, NULL, v))) AS m,"
    " MAP_FROM_ARRAYS(TRANSFORM(SEQUENCE(0, CAST(id % 9 AS INT)), v -> v * {b} - 70000),"
    " TRANSFORM(SEQUENCE(0, CAST(id % 9 AS INT)), v -> CAST(v AS STRING))) AS mi"
    " FROM range(0, 400, 1, 2)"
)


@pytest.fixture(autouse=True)
def _plain(spark):
    """UDFs made in the tests are plain (pickled) ones: where spark.sql.execution.pythonUDF.arrow.
    enabled is true (the default from Spark 4.2 on), F.udf makes Arrow-optimized ones."""
    spark.conf.set("spark.sql.execution.pythonUDF.arrow.enabled", "false")
    yield
    spark.conf.unset("spark.sql.execution.pythonUDF.arrow.enabled")


def shape(x):
    """The exact Python type and value the function saw, at every depth."""
    if isinstance(x, Row):
        return f"Row{list(x.__fields__)}(" + ", ".join(shape(v) for v in x) + ")"
    if isinstance(x, dict):
        return "dict{" + ", ".join(f"{shape(k)}: {shape(v)}" for k, v in x.items()) + "}"
    if isinstance(x, (list, tuple)):
        return type(x).__name__ + "[" + ", ".join(shape(v) for v in x) + "]"
    if isinstance(x, float):
        return "float " + (x.hex() if math.isfinite(x) else repr(x))
    if isinstance(x, dt.datetime):
        return f"datetime {x!r} fold={x.fold}"
    return f"{type(x).__name__} {x!r}"


def _identity(x):
    return x


def _returning(value):
    def give(i):
        return value if i % 3 else None

    return give


def _outcome(spark, build, enabled):
    spark.conf.set(ENABLED, enabled)
    try:
        df = build()
        try:
            rows = sorted(df.collect(), key=lambda row: row[0])
        except Exception as error:  # noqa: BLE001 - the failure is the outcome
            lines = [line for line in str(error).splitlines() if line and not line[0].isspace()]
            return (type(error).__name__, lines[-1] if lines else ""), None
        plan = df._jdf.queryExecution().executedPlan().toString().split("== Initial Plan ==")[0]
        return rows, plan
    finally:
        spark.conf.unset(ENABLED)


def _same(spark, build, context, rows=False):
    """The same outcome on both paths (with `rows`, rows: values in must not fail)."""
    ours, plan = _outcome(spark, build, "true")
    theirs, spark_plan = _outcome(spark, build, "false")
    context = f"seed {SEED}, {context}"
    assert not (rows and isinstance(theirs, tuple)), f"{context}: Spark failed: {theirs}"
    if plan is not None:
        assert NODE in plan and not SPARK_NODE.search(plan), f"{context}: {plan}"
    if spark_plan is not None:
        assert NODE not in spark_plan, f"{context}: {spark_plan}"
    if isinstance(theirs, tuple) or isinstance(ours, tuple):
        assert ours == theirs, f"{context}: rowbridge {ours}, Spark {theirs}"
        return
    assert len(ours) == len(theirs), context
    names = build().columns
    for a, b in zip(ours, theirs):
        for name, x, y in zip(names, a, b):
            assert repr(x) == repr(y), f"{context}, id {a[0]}, {name}: rowbridge {x!r}, Spark {y!r}"


def test_every_type_in(spark):
    r = random.Random(f"{SEED}/in")
    values = {k: r.randint(1, 99991) for k in "abcdefg"}
    df = spark.sql(QUERY.format(**values))
    types = {f.name: f.dataType for f in df.schema.fields}
    columns = []
    for name in df.columns[1:]:
        columns.append(F.udf(shape, "string")(name).alias(f"{name}_shape"))
        columns.append(F.udf(_identity, types[name])(name).alias(f"{name}_identity"))
    columns.append(F.udf(lambda m: None if m is None else list(m.keys()), "array<string>")("m"))
    columns.append(F.udf(lambda m: str(m), "string")("mi"))
    _same(spark, lambda: df.select("id", *columns), f"types in ({values})", rows=True)


def test_mismatched_return_values(spark):
    r = random.Random(f"{SEED}/out")
    naive = dt.datetime(2021, 11, 7, 1, 30, fold=r.randint(0, 1))
    returned = [
        ("string", r.randint(-(1 << 40), 1 << 40)),
        ("string", r.choice([1e10, 0.1, math.nan])),
        ("string", {"a": 1, "Aa": None, "BB": [1.5]}),
        ("int", (1 << 31) + r.randint(0, 99)),
        ("tinyint", r.randint(128, 1 << 20)),
        ("bigint", 1 << 64),
        ("int", r.uniform(-5, 5)),
        ("double", r.randint(-99, 99)),
        ("double", "1.5"),
        ("float", 1e300),
        ("boolean", 1),
        ("binary", "é" * r.randint(0, 3)),
        ("binary", bytearray(b"\x00\xff")),
        ("decimal(10,2)", decimal.Decimal("3.14159")),
        ("decimal(38,38)", decimal.Decimal("0E-40")),
        ("decimal(5,0)", 7),
        ("date", naive),
        ("timestamp", naive),
        ("timestamp", naive.replace(tzinfo=dt.timezone(dt.timedelta(hours=r.randint(-12, 12))))),
        ("timestamp_ntz", naive.replace(tzinfo=dt.timezone.utc)),
        ("struct<a:int,b:string>", {"b": "x", "a": r.randint(0, 9)}),
        ("struct<a:int,b:string>", ("swapped", 1)),
        ("struct<a:int,b:string>", [1, None]),
        ("array<int>", [1, None, "2", 1 << 40, 2.5]),
        ("array<int>", (3, 4)),
        ("map<string,int>", {1: 2, "x": None}),
        ("map<string,int>", [("a", 1)]),
        ("map<int,string>", {r.randint(-(1 << 31), 1 << 31): str(i) for i in range(20)}),
    ]
    r.shuffle(returned)
    base = spark.range(0, 30, 1, 2)
    columns = [F.udf(_returning(v), t)("id").alias(f"c{i}") for i, (t, v) in enumerate(returned)]
    labels = ", ".join(f"c{i}: {t} <- {v!r}" for i, (t, v) in enumerate(returned))
    _same(spark, lambda: base.select("id", *columns), f"returned values ({labels})")


def _boom(i):
    if i == 77:
        raise KeyError(f"no row {i}")
    return i


def test_a_raising_udf(spark):
    base = spark.range(0, 200, 1, 2)
    _same(spark, lambda: base.select("id", F.udf(_boom, "long")("id")), "a raising UDF")
    ours, _ = _outcome(spark, lambda: base.select("id", F.udf(_boom, "long")("id")), "true")
    assert ours == ("PythonException", "KeyError: 'no row 77'"), ours
