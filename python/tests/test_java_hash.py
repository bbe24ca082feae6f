"""The ``java.util.HashMap`` order rowbridge's plain UDFs reproduce (rowbridge.spark.udf's
_java_hash), against real HashMaps: java_hash_oracle/HashMapOrder.java, run on this JDK, fills
them with the same keys and prints their iteration order, which must be the same, entry for
entry.

The keys are random but made to collide: many in one bucket of tables of 64 buckets or more
(tree bins, split again as the table grows), many with one and the same hash (which the tree
orders by ``compareTo``, or by class name between Pyrolite's Integer, Long, Double, String and
Boolean keys), among plain filler keys, in maps of up to a few thousand keys. Every random choice comes from one
seed, ROWBRIDGE_TEST_SEED when set, printed in every assertion message. No Spark here: a JVM
started once for all the cases.
"""

import decimal
import math
import os
import random
import shutil
import struct
import subprocess
import sys

import pytest
from pyspark.sql.types import (
    DecimalType,
    DoubleType,
    FloatType,
    IntegerType,
    LongType,
    StringType,
)

from conftest import SOURCES

if SOURCES not in sys.path:
    sys.path.insert(0, SOURCES)

from rowbridge.spark.udf import _inputs, _java_hash, _results  # noqa: E402

ORACLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "java_hash_oracle")
MASK = 0xFFFFFFFF
SCALE = 3  # the decimal column's


def _seed():
    text = os.environ.get("ROWBRIDGE_TEST_SEED", "").strip()
    return int(text) if text else random.SystemRandom().randrange(1 << 32)


SEED = _seed()
print(f"java hash suite: ROWBRIDGE_TEST_SEED={SEED}")


def _rng(name):
    return random.Random(f"{SEED}/java_hash/{name}")


def _spread(h):
    h &= MASK
    return h ^ (h >> 16)


# ---------------------------------------------------------------------------------------------
# Keys of each kind: a random one, its hash and its token for the oracle.


def _utf16(value):
    return value.encode("utf-16-be", "surrogatepass")


def _string_of_units(units):
    """The string of these UTF-16 code units, or None where they are not valid UTF-16 (Arrow's
    strings, UTF-8, cannot hold lone surrogates)."""
    try:
        return struct.pack(">%dH" % len(units), *units).decode("utf-16-be")
    except UnicodeDecodeError:
        return None


def _random_string(r):
    chars = []
    for _ in range(r.randint(0, 8)):
        pick = r.random()
        if pick < 0.55:
            chars.append(chr(r.randint(0x20, 0x7E)))
        elif pick < 0.7:
            chars.append(chr(r.randint(0xA0, 0x7FF)))
        elif pick < 0.8:
            chars.append(chr(r.randint(0x800, 0xD7FF)))
        elif pick < 0.9:
            chars.append(chr(r.randint(0xE000, 0xFFFD)))
        else:
            chars.append(chr(r.randint(0x10000, 0x10FFFF)))
    return "".join(chars)


def _random_int(r):
    return r.randint(-(1 << 31), (1 << 31) - 1)


def _random_long(r):
    return r.randint(-(1 << 63), (1 << 63) - 1)


def _double_of_bits(bits):
    return struct.unpack(">d", struct.pack(">Q", bits & 0xFFFFFFFFFFFFFFFF))[0]


def _random_double(r):
    while True:
        value = _double_of_bits(r.getrandbits(64)) if r.random() < 0.7 else r.uniform(-1e3, 1e3)
        if value == value:
            return value


def _random_float(r):
    while True:
        value = struct.unpack(">f", struct.pack(">I", r.getrandbits(32)))[0]
        if value == value:
            return value


def _random_unscaled(r):
    return r.randint(-(10**18), 10**18) if r.random() < 0.7 else r.randint(-9999, 9999)


def _decimal(unscaled):
    return decimal.Decimal(unscaled).scaleb(-SCALE)


def _token(value):
    """The oracle's form of a key (Pyrolite's classes for Python's ints)."""
    kind = type(value)
    if kind is str:
        return "s" + _utf16(value).hex()
    if kind is bool:
        return "z1" if value else "z0"
    if kind is int:
        return ("i%d" if -(1 << 31) <= value < (1 << 31) else "l%d") % value
    if kind is float:
        return "d%016x" % struct.unpack(">Q", struct.pack(">d", value))[0]
    raise TypeError(kind)


