"""Plain UDF results to Arrow, with the answers of Spark's pickled path.

On that path the worker pickles each result (after the return type's ``toInternal``), Pyrolite
unpickles it into a Java object, and ``EvaluatePython.makeFromJava`` turns that object into
Spark's value: the value itself when the object has the type the return type expects, a
conversion for some others (an ``int`` of a larger Java type is narrowed, a ``str`` becomes
UTF-8 bytes for ``binary``), null for the rest, and errors for a few (a decimal beyond its
precision, a tuple of the wrong length for a struct).

A :class:`ResultWriter` writes each *regular* result, one whose Java object ``makeFromJava``
keeps as it is, into an Arrow column of the return type. Every other result is pickled with
PySpark's own serializer into a second, binary column, and the JVM converts it with Spark's own
``Unpickler`` and ``makeFromJava``: whatever that path does with it (a conversion, a null, an
error) happens here too.
"""

import decimal

import pyarrow as pa
from pyspark.serializers import CPickleSerializer
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

_IRREGULAR = object()
_NONE = type(None)
_INT_RANGES = {
    ByteType: (-(1 << 7), (1 << 7) - 1, pa.int8()),
    ShortType: (-(1 << 15), (1 << 15) - 1, pa.int16()),
    IntegerType: (-(1 << 31), (1 << 31) - 1, pa.int32()),
    LongType: (-(1 << 63), (1 << 63) - 1, pa.int64()),
    DateType: (-(1 << 31), (1 << 31) - 1, pa.date32()),
}
_MICROS = {
    TimestampType: pa.timestamp("us", tz="UTC"),
    TimestampNTZType: pa.timestamp("us"),
    DayTimeIntervalType: pa.duration("us"),
}
_WIDE = decimal.Context(prec=200)
_INT64 = (-(1 << 63), (1 << 63) - 1)
_INT32 = (-(1 << 31), (1 << 31) - 1)


class UnsupportedResult(Exception):
    """A return type whose Arrow form rowbridge does not write."""


class ResultWriter:
    """Writes one UDF's results (after ``toInternal``) as an Arrow column of its return type,
    and the pickled form of every irregular one as a binary column (None where none is)."""

    def __init__(self, data_type, java_feature):
        self.arrow_type, self._normalize, self._fast_kinds = _plan(data_type, java_feature)
        self._dumps = CPickleSerializer().dumps

    def __call__(self, results):
        if self._fast_kinds is not None and set(map(type, results)) <= self._fast_kinds:
            try:
                return pa.array(results, type=self.arrow_type), None
            except (OverflowError, pa.ArrowInvalid, pa.ArrowTypeError, UnicodeError):
                pass  # some value is out of range or not encodable: value by value
        values = []
        pickled = None
        normalize = self._normalize
        for i, result in enumerate(results):
            value = None if result is None else normalize(result)
            if value is _IRREGULAR:
                if pickled is None:
                    pickled = [None] * len(results)
                pickled[i] = self._dumps(result)
                value = None
            values.append(value)
        array = pa.array(values, type=self.arrow_type)
        return array, None if pickled is None else pa.array(pickled, type=pa.binary())


def _plan(data_type, java_feature):
    """(Arrow type, normalizer, kinds of the all-regular fast path or None)."""
    for spark_type, (low, high, arrow_type) in _INT_RANGES.items():
        if type(data_type) is spark_type:
            return arrow_type, _integer(low, high), {int, _NONE}
    for spark_type, arrow_type in _MICROS.items():
        if isinstance(data_type, spark_type):
            return arrow_type, _integer(*_INT64), {int, _NONE}
    if isinstance(data_type, BooleanType):
        return pa.bool_(), _exact(bool), {bool, _NONE}
    if isinstance(data_type, FloatType):
        return pa.float32(), _exact(float), {float, _NONE}
    if isinstance(data_type, DoubleType):
        return pa.float64(), _exact(float), {float, _NONE}
    if isinstance(data_type, StringType):
        return pa.string(), _string, {str, _NONE}
    if isinstance(data_type, BinaryType):
        return pa.binary(), _exact(bytes), {bytes, _NONE}
    if isinstance(data_type, DecimalType):
        # pyarrow takes a Decimal only where rescaling it loses nothing and it fits the precision,
        # where half-up rounding is the identity: the fast path is exact, the rest rounds here.
        arrow_type = pa.decimal128(data_type.precision, data_type.scale)
        fast = {decimal.Decimal, _NONE}
        return arrow_type, _decimal(data_type.precision, data_type.scale), fast
    if isinstance(data_type, NullType):
        return pa.null(), lambda value: _IRREGULAR, None
    if isinstance(data_type, ArrayType):
        element_type, element, _ = _plan(data_type.elementType, java_feature)
        return pa.list_(element_type), _array(element), None
    if isinstance(data_type, MapType):
        key_type, key, _ = _plan(data_type.keyType, java_feature)
        value_type, value, _ = _plan(data_type.valueType, java_feature)
        return pa.map_(key_type, value_type), _map(key, value, java_feature), None
    if isinstance(data_type, StructType):
        plans = [_plan(f.dataType, java_feature) for f in data_type.fields]
        arrow_type = pa.struct([pa.field(f.name, p[0]) for f, p in zip(data_type.fields, plans)])
        return arrow_type, _struct([p[1] for p in plans]), None
    raise UnsupportedResult("a return type of %s" % data_type.simpleString())


