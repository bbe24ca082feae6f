"""Random values of every Spark type for the plain UDF suites: the kinds of column, their
generators (extremes, nulls at every depth, instants around the session zone's clock changes, Java
hash collisions among map keys) and the frames made of them."""

import datetime as dt
import decimal
import math
import struct
import sys
from dataclasses import dataclass, field

import pyspark
import pyspark.sql.types
from pyspark import cloudpickle
from pyspark.sql import functions as F
from pyspark.sql.types import (
    ArrayType,
    BinaryType,
    BooleanType,
    ByteType,
    DataType,
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
    StructField,
    StructType,
    TimestampNTZType,
    TimestampType,
)

cloudpickle.register_pickle_by_value(sys.modules[__name__])

ZONE = "America/Los_Angeles"

# ---------------------------------------------------------------------------------------------
# Random input values: each kind is a Spark type and a generator of non-null Python values that
# createDataFrame takes. Nulls are added at every depth by `value_of`.


@dataclass
class Kind:
    name: str
    data_type: DataType
    gen: object  # (random.Random) -> value
    children: list = field(default_factory=list)
    # Whether rowbridge's path returns values of this type (a UDF returning a type it does not
    # goes to Spark's path, named in explain).
    returned: bool = True


def _ints(bits):
    low, high = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    special = [low, high, 0, -1, 1, low + 1, high - 1]

    def gen(r):
        if r.random() < 0.3:
            return r.choice(special)
        if r.random() < 0.5:
            return r.randint(max(low, -1000), min(high, 1000))
        return r.randint(low, high)

    return gen


_FLOAT_SPECIAL = [math.nan, math.inf, -math.inf, -0.0, 0.0, 1.0, -1.5, 1e-45, 3.4028234663852886e38]
_DOUBLE_SPECIAL = [
    math.nan, math.inf, -math.inf, -0.0, 0.0, 0.1, 5e-324, 1.7976931348623157e308, -2.5e-310,
]


def _gen_float(r):
    if r.random() < 0.3:
        return r.choice(_FLOAT_SPECIAL)
    if r.random() < 0.5:
        return round(r.uniform(-1e4, 1e4), r.randint(0, 6))
    return struct.unpack("<f", r.getrandbits(32).to_bytes(4, "little"))[0]


def _gen_double(r):
    if r.random() < 0.3:
        return r.choice(_DOUBLE_SPECIAL)
    if r.random() < 0.5:
        return r.uniform(-1e6, 1e6)
    return struct.unpack("<d", r.getrandbits(64).to_bytes(8, "little"))[0]


_PIECES = [
    "a", "Z", "7", " ", "é", "ß", "日本", "😀", "\u0000", "\n", "e\u0301", "\u200b", "Aa", "BB",
]


def _gen_string(r):
    if r.random() < 0.1:
        return ""
    return "".join(r.choice(_PIECES) for _ in range(r.randint(0, 8)))


def _gen_binary(r):
    data = bytes(r.getrandbits(8) for _ in range(r.randint(0, 10)))
    return bytearray(data) if r.random() < 0.5 else data


_WIDE = decimal.Context(prec=100)


def _decimals(precision, scale):
    top = 10**precision - 1

    def gen(r):
        pick = r.random()
        if pick < 0.1:
            return decimal.Decimal(0).scaleb(-scale, _WIDE)
        if pick < 0.2:
            return decimal.Decimal(r.choice([top, -top])).scaleb(-scale, _WIDE)
        if pick < 0.3 and scale >= 7:  # a few digits at the bottom: Java writes an exponent
            return decimal.Decimal(r.randint(-999, 999)).scaleb(-scale, _WIDE)
        if pick < 0.4 and precision - scale > 1:
            return decimal.Decimal(r.randint(-99, 99)) / 4  # fewer digits than the scale
        digits = r.randint(1, precision)
        return decimal.Decimal(r.randint(-(10**digits - 1), 10**digits - 1)).scaleb(-scale, _WIDE)

    return gen


_DATE_SPECIAL = [
    dt.date(1, 1, 1), dt.date(1582, 10, 4), dt.date(1582, 10, 15), dt.date(1899, 12, 31),
    dt.date(1969, 12, 31), dt.date(1970, 1, 1), dt.date(2000, 2, 29), dt.date(9999, 12, 31),
]


def _gen_date(r):
    if r.random() < 0.3:
        return r.choice(_DATE_SPECIAL)
    if r.random() < 0.5:
        return dt.date(1970, 1, 1) + dt.timedelta(days=r.randint(-40000, 40000))
    return dt.date.fromordinal(r.randint(1, dt.date(9999, 12, 31).toordinal()))


