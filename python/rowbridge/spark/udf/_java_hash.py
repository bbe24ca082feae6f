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


class JavaHashMap:
    """The table of a ``java.util.HashMap`` of distinct keys, known by their hash codes: what
    its puts, resizes and ``putAll`` pre-sizing do to the order of its entries."""

    def __init__(self, initial_capacity=None):
        self._buckets = None
        self._threshold = 0 if initial_capacity is None else _table_size_for(initial_capacity)
        self._size = 0

    def put(self, h, item):
        """Puts a new key (hash code ``h``) standing for ``item``."""
        if self._buckets is None:
            self._resize()
        spread = _spread(h)
        bucket = self._buckets[spread & (len(self._buckets) - 1)]
        bucket.append((spread, item))
        if len(bucket) > _TREEIFY_THRESHOLD:
            if len(self._buckets) >= _MIN_TREEIFY_CAPACITY:
                raise UnorderedMap(
                    "a map whose keys collide in one HashMap bucket of %d (a tree bin)"
                    % len(self._buckets)
                )
            self._resize()
        self._size += 1
        if self._size > self._threshold:
            self._resize()

    def put_all(self, entries, java_feature):
        """``putAll`` of a map whose entries, in its order, are (hash code, item) pairs."""
        count = len(entries)
        if count == 0:
            return
        if self._buckets is None:
            if java_feature >= 19:  # Math.ceil(s / loadFactor)
                wanted = -(-count * 4 // 3)
            else:  # (int) ((float) s / loadFactor + 1.0F)
                wanted = int(count / 0.75 + 1.0)
            if wanted > self._threshold:
                self._threshold = _table_size_for(wanted)
        else:
            while count > self._threshold and len(self._buckets) < _MAXIMUM_CAPACITY:
                self._resize()
        for h, item in entries:
            self.put(h, item)

    def entries(self):
        """(hash code's spread, item) pairs in iteration order."""
        if self._buckets is None:
            return []
        return [entry for bucket in self._buckets for entry in bucket]

    def _resize(self):
        """HashMap.resize: the first table, or each bucket split into a low and a high one."""
        if self._buckets is None:
            capacity = self._threshold if self._threshold > 0 else 16
            self._buckets = [[] for _ in range(capacity)]
            self._threshold = int(capacity * 0.75)
            return
        capacity = len(self._buckets)
        grown = [[] for _ in range(capacity << 1)]
        for index, bucket in enumerate(self._buckets):
            for entry in bucket:
                grown[index + capacity if entry[0] & capacity else index].append(entry)
        self._buckets = grown
        self._threshold = int(len(grown) * 0.75)


def hash_map_order(hashes, equality_keys, initial_capacity=None):
    """The positions of the distinct keys in a HashMap's iteration order.

    ``hashes[i]`` is the Java hash code of the i-th key put, ``equality_keys[i]`` a value equal
    for keys Java's ``equals`` finds equal (a later put of an equal key replaces the value but
    keeps the first key's place). ``initial_capacity`` is the HashMap constructor's argument,
    None for the no-argument constructor. Returns a list of (first position, last position):
    the key comes from the first put, the value from the last.
    """
    table = JavaHashMap(initial_capacity)
    where = {}
    for position, (h, key) in enumerate(zip(hashes, equality_keys)):
        found = where.get(key)
        if found is not None:
            found[1] = position
            continue
        entry = [position, position]
        where[key] = entry
        table.put(h, entry)
    return [tuple(entry) for _, entry in table.entries()]


# Python's pickler writes a dict of more than one item as SETITEMS batches of this many.
_PICKLE_BATCH = 1000


def pyrolite_dict_order(hashes, java_feature):
    """The positions of a pickled dict's keys (distinct, with these Java hash codes, in the
    dict's order) in the order of the HashMap Pyrolite unpickles it into: a new ``HashMap()``
    that each SETITEMS batch reaches through ``putAll`` of a ``HashMap`` filled with the batch's
    pairs from the last to the first. ``java_feature`` is the JVM's feature version (its
    ``putAll`` pre-sizing changed in 19)."""
    count = len(hashes)
    if count <= 1:
        return list(range(count))
    target = JavaHashMap()
    for start in range(0, count, _PICKLE_BATCH):
        batch = JavaHashMap()
        for position in range(min(start + _PICKLE_BATCH, count) - 1, start - 1, -1):
            batch.put(hashes[position], position)
        target.put_all([(hashes[p], p) for _, p in batch.entries()], java_feature)
    return [position for _, position in target.entries()]
