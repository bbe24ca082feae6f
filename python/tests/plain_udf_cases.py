"""What the plain-UDF suites share: random values of every Spark type, random mismatched return
values for every return type, and a differential runner that collects a frame of plain
(pickled) `@udf`s with rowbridge's path on and off and compares the whole outcome: the rows, or
the failure.

Spark's own pickled path (BatchEvalPython) is the oracle. Every random choice comes from one
seed, ROWBRIDGE_TEST_SEED when set, printed in every assertion message.

The functions the UDFs run are defined in this module and test_plain_udfs.py; both are
registered with cloudpickle to be pickled by value, since the workers cannot import them.
"""

import datetime as dt
import math
import os
import random
import re
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field

import pyspark
import pyspark.sql.types
from pyspark import cloudpickle
from pyspark.sql import Row
from pyspark.sql import functions as F
from pyspark.sql.types import (
    ArrayType,
    BinaryType,
    BooleanType,
    ByteType,
    DateType,
    DayTimeIntervalType,
    DecimalType,
    DoubleType,
    FloatType,
    IntegerType,
    LongType,
    MapType,
    ShortType,
    StringType,
    StructType,
    TimestampNTZType,
    TimestampType,
)

from plain_udf_values import FLAT, FLAT_KINDS, ZONE, frame_of, nested_kinds  # noqa: F401
from plain_udf_returns import Returned, returned_column, returned_values  # noqa: F401

cloudpickle.register_pickle_by_value(sys.modules[__name__])

ENABLED = "spark.rowbridge.python.enabled"
NODE = "RowbridgeBatchEvalPython"
# Spark's node (or the same named for the UDFs that stay on Spark's path), not rowbridge's.
SPARK_NODE = re.compile(r"(?<!\w)(BatchEvalPython|SparkPickledEvalPython)\b")
# Where it is "true" (the default from Spark 4.2 on), F.udf and spark.udf.register make
# Arrow-optimized UDFs, not plain ones.
ARROW_UDFS = "spark.sql.execution.pythonUDF.arrow.enabled"
SPARK_LINE = tuple(int(part) for part in pyspark.__version__.split(".")[:2])


def _seed():
    text = os.environ.get("ROWBRIDGE_TEST_SEED", "").strip()
    return int(text) if text else random.SystemRandom().randrange(1 << 32)


SEED = _seed()
print(f"plain UDF suites: ROWBRIDGE_TEST_SEED={SEED}")


@contextmanager
def plain_udfs(spark):
    """UDFs made inside are plain (pickled) ones, the default before Spark 4.2."""
    spark.conf.set(ARROW_UDFS, "false")
    try:
        yield
    finally:
        spark.conf.unset(ARROW_UDFS)


def rng(name):
    """A random stream of its own for each case, so that a case replays from the seed alone."""
    return random.Random(f"{SEED}/{name}")


# ---------------------------------------------------------------------------------------------
# What the UDFs run (pickled by value to the workers).


def shape(x):
    """The exact Python type and value the function saw, at every depth."""
    if isinstance(x, Row):
        names = x.__fields__ if hasattr(x, "__fields__") else None
        return f"Row{names}(" + ", ".join(shape(v) for v in x) + ")"
    if isinstance(x, dict):
        return "dict{" + ", ".join(f"{shape(k)}: {shape(v)}" for k, v in x.items()) + "}"
    if isinstance(x, (list, tuple)):
        return type(x).__name__ + "[" + ", ".join(shape(v) for v in x) + "]"
    if isinstance(x, float):
        return "float " + (x.hex() if math.isfinite(x) else repr(x))
    if isinstance(x, dt.datetime):
        return f"datetime {x!r} fold={x.fold} tz={x.tzinfo!r}"
    return f"{type(x).__name__} {x!r}"


def _compute_int(x):
    return None if x is None else x * 3 - 1


def _compute_float(x):
    return None if x is None else x * 0.5 + 1


def _compute_string(x):
    return None if x is None else x[::-1].upper() + str(len(x))


def _compute_binary(x):
    return None if x is None else bytes(reversed(x)) + b"!"


def _compute_boolean(x):
    return None if x is None else not x


def _compute_decimal(x):
    return None if x is None else x / 3


def _compute_date(x):
    return None if x is None else f"{x.isoformat()} {x.toordinal()} {x.weekday()}"


