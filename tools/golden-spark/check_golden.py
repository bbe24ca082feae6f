#!/usr/bin/env python3
"""Independent cross-check of the golden vectors (needs pyarrow).

For every tests/golden/*/<case>.json:
  1. the <case>.arrow IPC file holds exactly the buffers the JSON lists;
  2. a small reference encoder written from CONTRACTS.md §3 (not from Spark) reproduces the
     "rows" Spark wrote, from the Arrow data.
Prints one line per mismatch and a closing "N passed, N failed" line.
Usage: check_golden.py [GOLDEN_DIR]
"""
import glob
import json
import os
import struct
import sys

import pyarrow as pa
import pyarrow.ipc as ipc


def r8(n):
    return (n + 7) & ~7


def ceil_div(a, b):
    return (a + b - 1) // b


# ---- Arrow -> CONTRACTS.md §2 Spark kinds -------------------------------------------------

def kind(t):
    """Returns (kind, fixed element size in arrays)."""
    if pa.types.is_null(t):
        return "null", 8
    if pa.types.is_boolean(t):
        return "bool", 1
    if pa.types.is_integer(t):
        w = t.bit_width // 8
        if pa.types.is_unsigned_integer(t):
            return ("bigdec", 8) if w == 8 else ("int", {1: 2, 2: 4, 4: 8}[w])
        return "int", w
    if pa.types.is_floating(t):
        return "float", t.bit_width // 8
    if pa.types.is_decimal(t):
        return ("dec", 8) if t.precision <= 18 else ("bigdec", 8)
    if pa.types.is_date32(t) or pa.types.is_date64(t):
        return "date", 4
    if pa.types.is_timestamp(t) or pa.types.is_duration(t) or pa.types.is_time64(t):
        return "micros", 8
    if t == pa.month_day_nano_interval():
        return "cal", 8
    if pa.types.is_interval(t) or str(t) == "month_interval":
        return "int", 4
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_binary(t) \
            or pa.types.is_large_binary(t) or pa.types.is_fixed_size_binary(t):
        return "bytes", 8
    if pa.types.is_struct(t):
        return "struct", 8
    if pa.types.is_map(t):
        return "map", 8
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
        return "array", 8
    raise ValueError("type %s" % t)


def raw(arr, i, width):
    buf = arr.buffers()[1]
    o = (arr.offset + i) * width
    return buf.to_pybytes()[o:o + width]


def unit_div(t):
    u = getattr(t, "unit", "us")
    return {"s": None, "ms": None, "us": 1, "ns": 1000}[u], {"s": 10**6, "ms": 1000}.get(u, 1)


