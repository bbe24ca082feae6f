"""Arrow columns to the Python values a plain UDF receives on Spark's pickled path.

On that path the JVM turns each value into a Java object (``EvaluatePython.toJava``), Pyrolite
pickles it, and the worker unpickles it and, for the types that need it, applies the Spark
type's ``fromInternal``. Each reader here makes the unpickled ("internal") values from an
Arrow column as rowbridge's decoder writes it, and :func:`column_reader` then applies PySpark's
own ``fromInternal``, so dates, timestamps, intervals and rows come from PySpark's code, as on
the pickled path:

- booleans, integers, floats, strings: the values (a float32 reaches Python as the double of
  the same value); a string of invalid UTF-8 decodes as Java's ``String`` constructor does,
  with replacement characters;
- binary: ``bytes`` where ``spark.sql.execution.pyspark.binaryAsBytes`` is true, else
  ``bytearray``;
- decimals: ``Decimal`` of ``BigDecimal.toEngineeringString`` (Pyrolite's form; Arrow's decimal
  text is ``toString``'s, which differs only below 1E-6, where the exponent is made a multiple
  of three);
- dates, timestamps, day-time intervals, times: the int days, microseconds or nanoseconds;
- structs: tuples; arrays: lists; maps: dicts whose entries follow the order of the
  ``java.util.HashMap`` the JVM fills (:mod:`._java_hash`).
"""

import decimal

import pyarrow as pa
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
    NullType,
    ShortType,
    StringType,
    StructType,
    TimestampNTZType,
    TimestampType,
)

from rowbridge.spark.udf import _java_hash

try:  # Spark 4.1 and later
    from pyspark.sql.types import TimeType
except ImportError:  # pragma: no cover - older lines have no TimeType
    TimeType = None

_PLAIN = (BooleanType, ByteType, ShortType, IntegerType, LongType, FloatType, DoubleType)
_MICROS = (TimestampType, TimestampNTZType, DayTimeIntervalType)


class UnsupportedInput(Exception):
    """A Spark type whose pickled values rowbridge does not reproduce."""


def column_reader(data_type, binary_as_bytes):
    """A function from an Arrow array of ``data_type``'s values to the list of Python values
    the pickled path hands a UDF."""
    read = _internal_reader(data_type, binary_as_bytes)
    if not data_type.needConversion():
        return read
    from_internal = data_type.fromInternal

    def read_converted(array):
        return [None if v is None else from_internal(v) for v in read(array)]

    return read_converted


def _internal_reader(data_type, binary_as_bytes):
    if isinstance(data_type, _PLAIN):
        return _to_pylist
    if isinstance(data_type, StringType):
        return _strings
    if isinstance(data_type, BinaryType):
        return _to_pylist if binary_as_bytes else _bytearrays
    if isinstance(data_type, DecimalType):
        return _to_pylist if data_type.scale <= 6 else _small_decimals
    if isinstance(data_type, DateType):
        return _as_int(pa.int32())
    if isinstance(data_type, _MICROS) or (TimeType is not None and isinstance(data_type, TimeType)):
        return _as_int(pa.int64())
    if isinstance(data_type, NullType):
        return lambda array: [None] * len(array)
    if isinstance(data_type, ArrayType):
        return _list_reader(_internal_reader(data_type.elementType, binary_as_bytes))
    if isinstance(data_type, MapType):
        return _map_reader(data_type, binary_as_bytes)
    if isinstance(data_type, StructType):
        readers = [_internal_reader(f.dataType, binary_as_bytes) for f in data_type.fields]
        return _struct_reader(readers)
    raise UnsupportedInput("an argument of type %s" % data_type.simpleString())


def _to_pylist(array):
    return array.to_pylist()


def _strings(array):
    try:
        return array.to_pylist()
    except UnicodeDecodeError:
        binary = pa.large_binary() if pa.types.is_large_string(array.type) else pa.binary()
        return [
            None if v is None else v.decode("utf-8", "replace")
            for v in array.view(binary).to_pylist()
        ]


def _small_decimals(array):
    return [
        v if v is None or v.adjusted() >= -6 else decimal.Decimal(_engineering(v))
        for v in array.to_pylist()
    ]


