"""The iteration order of a ``java.util.HashMap``, for the keys of a map on the pickled path.

The pickled path hands a map argument to the UDF as a dict built in the order of the
``HashMap`` the JVM filled (``EvaluatePython.toJava``), and reads a returned dict back through
the ``HashMap`` Pyrolite fills, whose order becomes the map's entry order. Both orders depend
only on the keys' Java hash codes, the table size and the insertion order, which this module
reproduces: buckets in index order, each bucket's entries in insertion order, tables doubled
as ``HashMap.resize`` does. A bucket that ``HashMap`` would turn into a tree (nine colliding
keys in a table of 64 or more) orders its entries otherwise; :class:`UnorderedMap` is raised
then, and no order is guessed.
"""

import math
import struct

_MAXIMUM_CAPACITY = 1 << 30
_TREEIFY_THRESHOLD = 8
_MIN_TREEIFY_CAPACITY = 64


class UnorderedMap(Exception):
    """A map whose HashMap order this module does not reproduce (a treeified bucket)."""


def _int32(value):
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value & 0x80000000 else value


def integer_hash(value):
    """``Integer.hashCode`` (also Short, Byte: the value)."""
    return _int32(value)


def long_hash(value):
    """``Long.hashCode``: the two halves xor-ed."""
    bits = value & 0xFFFFFFFFFFFFFFFF
    return _int32(bits ^ (bits >> 32))


def boolean_hash(value):
    """``Boolean.hashCode``."""
    return 1231 if value else 1237


def double_hash(value):
    """``Double.hashCode`` of ``doubleToLongBits`` (NaN canonical)."""
    if math.isnan(value):
        bits = 0x7FF8000000000000
    else:
        bits = struct.unpack("<q", struct.pack("<d", value))[0]
    return long_hash(bits)


def float_hash(value):
    """``Float.hashCode`` of ``floatToIntBits`` (NaN canonical); the value is a float32's."""
    if math.isnan(value):
        return 0x7FC00000
    return struct.unpack("<i", struct.pack("<f", value))[0]


def string_hash(value):
    """``String.hashCode`` over the UTF-16 code units."""
    h = 0
    data = value.encode("utf-16-le", "surrogatepass")
    for i in range(0, len(data), 2):
        h = (31 * h + (data[i] | (data[i + 1] << 8))) & 0xFFFFFFFF
    return _int32(h)


def big_integer_hash(value):
    """``BigInteger.hashCode``: 31-polynomial over the magnitude's 32-bit words, times signum."""
    magnitude = abs(value)
    words = []
    while magnitude:
        words.append(magnitude & 0xFFFFFFFF)
        magnitude >>= 32
    h = 0
    for word in reversed(words):
        h = (31 * h + word) & 0xFFFFFFFF
    signum = (value > 0) - (value < 0)
    return _int32(_int32(h) * signum)


def big_decimal_hash(unscaled, scale):
    """``BigDecimal.hashCode``: 31 * the unscaled value's hash + the scale."""
    return _int32(31 * big_integer_hash(unscaled) + scale)


def _spread(h):
    h &= 0xFFFFFFFF
    return h ^ (h >> 16)


def _table_size_for(capacity):
    n = 1
    while n < capacity:
        n <<= 1
    return min(n, _MAXIMUM_CAPACITY)


def hash_map_order(hashes, equality_keys, initial_capacity=None):
    """The positions of the distinct keys in a HashMap's iteration order.

    ``hashes[i]`` is the Java hash code of the i-th key put, ``equality_keys[i]`` a value equal
    for keys Java's ``equals`` finds equal (a later put of an equal key replaces the value but
    keeps the first key's place). ``initial_capacity`` is the HashMap constructor's argument,
    None for the no-argument constructor. Returns a list of (first position, last position):
    the key comes from the first put, the value from the last.
    """
    if initial_capacity is None:
        capacity = 16
    else:
        capacity = _table_size_for(initial_capacity) if initial_capacity > 0 else 1
    buckets = [[] for _ in range(capacity)]
    threshold = int(capacity * 0.75)
    where = {}
    entries = []  # [hash, first position, last position]
    size = 0
    for position, (h, key) in enumerate(zip(hashes, equality_keys)):
        found = where.get(key)
        if found is not None:
            found[2] = position
            continue
        spread = _spread(h)
        entry = [spread, position, position]
        where[key] = entry
        entries.append(entry)
        bucket = buckets[spread & (capacity - 1)]
        bucket.append(entry)
        if len(bucket) > _TREEIFY_THRESHOLD:
            if capacity >= _MIN_TREEIFY_CAPACITY:
                raise UnorderedMap(
                    "a map whose keys collide in one HashMap bucket of %d (a tree bin)" % capacity
                )
            capacity, buckets = _resized(buckets, capacity)
            threshold = int(capacity * 0.75)
        size += 1
        if size > threshold:
            capacity, buckets = _resized(buckets, capacity)
            threshold = int(capacity * 0.75)
    return [(entry[1], entry[2]) for bucket in buckets for entry in bucket]


def _resized(buckets, capacity):
    """HashMap.resize: each bucket splits into a low and a high one, keeping its order."""
    doubled = capacity << 1
    grown = [[] for _ in range(doubled)]
    for index, bucket in enumerate(buckets):
        for entry in bucket:
            grown[index + capacity if entry[0] & capacity else index].append(entry)
    return doubled, grown
