"""The iteration order of a ``java.util.HashMap``, for the keys of a map on the pickled path.

The pickled path hands a map argument to the UDF as a dict built in the order of the
``HashMap`` the JVM filled (``EvaluatePython.toJava``), and reads a returned dict back through
the ``HashMap`` Pyrolite fills, whose order becomes the map's entry order. Both orders depend
on the keys' Java hash codes, the table size and the insertion order, which this module
reproduces: buckets in index order, each bucket's entries in insertion order, tables doubled
as ``HashMap.resize`` does.

A bucket that ``HashMap`` turns into a tree (nine colliding keys in a table of 64 or more)
orders its entries by the tree's operations instead, which also compare the keys themselves
where their hashes are equal (:mod:`._java_tree_bin`). For those the callers give each key an
*order key*: a value that Python's ``<`` orders as the tree orders keys of one hash, that is
as Java's ``compareTo`` among keys of one class (:func:`string_order`, :func:`double_order`;
ints, booleans and a decimal column's unscaled values as they are), and by class name between
classes (a pair (class name, value) where classes mix). Two distinct keys with equal order
keys would be ordered by ``System.identityHashCode``: :class:`UnorderedMap` is raised then,
and no order is guessed; so it is when a tree bin forms and no order keys were given.
"""

import math
import struct
from operator import itemgetter

# UnorderedMap, raised here and by the tree bins, is this module's to its callers.
from rowbridge.spark.udf._java_tree_bin import TreeBin, UnorderedMap

_MAXIMUM_CAPACITY = 1 << 30
_TREEIFY_THRESHOLD = 8
_MIN_TREEIFY_CAPACITY = 64


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


def string_order(value):
    """The order key of a ``String``: ``compareTo`` compares UTF-16 code units."""
    return value.encode("utf-16-be", "surrogatepass")


def double_order(value):
    """The order key of a ``Double`` or ``Float`` (a float32's value): ``compareTo`` puts
    -0.0 before 0.0 and NaN after everything."""
    if value != value:
        return (1,)
    return (0, value, math.copysign(1.0, value))


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
    its puts, resizes and ``putAll`` pre-sizing do to the order of its entries.

    A bucket is a list of (spread hash, item) entries, or once treeified a
    :class:`TreeBin`, which iterates as one. ``order_key(item)``, called only for the keys of
    tree bins, is the order key of the key ``item`` stands for; without it, a tree bin raises
    :class:`UnorderedMap`."""

    def __init__(self, initial_capacity=None, order_key=None):
        self._buckets = None
        self._threshold = 0 if initial_capacity is None else _table_size_for(initial_capacity)
        self._size = 0
        self._order_key = order_key
        self._trees = False

    def put(self, h, item):
        """Puts a new key (hash code ``h``) standing for ``item``."""
        if self._buckets is None:
            self._resize()
        spread = _spread(h)
        index = spread & (len(self._buckets) - 1)
        bucket = self._buckets[index]
        bucket.append((spread, item))  # a tree bin links it into its tree
        if len(bucket) > _TREEIFY_THRESHOLD:
            if len(self._buckets) < _MIN_TREEIFY_CAPACITY:
                self._resize()
            elif type(bucket) is list:
                self._buckets[index] = self._treeify(bucket)
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

    def _treeify(self, bucket):
        if self._order_key is None:
            raise UnorderedMap(
                "a map whose keys collide in one HashMap bucket of %d (a tree bin)"
                % len(self._buckets)
            )
        self._trees = True
        return TreeBin(bucket, self._order_key)

    def _resize(self):
        """HashMap.resize: the first table, or each bucket split into a low and a high one."""
        if self._buckets is None:
            capacity = self._threshold if self._threshold > 0 else 16
            self._buckets = [[] for _ in range(capacity)]
            self._threshold = int(capacity * 0.75)
            return
        capacity = len(self._buckets)
        grown = [[] for _ in range(capacity << 1)]
        if self._trees:
            self._trees = False
            for index, bucket in enumerate(self._buckets):
                if type(bucket) is list:
                    for entry in bucket:
                        grown[index + capacity if entry[0] & capacity else index].append(entry)
                else:
                    low, high = bucket.split(capacity)
                    grown[index], grown[index + capacity] = low, high
                    self._trees = self._trees or type(low) is not list or type(high) is not list
        else:
            for index, bucket in enumerate(self._buckets):
                for entry in bucket:
                    grown[index + capacity if entry[0] & capacity else index].append(entry)
        self._buckets = grown
        self._threshold = int(len(grown) * 0.75)


def _lazy_order_key(order_keys, position):
    """The ``order_key`` function of a :class:`JavaHashMap` whose items are at ``position(item)``
    in ``order_keys``, a sequence or a function returning one, called when first needed."""
    if order_keys is None:
        return None
    resolved = []

    def order_key(item):
        if not resolved:
            resolved.append(order_keys() if callable(order_keys) else order_keys)
        return resolved[0][position(item)]

    return order_key


def hash_map_order(hashes, equality_keys, initial_capacity=None, order_keys=None):
    """The positions of the distinct keys in a HashMap's iteration order.

    ``hashes[i]`` is the Java hash code of the i-th key put, ``equality_keys[i]`` a value equal
    for keys Java's ``equals`` finds equal (a later put of an equal key replaces the value but
    keeps the first key's place), ``order_keys[i]`` its order key (``order_keys`` may be a
    function returning that sequence: it is called only if a bucket becomes a tree).
    ``initial_capacity`` is the HashMap constructor's argument, None for the no-argument
    constructor. Returns a list of (first position, last position): the key comes from the
    first put, the value from the last.
    """
    table = JavaHashMap(initial_capacity, _lazy_order_key(order_keys, itemgetter(0)))
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


def _position(item):
    return item


def pyrolite_dict_order(hashes, java_feature, order_keys=None):
    """The positions of a pickled dict's keys (distinct, with these Java hash codes, in the
    dict's order) in the order of the HashMap Pyrolite unpickles it into: a new ``HashMap()``
    that each SETITEMS batch reaches through ``putAll`` of a ``HashMap`` filled with the batch's
    pairs from the last to the first. ``java_feature`` is the JVM's feature version (its
    ``putAll`` pre-sizing changed in 19). ``order_keys`` are the keys' order keys, as
    :func:`hash_map_order` takes them; Pyrolite's keys are of several classes (an ``int`` is an
    ``Integer`` or a ``Long``), so each is a pair (Java class name, order key in the class)."""
    count = len(hashes)
    if count <= 1:
        return list(range(count))
    order_key = _lazy_order_key(order_keys, _position)
    target = JavaHashMap(order_key=order_key)
    for start in range(0, count, _PICKLE_BATCH):
        batch = JavaHashMap(order_key=order_key)
        for position in range(min(start + _PICKLE_BATCH, count) - 1, start - 1, -1):
            batch.put(hashes[position], position)
        target.put_all([(hashes[p], p) for _, p in batch.entries()], java_feature)
    return [position for _, position in target.entries()]
