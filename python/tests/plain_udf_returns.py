"""Random mismatched return values for every return type of the plain UDF suites: values of
the return type's own kind and of others, out of range, naive and aware, None at any depth."""

import datetime as dt
import decimal
import math
import sys
import types
import zoneinfo
from dataclasses import dataclass, field

import pyspark.sql.types
from pyspark import cloudpickle
from pyspark.sql import Row
from pyspark.sql import functions as F

from plain_udf_values import _PIECES, _UTC, _WIDE, ZONE, _gen_date, _gen_interval  # noqa: F401

cloudpickle.register_pickle_by_value(sys.modules[__name__])

# ---------------------------------------------------------------------------------------------
# Random mismatched return values: (return type, value, whether the pickled path is expected to
# fail on it). The expectation only groups the values into queries: the outcome compared is
# always the one Spark gives.


@dataclass
class Returned:
    return_type: str
    value: object
    fails: bool = False

    def label(self):
        return f"{self.return_type} <- {self.value!r}"


def _random_unicode(r):
    return "".join(r.choice(_PIECES) for _ in range(r.randint(1, 6)))


def _int_values(r, bits):
    low, high = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return [
        r.randint(low, high),
        high + 1,
        low - 1,
        r.randint(high, max(high, 1 << 40)),
        r.choice([1 << 63, -(1 << 63) - 1, (1 << 64) + 5, 1 << 31, -(1 << 31) - 1]),
        r.choice([True, False]),
        r.choice([1.0, 2.5, -0.0, math.nan, math.inf]),
        "12",
        decimal.Decimal("3"),
        None,
    ]


def _float_values(r):
    return [
        r.uniform(-1e9, 1e9),
        math.nan,
        r.choice([math.inf, -math.inf]),
        -0.0,
        r.choice([1e300, 5e-324, 3.5e38, 1.2e-40]),
        r.randint(-5, 5),
        1 << 70,
        True,
        "1.5",
        decimal.Decimal("1.25"),
        None,
    ]


def _naive(r):
    return r.choice(
        [
            # Not in the spring gap nor the autumn fold: see _stable.
            dt.datetime(2021, 3, 14, 3, 30, 0, r.randint(0, 999999)),
            dt.datetime(2021, 11, 7, 2, 30, 0, 0),
            dt.datetime(1969, 12, 31, 23, 59, 59, 999999),
            dt.datetime(1900, 1, 1),
            dt.datetime(1901, 1, 1)
            + dt.timedelta(microseconds=r.randint(0, 200 * 365 * 86_400_000_000)),
        ]
    )


def _aware(r):
    zone = r.choice(
        [_UTC, dt.timezone(dt.timedelta(hours=5, minutes=30)), dt.timezone(-dt.timedelta(hours=11)),
         zoneinfo.ZoneInfo(ZONE), zoneinfo.ZoneInfo("Asia/Kathmandu")]
    )
    return _naive(r).replace(tzinfo=zone)