_UTC = dt.timezone.utc
# Instants around America/Los_Angeles' transitions (the session's and the workers' zone), the
# epoch, the end of 32-bit seconds and the zone's switch from local mean time.
_TIMESTAMP_SPECIAL = [
    dt.datetime(2021, 3, 14, 9, 59, 59, 999999, _UTC),
    dt.datetime(2021, 3, 14, 10, 0, 0, 0, _UTC),
    dt.datetime(2021, 11, 7, 8, 30, 0, 0, _UTC),
    dt.datetime(2021, 11, 7, 8, 59, 59, 999999, _UTC),
    dt.datetime(2021, 11, 7, 9, 0, 0, 0, _UTC),
    dt.datetime(2021, 11, 7, 9, 30, 0, 1, _UTC),
    dt.datetime(1969, 12, 31, 23, 59, 59, 999999, _UTC),
    dt.datetime(1970, 1, 1, 0, 0, 0, 0, _UTC),
    dt.datetime(1883, 11, 18, 19, 59, 59, 0, _UTC),
    dt.datetime(1883, 11, 18, 20, 0, 0, 0, _UTC),
    dt.datetime(1918, 3, 31, 10, 0, 0, 0, _UTC),
    dt.datetime(2038, 1, 19, 3, 14, 8, 0, _UTC),
    dt.datetime(1900, 1, 1, 0, 0, 0, 0, _UTC),
    dt.datetime(9999, 12, 30, 23, 59, 59, 999999, _UTC),
]
_NTZ_SPECIAL = [
    dt.datetime(2021, 3, 14, 2, 30),
    dt.datetime(2021, 11, 7, 1, 30),
    dt.datetime(1969, 12, 31, 23, 59, 59, 999999),
    dt.datetime(1970, 1, 1),
    dt.datetime(1, 1, 1),
    dt.datetime(1582, 10, 10, 12, 0),
    dt.datetime(9999, 12, 31, 23, 59, 59, 999999),
]
_EPOCH = dt.datetime(1970, 1, 1, tzinfo=_UTC)


def _gen_timestamp(r):
    if r.random() < 0.35:
        return r.choice(_TIMESTAMP_SPECIAL)
    if r.random() < 0.5:  # around a transition of some year
        year = r.randint(1940, 2060)
        month, day, hour = r.choice([3, 4, 10, 11]), r.randint(1, 14), r.randint(8, 11)
        base = dt.datetime(year, month, day, hour, tzinfo=_UTC)
        return base + dt.timedelta(
            seconds=r.randint(-7200, 7200), microseconds=r.randint(0, 999999)
        )
    seconds = r.randint(-2208988800, 4102444800)  # 1900 to 2100
    return _EPOCH + dt.timedelta(seconds=seconds, microseconds=r.randint(0, 999999))


def _gen_ntz(r):
    if r.random() < 0.3:
        return r.choice(_NTZ_SPECIAL)
    days = r.randint(1, dt.date(9999, 12, 31).toordinal())
    return dt.datetime.combine(dt.date.fromordinal(days), dt.time()) + dt.timedelta(
        microseconds=r.randint(0, 86_400_000_000 - 1)
    )


def _gen_interval(r):
    if r.random() < 0.3:
        micros = r.choice([0, -1, 1, 86_400_000_000, -86_400_000_001, 10**15, -(10**15)])
    else:
        micros = r.randint(-(10**13), 10**13)
    return dt.timedelta(microseconds=micros)


def _gen_time(r):
    if r.random() < 0.3:
        return r.choice([dt.time(0, 0), dt.time(23, 59, 59, 999999), dt.time(12, 0, 0, 1)])
    return dt.time(r.randint(0, 23), r.randint(0, 59), r.randint(0, 59), r.randint(0, 999999))


FLAT_KINDS = [
    Kind("tinyint", ByteType(), _ints(8)),
    Kind("smallint", ShortType(), _ints(16)),
    Kind("int", IntegerType(), _ints(32)),
    Kind("bigint", LongType(), _ints(64)),
    Kind("float", FloatType(), _gen_float),
    Kind("double", DoubleType(), _gen_double),
    Kind("string", StringType(), _gen_string),
    Kind("binary", BinaryType(), _gen_binary),
    Kind("boolean", BooleanType(), lambda r: r.random() < 0.5),
    Kind("dec38_10", DecimalType(38, 10), _decimals(38, 10)),
    Kind("dec38_0", DecimalType(38, 0), _decimals(38, 0)),
    Kind("dec38_38", DecimalType(38, 38), _decimals(38, 38)),
    Kind("dec18_4", DecimalType(18, 4), _decimals(18, 4)),
    Kind("dec10_0", DecimalType(10, 0), _decimals(10, 0)),
    Kind("dec5_2", DecimalType(5, 2), _decimals(5, 2)),
    Kind("date", DateType(), _gen_date),
    Kind("timestamp", TimestampType(), _gen_timestamp),
    Kind("timestamp_ntz", TimestampNTZType(), _gen_ntz),
    Kind("interval", DayTimeIntervalType(), _gen_interval),
]
if hasattr(pyspark.sql.types, "TimeType"):  # the lines with TIME (Spark 4.1 on)
    FLAT_KINDS.append(Kind("time", pyspark.sql.types.TimeType(), _gen_time, returned=False))