def _compute_timestamp(x):
    if x is None:
        return None
    try:
        seconds = repr(x.timestamp())
    except (OverflowError, ValueError) as error:  # naive ones at the ends of the calendar
        seconds = type(error).__name__
    return f"{x.isoformat()} {seconds} {x.utcoffset()!r} {x.strftime('%Z %z')}"


def _compute_interval(x):
    return None if x is None else x * 2 - dt.timedelta(microseconds=1)


def _compute_struct(x):
    return None if x is None else [repr(v) for v in x]


def _compute_array(x):
    return None if x is None else [_stable(v) for v in x if v is not None][::-1]


def _compute_map_keys(x):
    return None if x is None else [_stable(k) for k in x.keys()]


def computation(kind):
    """A small computation over `kind`'s values and its return type, or None."""
    t = kind.data_type
    if isinstance(t, (ByteType, ShortType, IntegerType, LongType)):
        return _compute_int, LongType()
    if isinstance(t, (FloatType, DoubleType)):
        return _compute_float, DoubleType()
    if isinstance(t, StringType):
        return _compute_string, StringType()
    if isinstance(t, BinaryType):
        return _compute_binary, BinaryType()
    if isinstance(t, BooleanType):
        return _compute_boolean, BooleanType()
    if isinstance(t, DecimalType):
        return _compute_decimal, t
    if isinstance(t, DateType):
        return _compute_date, StringType()
    if isinstance(t, (TimestampType, TimestampNTZType)):
        return _compute_timestamp, StringType()
    if isinstance(t, DayTimeIntervalType):
        return _compute_interval, DayTimeIntervalType()
    if isinstance(t, StructType):
        return _compute_struct, ArrayType(StringType())
    if isinstance(t, ArrayType):
        return _compute_array, t
    if isinstance(t, MapType):
        return _compute_map_keys, ArrayType(t.keyType)
    return None


def _identity(x):
    return _stable(x)


def _stable(x):
    """``x``, with every local datetime whose conversion back to a timestamp depends on the
    worker's earlier conversions made None.

    ``TimestampType.toInternal`` converts a naive datetime with ``time.mktime``, which resolves
    a local time that the zone's clock change makes ambiguous or skips (and one in local mean
    time, before 1901) with the offset of its previous call. Spark's own pickled path answers
    those by what the worker converted before, which differs from run to run, so they cannot be
    compared; every other value is returned as it came."""
    if isinstance(x, dt.datetime):
        return x if x.tzinfo is not None or _mktime_is_stable(x) else None
    if isinstance(x, tuple):  # Row and tuples: a struct takes a tuple positionally
        return tuple(_stable(v) for v in x)
    if isinstance(x, list):
        return [_stable(v) for v in x]
    if isinstance(x, dict):
        return {k: _stable(v) for k, v in x.items()}
    return x


def _mktime_is_stable(x):
    if x.year < 1901:
        return False
    try:
        return x.replace(fold=0).timestamp() == x.replace(fold=1).timestamp()
    except (OverflowError, ValueError, OSError):
        return False


def _as_str(x):
    return str(x)


def udf_columns(kinds):
    """For every kind's column: an identity UDF, shape, str and a small computation."""
    columns = []
    for kind in kinds:
        c = kind.name
        if kind.returned:
            columns.append(F.udf(_identity, kind.data_type)(c).alias(f"{c}__identity"))
        columns.append(F.udf(shape, "string")(c).alias(f"{c}__shape"))
        columns.append(F.udf(_as_str, "string")(c).alias(f"{c}__str"))
        computed = computation(kind)
        if computed is not None:
            function, return_type = computed
            columns.append(F.udf(function, return_type)(c).alias(f"{c}__compute"))
    return columns


# ---------------------------------------------------------------------------------------------
# Running a frame both ways.


def executed_plan(df):
    """The plan that ran: an adaptive plan's final plan, without its initial one."""
    text = df._jdf.queryExecution().executedPlan().toString()
    return text.split("== Initial Plan ==")[0]


def error_signature(error):
    """What a failure must match: its class and the message that says what went wrong (for a
    Python error, the last line of its traceback)."""
    text = str(error)
    name = type(error).__name__
    if name == "PythonException":
        lines = [
            line.strip() for line in text.splitlines()
            if line.strip() and not line.startswith((" ", "\t", "Traceback"))
        ]
        return name, lines[-1] if lines else text
    match = re.search(r"most recent failure: Lost task [^)]*\)[^)]*\): ([^\n]*)", text)
    if match:
        return name, re.sub(r"@[0-9a-f]+", "@", match.group(1))
    first = text.strip().splitlines()[0] if text.strip() else ""
    return name, re.sub(r"\bo\d+\.", "o.", first)