def returned_values(r):
    """Random return values, mismatched and not, for every return type."""
    values = []

    def add(return_type, candidates, fails=False):
        values.extend(Returned(return_type, v, fails) for v in candidates)

    for ddl, bits in (("tinyint", 8), ("smallint", 16), ("int", 32), ("bigint", 64)):
        add(ddl, _int_values(r, bits))
    add("float", _float_values(r))
    add("double", _float_values(r))
    add(
        "string",
        [
            _random_unicode(r),
            "",
            r.randint(-(1 << 40), 1 << 40),
            1 << 70,
            r.choice([1e10, 0.1, math.nan, -0.0, 1e-7, 123.0]),
            r.choice([True, False]),
            decimal.Decimal(r.choice(["1.50", "1E+5", "-0.000", "0E-10"])),
            [1, "a", None, 2.5],
            {"a": 1, "b": None, "Aa": [1], "BB": 2.0},
            [{"k": (1 << 40)}, None],
            {1, 2, 3},
            dt.date(2020, 1, 31),
            None,
        ],
    )
    add("boolean", [True, False, 1, 0, "true", 1.0, None])
    add(
        "binary",
        [
            bytes(r.getrandbits(8) for _ in range(r.randint(0, 6))),
            bytearray(b"\x00\xff"),
            b"",
            _random_unicode(r),
            5,
            [1, 2],
            None,
        ],
    )
    for precision, scale in ((38, 10), (10, 0), (5, 2), (38, 0), (38, 38)):
        ddl = f"decimal({precision},{scale})"
        top = 10 ** (precision - scale) - 1
        add(
            ddl,
            [
                decimal.Decimal(r.randint(-top, top)).scaleb(-r.randint(0, 3), _WIDE),
                decimal.Decimal("1.23456789012345678901234567890123456789").scaleb(
                    precision - scale - 1 if precision - scale > 0 else -1, _WIDE
                ),
                decimal.Decimal("-0"),
                decimal.Decimal("0E-20"),
                decimal.Decimal("NaN"),
                7,
                1.5,
                "1.5",
                None,
            ],
        )
        add(
            ddl,
            [
                decimal.Decimal(10 ** (precision - scale + 1)) + decimal.Decimal("0.5"),
                decimal.Decimal(r.choice(["Infinity", "-Infinity", "-NaN", "sNaN"])),
            ],
            fails=True,
        )
    add("date", [_gen_date(r), _naive(r), _aware(r), None])
    add("date", ["2020-01-01", r.randint(0, 100)], fails=True)
    add("timestamp", [_naive(r), _naive(r), _aware(r), _aware(r), None])
    add("timestamp", [_gen_date(r), "2020-01-01 00:00:00", r.randint(0, 100)], fails=True)
    add("timestamp_ntz", [_naive(r), _aware(r), None])
    add("interval day to second", [_gen_interval(r), -dt.timedelta(days=r.randint(0, 9999)), None])
    add("interval day to second", [r.randint(-9, 9), "1 day"], fails=True)
    add("timestamp_ntz", [_gen_date(r), "2020-01-01"], fails=True)
    add(
        "struct<a:int,b:string>",
        [
            (r.randint(-9, 9), _random_unicode(r)),
            Row(a=1, b="x"),
            Row(b="y", a=2),
            {"a": 3, "b": "z"},
            {"b": "only b"},
            {"a": 4, "b": "w", "c": 5},
            [5, "list"],
            ("swapped", 6),
            types.SimpleNamespace(a=7, b="object"),
            (None, None),
            None,
        ],
    )
    add("struct<a:int,b:string>", [(1,), (1, "x", 3), 5, "ab"], fails=True)
    add(
        "struct<a:double,b:array<int>,c:map<string,date>>",
        [
            (1.5, [1, None, 3], {"k": None, "j": dt.date(2001, 2, 3)}),
            (None, None, None),
            (1, "not a list", {}),
            {"c": {"x": dt.date(1960, 5, 6)}, "a": math.nan},
        ],
    )
    add(
        "array<int>",
        [
            [1, None, 1 << 40, True, 1.5, "3"],
            (),
            (1, 2),
            [],
            {1, 2},
            "abc",
            {"a": 1},
            None,
        ],
    )
    add("array<string>", [[1, "a", None, 1.5, _random_unicode(r)], ["x"] * r.randint(0, 4)])
    add("array<array<bigint>>", [[[1, None], None, []], [None], [[1 << 63]]])
    add("array<double>", [[math.nan, 1, None, -0.0], (1.0, "2")])
    add(
        "map<string,int>",
        [
            {"a": 1, "b": None},
            {1: 2},
            {"1": 1, 1: 2},
            {},
            [("a", 1)],
            {_random_unicode(r) + str(i): i for i in range(r.randint(5, 30))},
            {"Aa": 1, "BB": 2, "C#": 3},
            None,
        ],
    )
    add("map<string,int>", [{None: 1}], fails=True)
    add(
        "map<int,string>",
        [{1: "a", -5: "b", 1 << 33: "c"}, {2: 3, 1: None}, {i * 7919: str(i) for i in range(20)}],
    )
    add(
        "map<string,array<struct<x:int>>>",
        [{"a": [(1,), None, {"x": 2}], "b": None, "c": []}],
    )
    r.shuffle(values)
    return values


def _returning(value):
    def give(i):
        return value if i % 5 else None

    return give


def returned_column(returned, argument="id"):
    return F.udf(_returning(returned.value), returned.return_type)(argument)