def _flipped(random_key, hash_of, flip):
    """A maker of keys whose spread hash has the given low bits: a random key, ``flip``-ed by
    the bits to change (they change the same bits of the hash)."""

    def mate(r, mask, target):
        while True:
            key = random_key(r)
            key = flip(key, (_spread(hash_of(key)) ^ target) & mask)
            if key == key:  # not NaN
                return key

    return mate


def _string_mate(r, mask, target):
    """A string whose spread hash has the given low bits: a random one, then two units a, b,
    b chosen to make the hash's low 16 bits (no carry into the high ones) what the bits need."""
    while True:
        a = r.choice([r.randint(0x20, 0x7E), r.randint(0xA0, 0xD7FF), r.randint(0xE000, 0xFFFD)])
        head = _random_string(r)
        h = (961 * _java_hash.string_hash(head) + 31 * a) & MASK
        low, high = h & 0xFFFF, h >> 16
        wanted = (r.getrandbits(16) & ~mask) | ((target ^ high) & mask)
        b = wanted - low
        if 0 <= b and not 0xD800 <= b <= 0xDFFF:
            return head + chr(a) + chr(b)


def _searched(random_key, hash_of):
    """A maker of keys whose spread hash has the given low bits (up to 8): random keys tried."""

    def mate(r, mask, target):
        mask &= 0xFF
        while True:
            key = random_key(r)
            if _spread(hash_of(key)) & mask == target & mask:
                return key

    return mate


def _double_bits(value):
    return struct.unpack(">Q", struct.pack(">d", value))[0]


def _float_of_bits(bits):
    return struct.unpack(">f", struct.pack(">I", bits & MASK))[0]


class _Kind:
    """A map key type: a random key, a key whose spread hash has given low bits, the key's
    Java hash and the oracle's token."""

    def __init__(self, name, data_type, random_key, mate, java_hash, token):
        self.name = name
        self.data_type = data_type
        self.random_key = random_key
        self.mate = mate
        self.hash = java_hash
        self.token = token


def _long_token(value):
    return "l%d" % value


def _float_token(value):
    return "f%08x" % struct.unpack(">I", struct.pack(">f", value))[0]


def _decimal_token(value):
    return "b%d:%d" % (int(value.scaleb(SCALE)), SCALE)


def _decimal_hash(value):
    return _java_hash.big_decimal_hash(int(value.scaleb(SCALE)), SCALE)


def _random_decimal(r):
    return _decimal(_random_unscaled(r))


KINDS = {
    "string": _Kind(
        "string", StringType(), _random_string, _string_mate, _java_hash.string_hash, _token
    ),
    "int": _Kind(
        "int",
        IntegerType(),
        _random_int,
        _flipped(_random_int, _java_hash.integer_hash, lambda v, bits: v ^ bits),
        _java_hash.integer_hash,
        _token,
    ),
    "long": _Kind(
        "long",
        LongType(),
        _random_long,
        _flipped(_random_long, _java_hash.long_hash, lambda v, bits: v ^ bits),
        _java_hash.long_hash,
        _long_token,
    ),
    "double": _Kind(
        "double",
        DoubleType(),
        _random_double,
        _flipped(
            _random_double,
            _java_hash.double_hash,
            lambda v, bits: _double_of_bits(_double_bits(v) ^ bits),
        ),
        _java_hash.double_hash,
        _token,
    ),
    "float": _Kind(
        "float",
        FloatType(),
        _random_float,
        _flipped(
            _random_float,
            _java_hash.float_hash,
            lambda v, bits: _float_of_bits(struct.unpack(">I", struct.pack(">f", v))[0] ^ bits),
        ),
        _java_hash.float_hash,
        _float_token,
    ),
    "decimal": _Kind(
        "decimal",
        DecimalType(38, SCALE),
        _random_decimal,
        _searched(_random_decimal, _decimal_hash),
        _decimal_hash,
        _decimal_token,
    ),
}


# ---------------------------------------------------------------------------------------------
# Colliding keys.