def _exact(kind):
    def normalize(value):
        return value if type(value) is kind else _IRREGULAR

    return normalize


def _integer(low, high):
    # Pyrolite makes an int an Integer, a Long or a BigInteger; makeFromJava keeps an Integer or
    # a Long that fits the type, and narrows or drops anything else.
    def normalize(value):
        return value if type(value) is int and low <= value <= high else _IRREGULAR

    return normalize


def _string(value):
    if type(value) is not str:
        return _IRREGULAR
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return _IRREGULAR  # lone surrogates: Java's own encoding decides
    return value


def _decimal(precision, scale):
    # makeFromJava: Decimal(BigDecimal, p, s) rounds half up to the scale, then fails when the
    # result has more digits than the precision; the failures and non-finite values are left
    # to it.
    quantum = decimal.Decimal(1).scaleb(-scale)

    def normalize(value):
        if type(value) is not decimal.Decimal or not value.is_finite():
            return _IRREGULAR
        rounded = value.quantize(quantum, rounding=decimal.ROUND_HALF_UP, context=_WIDE)
        digits = len(rounded.as_tuple().digits)
        return rounded if digits <= precision else _IRREGULAR

    return normalize


def _array(element):
    def normalize(value):
        if type(value) is not list and type(value) is not tuple:
            return _IRREGULAR
        out = [None if v is None else element(v) for v in value]
        return _IRREGULAR if any(v is _IRREGULAR for v in out) else out

    return normalize


def _struct(fields):
    def normalize(value):
        if type(value) is not tuple or len(value) != len(fields):
            return _IRREGULAR
        out = tuple(None if v is None else f(v) for f, v in zip(fields, value))
        return _IRREGULAR if any(v is _IRREGULAR for v in out) else out

    return normalize


def _map(key, value, java_feature):
    # The map's entries follow the HashMap Pyrolite unpickles the dict into
    # (_java_hash.pyrolite_dict_order).
    def normalize(mapping):
        if type(mapping) is not dict:
            return _IRREGULAR
        keys = list(mapping)
        hashes = []
        for k in keys:
            h = _pyrolite_key_hash(k)
            if h is None:
                return _IRREGULAR
            hashes.append(h)
        try:
            order = _java_hash.pyrolite_dict_order(
                hashes, java_feature, lambda: [_pyrolite_order_key(k) for k in keys]
            )
        except _java_hash.UnorderedMap:
            return _IRREGULAR
        entries = []
        for position in order:
            k = keys[position]
            v = mapping[k]
            nk = key(k)
            nv = None if v is None else value(v)
            if nk is _IRREGULAR or nv is _IRREGULAR:
                return _IRREGULAR
            entries.append((nk, nv))
        return entries

    return normalize


def _pyrolite_key_hash(key):
    """The hash code of the Java object Pyrolite unpickles ``key`` into, or None."""
    kind = type(key)
    if kind is int:
        if _INT32[0] <= key <= _INT32[1]:
            return _java_hash.integer_hash(key)
        if _INT64[0] <= key <= _INT64[1]:
            return _java_hash.long_hash(key)
        return None
    if kind is str:
        return _java_hash.string_hash(key)
    if kind is float:
        return None if key != key else _java_hash.double_hash(key)  # NaN keys: Java merges them
    if kind is bool:
        return _java_hash.boolean_hash(key)
    return None


def _pyrolite_order_key(key):
    """The order key (class name, order in the class) of a key _pyrolite_key_hash hashes."""
    kind = type(key)
    if kind is int:
        return ("java.lang.Integer" if _INT32[0] <= key <= _INT32[1] else "java.lang.Long", key)
    if kind is str:
        return ("java.lang.String", _java_hash.string_order(key))
    if kind is float:
        return ("java.lang.Double", _java_hash.double_order(key))
    return ("java.lang.Boolean", key)