def fixed_value(arr, i, t):
    """Bytes of a fixed-width value as written in its slot (before zero padding)."""
    k, _ = kind(t)
    if k == "bool":
        return bytes([1 if arr[i].as_py() else 0])
    if k == "int":
        w = t.bit_width // 8
        v = int.from_bytes(raw(arr, i, w), "little", signed=not pa.types.is_unsigned_integer(t))
        return v.to_bytes(kind(t)[1], "little", signed=True)
    if k == "float":
        return raw(arr, i, t.bit_width // 8)
    if k == "dec":
        v = int.from_bytes(raw(arr, i, t.bit_width // 8), "little", signed=True)
        return v.to_bytes(8, "little", signed=True)
    if k == "date":
        if pa.types.is_date32(t):
            return raw(arr, i, 4)
        ms = int.from_bytes(raw(arr, i, 8), "little", signed=True)
        return (ms // 86400000).to_bytes(4, "little", signed=True)
    if k == "micros":
        v = int.from_bytes(raw(arr, i, 8), "little", signed=True)
        u = getattr(t, "unit", "us")
        v = {"s": v * 10**6, "ms": v * 1000, "us": v, "ns": v // 1000}[u]
        if pa.types.is_time64(t):  # Spark's TimeType keeps nanoseconds as read
            v = int.from_bytes(raw(arr, i, 8), "little", signed=True)
        return v.to_bytes(8, "little", signed=True)
    raise ValueError(k)


def big_bytes(arr, i, t):
    if pa.types.is_integer(t):  # uint64 -> Decimal(20,0)
        v = int.from_bytes(raw(arr, i, 8), "little", signed=False)
    else:
        v = int.from_bytes(raw(arr, i, t.bit_width // 8), "little", signed=True)
    jbl = v.bit_length() if v >= 0 else (~v).bit_length()  # Java BigInteger.bitLength()
    n = jbl // 8 + 1  # Java BigInteger.toByteArray length
    return v.to_bytes(n, "big", signed=True)


def cal_bytes(arr, i):
    b = raw(arr, i, 16)
    months, days, nanos = struct.unpack("<iiq", b)
    micros = nanos // 1000 if nanos >= 0 else -((-nanos) // 1000)  # Spark truncates
    return struct.pack("<iiq", months, days, micros)


def var_value(arr, i, t, k):
    """Variable-region bytes of a non-null value (unpadded for bytes/bigdec)."""
    if k == "bytes":
        v = arr[i].as_py()
        return v.encode("utf-8") if isinstance(v, str) else bytes(v)
    if k == "bigdec":
        return big_bytes(arr, i, t)
    if k == "cal":
        return cal_bytes(arr, i)
    if k == "struct":
        return write_row([arr.field(j) for j in range(t.num_fields)],
                         [t.field(j).type for j in range(t.num_fields)], i)
    if k == "array":
        lst = arr[i].values if not pa.types.is_fixed_size_list(t) else None
        start, end = list_range(arr, i, t)
        return write_array(arr.values if not hasattr(arr, "flatten") else base_values(arr),
                           t.value_type, start, end)
    if k == "map":
        start, end = list_range(arr, i, t)
        keys = write_array(base_values(arr).field(0), t.key_type, start, end)
        vals = write_array(base_values(arr).field(1), t.item_type, start, end)
        return len(keys).to_bytes(8, "little") + keys + vals
    raise ValueError(k)


def base_values(arr):
    return arr.values  # offset 0 arrays: values are not sliced


def list_range(arr, i, t):
    if pa.types.is_fixed_size_list(t):
        return i * t.list_size, (i + 1) * t.list_size
    offs = arr.offsets.to_pylist()
    return offs[i], offs[i + 1]


def write_row(cols, types, i):
    n = len(cols)
    head = ceil_div(n, 64) * 8
    buf = bytearray(head + 8 * n)
    for f, (col, t) in enumerate(zip(cols, types)):
        k, _ = kind(t)
        slot = head + 8 * f
        if not col[i].is_valid or k == "null":
            buf[f // 8] |= 1 << (f % 8)
            if k in ("bigdec", "cal"):
                off = len(buf)
                buf += bytes(16)
                size = 16 if k == "cal" else 0
                buf[slot:slot + 8] = ((off << 32) | size).to_bytes(8, "little")
            continue
        if k in ("bool", "int", "float", "dec", "date", "micros"):
            v = fixed_value(col, i, t)
            buf[slot:slot + len(v)] = v
            continue
        v = var_value(col, i, t, k)
        off = len(buf)
        reserve = 16 if k == "bigdec" else r8(len(v))
        buf += v + bytes(reserve - len(v))
        buf[slot:slot + 8] = ((off << 32) | len(v)).to_bytes(8, "little")
    return bytes(buf)


def write_array(values, t, start, end):
    n = end - start
    k, es = kind(t)
    head = 8 + ceil_div(n, 64) * 8
    buf = bytearray(head + r8(n * es))
    buf[0:8] = n.to_bytes(8, "little")
    for j in range(n):
        i = start + j
        slot = head + j * es
        if not values[i].is_valid or k == "null":
            buf[8 + j // 8] |= 1 << (j % 8)
            continue
        if k in ("bool", "int", "float", "dec", "date", "micros"):
            v = fixed_value(values, i, t)
            buf[slot:slot + len(v)] = v[:es]
            continue
        v = var_value(values, i, t, k)
        off = len(buf)
        buf += v + bytes(r8(len(v)) - len(v))
        buf[slot:slot + 8] = ((off << 32) | len(v)).to_bytes(8, "little")
    return bytes(buf)


# ---- buffers of the IPC file vs the JSON ---------------------------------------------------

def c_buffers(arr):
    """(buffers, children) in C Data Interface order, each buffer cut to its defined length."""
    t = arr.type
    n = len(arr)
    bufs = arr.buffers()
    out = []
    if pa.types.is_null(t):
        return [], []
    valid = bufs[0].to_pybytes()[:ceil_div(n, 8)] if bufs[0] is not None else None
    out.append(valid)
    children = []
    if pa.types.is_struct(t):
        children = [arr.field(j) for j in range(t.num_fields)]
    elif pa.types.is_fixed_size_list(t):
        children = [arr.values]
    elif pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_map(t):
        ow = 8 if pa.types.is_large_list(t) else 4
        out.append(bufs[1].to_pybytes()[:(n + 1) * ow])
        children = [pa.StructArray.from_arrays([arr.keys, arr.items], fields=[
            t.key_field, t.item_field]) if pa.types.is_map(t) else arr.values]
        if pa.types.is_map(t):
            children = [arr.values]
    elif pa.types.is_string(t) or pa.types.is_binary(t) or pa.types.is_large_string(t) \
            or pa.types.is_large_binary(t):
        ow = 8 if (pa.types.is_large_string(t) or pa.types.is_large_binary(t)) else 4
        offs = bufs[1].to_pybytes()[:(n + 1) * ow]
        out.append(offs)
        last = int.from_bytes(offs[-ow:], "little") if n >= 0 and len(offs) >= ow else 0
        out.append(bufs[2].to_pybytes()[:last] if bufs[2] is not None else b"")
    elif pa.types.is_boolean(t):
        out.append(bufs[1].to_pybytes()[:ceil_div(n, 8)])
    else:
        w = t.byte_width if hasattr(t, "byte_width") else t.bit_width // 8
        if t == pa.month_day_nano_interval():
            w = 16
        out.append(bufs[1].to_pybytes()[:n * w])
    return out, children


def compare(arr, node, path, errs):
    bufs, kids = c_buffers(arr)
    jb = node["buffers"]
    if len(bufs) != len(jb):
        errs.append("%s: %d buffers in IPC, %d in JSON" % (path, len(bufs), len(jb)))
        return
    for b, (x, y) in enumerate(zip(bufs, jb)):
        if b == 0 and (x is None or node["null_count"] == 0):
            continue  # writers may drop an all-valid bitmap
        if x.hex() != y and not (len(x) == 0 and node["length"] == 0):  # empty offsets
            errs.append("%s: buffer %d differs" % (path, b))
    if node["length"] != len(arr) or node["null_count"] != arr.null_count:
        errs.append("%s: length/null_count differ" % path)
    for j, (a, nd) in enumerate(zip(kids, node["children"])):
        compare(a, nd, path + "." + str(j), errs)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "golden")
    passed = failed = 0
    for jf in sorted(glob.glob(os.path.join(root, "*", "*.json"))):
        doc = json.load(open(jf))
        errs = []
        with open(jf[:-5] + ".arrow", "rb") as f:
            reader = ipc.open_file(f)
            table = reader.get_batch(0)
        try:
            cols = [table.column(j) for j in range(table.num_columns)]
        except KeyError:
            print("SKIP %s: pyarrow has no Python array class for one of its types"
                  % os.path.relpath(jf, root))
            continue
        for j, c in enumerate(cols):
            compare(c, doc["batch"]["children"][j], "c%d" % j, errs)
        types = [table.schema.field(j).type for j in range(table.num_columns)]
        for i in range(table.num_rows):
            try:
                mine = write_row(cols, types, i).hex()
            except Exception as e:  # noqa
                errs.append("row %d: reference encoder failed: %r" % (i, e))
                break
            if mine != doc["rows"][i]:
                errs.append("row %d: CONTRACTS.md §3 encoder %s\n           spark       %s"
                            % (i, mine, doc["rows"][i]))
        if len(doc["rows"]) != table.num_rows:
            errs.append("row count differs")
        name = os.path.relpath(jf, root)
        if errs:
            failed += 1
            print("FAIL %s" % name)
            for e in errs[:6]:
                print("  " + e)
        else:
            passed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