@dataclass
class Outcome:
    rows: list = None
    error: tuple = None
    plan: str = ""

    def describe(self):
        return f"error {self.error}" if self.error else f"{len(self.rows)} rows"


def run(spark, build, enabled, sort=True):
    spark.conf.set(ENABLED, enabled)
    try:
        df = build()
        try:
            rows = df.collect()
        except Exception as error:  # noqa: BLE001 - the failure is the outcome
            return Outcome(error=error_signature(error), plan=executed_plan(df))
        if sort:
            rows.sort(key=lambda row: row[0])
        return Outcome(rows=rows, plan=executed_plan(df))
    finally:
        spark.conf.unset(ENABLED)


def check_plans(ours, theirs, context):
    assert NODE in ours.plan, f"{context}: rowbridge's node is not in the plan:\n{ours.plan}"
    assert not SPARK_NODE.search(ours.plan), f"{context}: Spark's node is in the plan:\n{ours.plan}"
    assert NODE not in theirs.plan, f"{context}: rowbridge's node with it disabled:\n{theirs.plan}"
    assert SPARK_NODE.search(theirs.plan), f"{context}: no BatchEvalPython:\n{theirs.plan}"


def _contrast(ours, theirs, width=160):
    """Both values, or for long ones the window around where they first differ."""
    if len(ours) + len(theirs) <= 2 * width:
        return f"rowbridge {ours}, Spark {theirs}"
    pairs = enumerate(zip(ours, theirs))
    at = next((i for i, (a, b) in pairs if a != b), min(len(ours), len(theirs)))
    start = max(0, at - width // 2)
    return (
        f"from character {start}: rowbridge ...{ours[start:start + width]}..., "
        f"Spark ...{theirs[start:start + width]}..."
    )


def differences(ours, theirs, names, limit=20):
    """The first cell that differs in each column (up to `limit` columns), as text: the row's
    id, the column, both values."""
    found = []
    if len(ours) != len(theirs):
        found.append(f"{len(ours)} rows with rowbridge, {len(theirs)} with Spark")
    reported = set()
    for a, b in zip(ours, theirs):
        for index, name in enumerate(names):
            if index not in reported and repr(a[index]) != repr(b[index]):
                reported.add(index)
                contrast = _contrast(repr(a[index]), repr(b[index]))
                found.append(f"id {a[0]!r} column {name}: {contrast}")
                if len(found) >= limit:
                    return found
    return found


def static_plan(spark, build, enabled):
    """The plan `build()` gets without adaptive execution, for a query that failed (an adaptive
    plan that fails shows its initial plan, before rowbridge's rules ran on its stages)."""
    spark.conf.set(ENABLED, enabled)
    spark.conf.set("spark.sql.adaptive.enabled", "false")
    try:
        return executed_plan(build())
    finally:
        spark.conf.unset("spark.sql.adaptive.enabled")
        spark.conf.unset(ENABLED)


def compare(spark, build, context, check_plan=True, sort=True, rows=False):
    """Collects `build()` with rowbridge's path and with Spark's; the outcomes must be equal
    (and with `rows`, rows: a case of values in, which must not fail). Returns Spark's
    outcome."""
    ours = run(spark, build, "true", sort)
    theirs = run(spark, build, "false", sort)
    context = f"seed {SEED}, {context}"
    assert not (rows and theirs.error), f"{context}: Spark failed: {theirs.error}"
    if theirs.error or ours.error:
        assert ours.error == theirs.error, (
            f"{context}: rowbridge {ours.describe()}, Spark {theirs.describe()}"
            + ("" if ours.error else f"\nrowbridge's first rows: {ours.rows[:3]!r}")
        )
        ours.plan = static_plan(spark, build, "true")
        theirs.plan = static_plan(spark, build, "false")
    if check_plan:
        check_plans(ours, theirs, context)
    theirs.ours = ours
    if theirs.error:
        return theirs
    names = build().columns
    diff = differences(ours.rows, theirs.rows, names)
    assert not diff, f"{context}:\n" + "\n".join(diff)
    return theirs