FLAT = {kind.name: kind for kind in FLAT_KINDS}

# Keys of maps: strings (with Java hash collisions such as "Aa" and "BB"), ints and longs.
KEY_KINDS = ["string", "int", "bigint"]
NULL_RATE = 0.12


def _unique_keys(r, kind, count):
    keys = []
    seen = set()
    for _ in range(count * 3):
        if len(keys) == count:
            break
        key = kind.gen(r)
        if key in seen:
            continue
        seen.add(key)
        keys.append(key)
    return keys


def struct_kind(name, fields):
    data_type = StructType([StructField(n, k.data_type, True) for n, k in fields])

    def gen(r):
        return tuple(value_of(r, k) for _, k in fields)

    return Kind(name, data_type, gen, [k for _, k in fields])


def array_kind(name, element):
    def gen(r):
        return [value_of(r, element) for _ in range(r.choice([0, 1, 2, 3, 5, 8]))]

    return Kind(name, ArrayType(element.data_type, True), gen, [element])


def map_kind(name, key, value):
    def gen(r):
        size = r.choice([0, 1, 2, 3, 5, 9, 13, 40])
        if key.name == "string" and r.random() < 0.3:  # Java String.hashCode collisions
            keys = r.sample(["Aa", "BB", "AaAa", "AaBB", "BBAa", "BBBB", "C#", "Bb"], 4)
        else:
            keys = _unique_keys(r, key, size)
        return {k: value_of(r, value) for k in keys}

    return Kind(name, MapType(key.data_type, value.data_type, True), gen, [key, value])


def value_of(r, kind):
    """A value of `kind`, None at this depth with NULL_RATE."""
    if r.random() < NULL_RATE:
        return None
    return kind.gen(r)


def random_kind(r, depth, name):
    """A random type: flat, or a struct, array or map of random types down to `depth`."""
    if depth == 0 or r.random() < 0.35:
        return FLAT[r.choice([name for name, kind in FLAT.items() if kind.returned])]
    shape = r.choice(["struct", "array", "map"])
    if shape == "struct":
        count = r.randint(1, 3)
        return struct_kind(name, [(f"f{i}", random_kind(r, depth - 1, name)) for i in range(count)])
    if shape == "array":
        return array_kind(name, random_kind(r, depth - 1, name))
    return map_kind(name, FLAT[r.choice(KEY_KINDS)], random_kind(r, depth - 1, name))


def nested_kinds(r):
    """Fixed nested kinds, then random ones drawn from `r`."""
    fixed = [
        struct_kind("st_int_string", [("a", FLAT["int"]), ("b", FLAT["string"])]),
        array_kind("arr_int", FLAT["int"]),
        array_kind("arr_string", FLAT["string"]),
        map_kind("map_string_bigint", FLAT["string"], FLAT["bigint"]),
        map_kind("map_int_string", FLAT["int"], FLAT["string"]),
        map_kind("map_bigint_double", FLAT["bigint"], FLAT["double"]),
        array_kind(
            "arr_struct",
            struct_kind(
                "s", [("ts", FLAT["timestamp"]), ("d", FLAT["dec38_10"]), ("b", FLAT["binary"])]
            ),
        ),
        map_kind("map_string_arr_date", FLAT["string"], array_kind("a", FLAT["date"])),
        struct_kind(
            "st_nested",
            [
                ("m", map_kind("m", FLAT["int"], FLAT["float"])),
                ("inner", struct_kind("i", [("x", FLAT["timestamp_ntz"]), ("y", FLAT["boolean"])])),
            ],
        ),
    ]
    randoms = [random_kind(r, 3, f"random{i}") for i in range(5)]
    return fixed + [
        Kind(f"random{i}", k.data_type, k.gen, k.children) for i, k in enumerate(randoms)
    ]


def frame_of(spark, kinds, rows, r, partitions=2):
    """A frame of `rows` random rows: `id`, then one column per kind, named after it."""
    schema = StructType(
        [StructField("id", LongType(), False)]
        + [StructField(k.name, k.data_type, True) for k in kinds]
    )
    data = [(i, *[value_of(r, k) for k in kinds]) for i in range(rows)]
    return spark.createDataFrame(data, schema).repartition(partitions, "id")