def _engineering(value):
    """``BigDecimal.toEngineeringString`` of a value in scientific notation (adjusted exponent
    below -6)."""
    sign, digits, exponent = value.as_tuple()
    coefficient = "".join(map(str, digits))
    adjusted = exponent + len(coefficient) - 1
    significant = adjusted % 3
    adjusted -= significant
    significant += 1
    if not any(digits):
        text = ("0", "0.00", "0.0")[significant - 1]
        if significant > 1:
            adjusted += 3
    elif significant >= len(coefficient):
        text = coefficient + "0" * (significant - len(coefficient))
    else:
        text = coefficient[:significant] + "." + coefficient[significant:]
    if adjusted:
        text += "E%+d" % adjusted
    return ("-" if sign and any(digits) else "") + text


def _bytearrays(array):
    return [None if v is None else bytearray(v) for v in array.to_pylist()]


def _as_int(int_type):
    def read(array):
        return array.cast(int_type).to_pylist()

    return read


def _validity(array):
    if array.null_count == 0:
        return None
    return array.is_valid().to_pylist()


def _list_reader(read_element):
    def read(array):
        offsets = array.offsets.to_pylist()
        elements = read_element(array.values)
        valid = _validity(array)
        return [
            elements[offsets[i] : offsets[i + 1]] if valid is None or valid[i] else None
            for i in range(len(array))
        ]

    return read


def _struct_reader(readers):
    def read(array):
        children = [reader(child) for reader, child in zip(readers, array.flatten())]
        valid = _validity(array)
        rows = list(zip(*children)) if children else [()] * len(array)
        if valid is None:
            return rows
        return [row if ok else None for row, ok in zip(rows, valid)]

    return read


def _map_reader(data_type, binary_as_bytes):
    read_key = _internal_reader(data_type.keyType, binary_as_bytes)
    read_value = _internal_reader(data_type.valueType, binary_as_bytes)
    java_key = _java_key(data_type.keyType)

    def read(array):
        offsets = array.offsets.to_pylist()
        keys = read_key(array.keys)
        values = read_value(array.items)
        valid = _validity(array)
        maps = []
        for i in range(len(array)):
            if valid is not None and not valid[i]:
                maps.append(None)
                continue
            start, end = offsets[i], offsets[i + 1]
            entry_keys = keys[start:end]
            hashes, equality, order = java_key(entry_keys)
            entries = {}
            # EvaluatePython.toJava fills new HashMap(numElements); the dict follows its order.
            for first, last in _java_hash.hash_map_order(hashes, equality, end - start, order):
                entries[entry_keys[first]] = values[start + last]
            maps.append(entries)
        return maps

    return read


def _java_key(key_type):
    """Hashes, equality keys and order keys (a list, or a function making it only when a
    HashMap bucket becomes a tree) of a map's internal keys, as the JVM's Java objects have
    them (:mod:`._java_hash`). A map's keys are of one class: they order by ``compareTo``."""
    if isinstance(key_type, (ByteType, ShortType, IntegerType, DateType)):
        return lambda keys: ([_java_hash.integer_hash(k) for k in keys], keys, keys)
    if isinstance(key_type, (LongType,) + _MICROS) or (
        TimeType is not None and isinstance(key_type, TimeType)
    ):
        return lambda keys: ([_java_hash.long_hash(k) for k in keys], keys, keys)
    if isinstance(key_type, BooleanType):
        return lambda keys: ([_java_hash.boolean_hash(k) for k in keys], keys, keys)
    if isinstance(key_type, StringType):
        return lambda keys: (
            [_java_hash.string_hash(k) for k in keys],
            keys,
            lambda: [_java_hash.string_order(k) for k in keys],
        )
    if isinstance(key_type, DoubleType):
        return lambda keys: (
            [_java_hash.double_hash(k) for k in keys],
            [_float_bits(k) for k in keys],
            lambda: [_java_hash.double_order(k) for k in keys],
        )
    if isinstance(key_type, FloatType):
        return lambda keys: (
            [_java_hash.float_hash(k) for k in keys],
            [_float_bits(k) for k in keys],
            lambda: [_java_hash.double_order(k) for k in keys],
        )
    if isinstance(key_type, DecimalType):
        scale = key_type.scale

        def decimal_keys(keys):
            # BigDecimals of one scale compare as their unscaled values.
            unscaled = [int(k.scaleb(scale, context=_WIDE)) for k in keys]
            return [_java_hash.big_decimal_hash(u, scale) for u in unscaled], unscaled, unscaled

        return decimal_keys
    raise UnsupportedInput("a map argument with %s keys" % key_type.simpleString())


_WIDE = decimal.Context(prec=100)


def _float_bits(value):
    """Java's ``Double.equals``: equal bits, every NaN equal to every other."""
    if value != value:
        return "NaN"
    return (value, str(value)[0] == "-")