def _bucket_mates(r, kind, bits, count):
    """``count`` distinct keys whose spread hashes agree on their low ``bits`` bits: one bucket
    of every table up to 2**bits buckets (the decimals' up to 256)."""
    mask = (1 << bits) - 1
    target = r.getrandbits(bits)
    found = {}
    while len(found) < count:
        found[kind.mate(r, mask, target)] = None
    return list(found)


def _table_bits(keys):
    """The bits of the index of the table a HashMap of this many keys ends with."""
    return max(4, math.ceil(math.log2(max(keys, 1) / 0.75)))


def _same_hash_strings(r, count):
    """Distinct strings of one hash: a random string's variants, each with some pairs of
    neighbouring code units (a, b) made (a + k, b - 31 k), which keeps the hash."""
    while True:
        data = _utf16(_random_string(r) + _random_string(r) + "xy")
        units = list(struct.unpack(">%dH" % (len(data) // 2), data))
        if len(units) >= 2:
            break
    found = {_string_of_units(units): None}
    for _ in range(count * 20):
        if len(found) >= count:
            break
        variant = list(units)
        for _ in range(r.randint(1, 3)):
            i = r.randrange(len(variant) - 1)
            k = r.randint(-40, 40) if r.random() < 0.7 else r.randint(-2100, 2100)
            a, b = variant[i] + k, variant[i + 1] - 31 * k
            if 0 <= a <= 0xFFFF and 0 <= b <= 0xFFFF:
                variant[i], variant[i + 1] = a, b
        text = _string_of_units(variant)
        if text is not None:
            found[text] = None
    return list(found)


def _surrogate_strings(r, count):
    """Distinct strings of one hash, some with U+10FFFF (units DBFF DFFF) and some with
    U+E000..U+E338 where it stood (E000 + j, 63E0 - 31 j): String.compareTo puts the first
    before the second, code point order after."""
    blocks = [chr(0x10FFFF)] + [chr(0xE000 + j) + chr(0x63E0 - 31 * j) for j in range(0, 824)]
    prefix, suffix = _random_string(r), _random_string(r)
    found = {}
    while len(found) < count:
        middle = "".join(r.choice(blocks[:3] if r.random() < 0.3 else blocks) for _ in range(2))
        found[prefix + middle + suffix] = None
    return list(found)


def _same_hash_longs(r, count, target=None):
    """Distinct longs (beyond the int range) whose Long.hashCode is ``target``."""
    target = _random_int(r) if target is None else target
    found = {}
    while len(found) < count:
        high = r.choice([r.randint(1, (1 << 31) - 1), r.randint(-(1 << 31), -2), r.randint(1, 9)])
        found[(high << 32) | ((target ^ high) & MASK)] = None
    return list(found)


def _same_hash_doubles(r, count, target=None):
    """Distinct doubles, not NaN, whose Double.hashCode is ``target``."""
    target = _random_int(r) if target is None else target
    found = {}
    while len(found) < count:
        high = r.getrandbits(32) if r.random() < 0.8 else r.choice([0, 0x80000000, 0x3FF00000])
        value = _double_of_bits((high << 32) | ((target ^ high) & MASK))
        if value == value:
            found[value] = None
    return list(found)


def _same_hash_decimals(r, count):
    """Distinct decimals whose BigDecimal.hashCode is one: unscaled values of one BigInteger
    hash (31 w1 + w0 over two 32-bit words), some negative (their magnitude's hash negated)."""
    target = r.getrandbits(32)
    found = {}
    while len(found) < count:
        high = r.randint(1, 1 << 30)
        if r.random() < 0.3:
            found[-((high << 32) | ((-target - 31 * high) & MASK))] = None
        else:
            found[(high << 32) | ((target - 31 * high) & MASK)] = None
    assert len({_java_hash.big_integer_hash(u) for u in found}) == 1
    return [_decimal(u) for u in found]


def _input_keys(r, kind):
    """A map's keys: a few colliding groups among filler keys, shuffled, some put twice."""
    fill = r.choice([0, 20, r.randint(0, 3000)])
    groups = r.randint(1, 4)
    table_bits = _table_bits(fill + 100 * groups)
    keys = []
    for _ in range(groups):
        count = r.choice([9, 12, 20, r.randint(9, 80), r.randint(40, 300)])
        pick = r.random()
        if kind.name == "string" and pick < 0.3:
            keys += _same_hash_strings(r, count)
        elif kind.name == "string" and pick < 0.6:
            keys += _surrogate_strings(r, count)
        elif kind.name == "long" and pick < 0.4:
            keys += _same_hash_longs(r, count)
        elif kind.name == "double" and pick < 0.4:
            keys += _same_hash_doubles(r, count)
        elif kind.name == "decimal" and pick < 0.4:
            keys += _same_hash_decimals(r, count)
        else:
            bits = r.choice([6, 7, 8, table_bits, table_bits + 1])
            keys += _bucket_mates(r, kind, bits, min(count, 60))
    if kind.name == "string":
        keys += _surrogate_strings(r, r.randint(9, 60))
    keys += [kind.random_key(r) for _ in range(fill)]
    if kind.name in ("double", "float"):
        keys += [0.0, -0.0, math.inf, -math.inf]
        if r.random() < 0.5:
            keys.append(math.nan)
    r.shuffle(keys)
    if r.random() < 0.5:
        keys += [r.choice(keys) for _ in range(len(keys) // 10)]
        r.shuffle(keys)
    return keys


def _pyrolite_keys(r):
    """A returned dict's keys: ints (Integer or Long), strings, doubles and booleans, with a
    group of one hash across the classes, distinct as a dict's keys are."""
    fill = r.choice([0, 30, r.randint(0, 2500)])
    table_bits = _table_bits(fill + 120)
    keys = []
    for _ in range(r.randint(1, 3)):
        anchor = _random_string(r) + "ab"
        target = r.choice([_java_hash.string_hash(anchor), 1231, 1237, _random_int(r)])
        keys.append(target)
        if target in (1231, 1237):
            keys.append(target == 1231)  # Boolean.hashCode
        keys += _same_hash_longs(r, r.randint(2, 40), target)
        keys += _same_hash_doubles(r, r.randint(0, 20), target)
        if target == _java_hash.string_hash(anchor):
            keys += _same_hash_strings_of(r, anchor, r.randint(0, 20))
        for kind in ("int", "long", "string"):
            bits = r.choice([6, 7, table_bits])
            keys += _bucket_mates(r, KINDS[kind], bits, r.randint(9, 20))
    for _ in range(fill):
        keys.append(r.choice([_random_int, _random_long, _random_string, _random_double])(r))
    r.shuffle(keys)
    return list(dict.fromkeys(keys))


def _same_hash_strings_of(r, anchor, count):
    """Strings of ``anchor``'s hash: its last two units (a, b) made (a + k, b - 31 k)."""
    data = _utf16(anchor)
    units = list(struct.unpack(">%dH" % (len(data) // 2), data))
    found = {}
    for _ in range(count * 10):
        if len(found) >= count:
            break
        k = r.randint(-40, 40)
        a, b = units[-2] + k, units[-1] - 31 * k
        if 0 <= a <= 0xFFFF and 0 <= b <= 0xFFFF:
            text = _string_of_units(units[:-2] + [a, b])
            if text is not None:
                found[text] = None
    return list(found)


# ---------------------------------------------------------------------------------------------
# The cases, and the oracle run once for all of them.

INPUT_CASES = [(kind, mode, i) for kind in KINDS for mode in ("sized", "default") for i in range(3)]
PYROLITE_CASES = list(range(8))


def _java():
    home = os.environ.get("JAVA_HOME")
    if home and os.path.exists(os.path.join(home, "bin", "java")):
        return os.path.join(home, "bin", "java")
    found = shutil.which("java")
    assert found, "no java: the suite needs a JDK (11 or later) on JAVA_HOME or PATH"
    return found


@pytest.fixture(scope="module")
def oracle():
    """(The JVM's feature version, {case: (keys, the oracle's output line)})."""
    cases = {}
    for kind, mode, i in INPUT_CASES:
        keys = _input_keys(_rng(f"{kind}/{mode}/{i}"), KINDS[kind])
        line = " ".join([mode] + [KINDS[kind].token(k) for k in keys])
        cases[(kind, mode, i)] = (keys, line)
    for i in PYROLITE_CASES:
        keys = _pyrolite_keys(_rng(f"pyrolite/{i}"))
        cases[("pyrolite", i)] = (keys, " ".join(["pyrolite"] + [_token(k) for k in keys]))
    text = "".join(line + "\n" for _, line in cases.values())
    run = subprocess.run(
        [_java(), "HashMapOrder.java"],
        cwd=ORACLE,
        input=text,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, f"HashMapOrder.java failed:\n{run.stderr}"
    lines = run.stdout.split("\n")
    assert len(lines) >= len(cases) + 1, f"HashMapOrder.java printed too little:\n{run.stderr}"
    feature = int(lines[0])
    return feature, {
        case: (keys, lines[1 + n]) for n, (case, (keys, _)) in enumerate(cases.items())
    }


def _first_difference(ours, theirs):
    for n, (a, b) in enumerate(zip(ours, theirs)):
        if a != b:
            return f"first difference at entry {n}: {a} here, {b} in Java"
    return f"{len(ours)} entries here, {len(theirs)} in Java"


@pytest.mark.parametrize(
    "kind,mode,i", INPUT_CASES, ids=[f"{k}-{m}-{i}" for k, m, i in INPUT_CASES]
)
def test_map_arguments_in_hash_map_order(oracle, kind, mode, i):
    """A map argument's keys, as _inputs hashes, compares and orders them, in the order of a
    HashMap of the oracle's (new HashMap<>(n), as EvaluatePython.toJava makes it, or
    new HashMap<>())."""
    keys, line = oracle[1][(kind, mode, i)]
    theirs = [tuple(int(p) for p in entry.split(":")) for entry in line.split()]
    hashes, equality, order = _inputs._java_key(KINDS[kind].data_type)(keys)
    capacity = len(keys) if mode == "sized" else None
    ours = _java_hash.hash_map_order(hashes, equality, capacity, order)
    assert ours == theirs, (
        f"ROWBRIDGE_TEST_SEED={SEED}: {kind} keys, {mode} HashMap, case {i} "
        f"({len(keys)} keys): {_first_difference(ours, theirs)}"
    )


@pytest.mark.parametrize("i", PYROLITE_CASES)
def test_returned_dicts_in_pyrolite_order(oracle, i):
    """A returned dict's keys, through _results' map normalizer, in the order of the HashMap
    the oracle unpickles them into as Pyrolite does (its JVM's putAll pre-sizing)."""
    feature, cases = oracle
    keys, line = cases[("pyrolite", i)]
    theirs = [int(p) for p in line.split()]
    entries = _results._map(lambda k: k, lambda v: v, feature)(
        {k: position for position, k in enumerate(keys)}
    )
    assert entries is not _results._IRREGULAR, (
        f"ROWBRIDGE_TEST_SEED={SEED}: pyrolite case {i}: the dict was left to Spark's path"
    )
    ours = [position for _, position in entries]
    assert ours == theirs, (
        f"ROWBRIDGE_TEST_SEED={SEED}: pyrolite case {i} ({len(keys)} keys, Java {feature}): "
        f"{_first_difference(ours, theirs)}"
    )


def test_the_cases_make_tree_bins(oracle):
    """The suite's maps do make tree bins: without order keys, half of them or more fail."""
    failing = 0
    for kind, mode, i in INPUT_CASES:
        keys, _ = oracle[1][(kind, mode, i)]
        hashes, equality, _ = _inputs._java_key(KINDS[kind].data_type)(keys)
        try:
            _java_hash.hash_map_order(hashes, equality, len(keys) if mode == "sized" else None)
        except _java_hash.UnorderedMap:
            failing += 1
    assert failing >= len(INPUT_CASES) // 2, f"ROWBRIDGE_TEST_SEED={SEED}: {failing} tree maps"


def test_a_tie_only_identity_breaks_is_unordered():
    """Keys of one hash whose order keys tie (as two BigDecimals 1.0 and 1.00 would, if one
    map had both) would be ordered by System.identityHashCode: no order is given."""
    hashes = [7 << 6] * 10
    with pytest.raises(_java_hash.UnorderedMap):
        _java_hash.hash_map_order(hashes, list(range(10)), 64, [0, 1, 2, 3, 4, 5, 6, 7, 8, 3])
    assert len(_java_hash.hash_map_order(hashes, list(range(10)), 64, list(range(10)))) == 10
