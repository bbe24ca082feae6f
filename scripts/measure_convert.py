#!/usr/bin/env python3
"""Times `rowbridge convert` on an uncompressed Arrow IPC file of the workload of
record (CONTRACTS.md §6: a int64, b int32, c float64, d = "value_" + i; about 1 GB)
in one run, against `cat FILE > /dev/null` and against the in-memory conversion
of the same schema (`rowbridge bench`, record at 8192 rows per batch).

Usage: build/venv/bin/python3 scripts/measure_convert.py [BUILD_DIR] [ROWS]
"""
import json
import os
import subprocess
import sys
import time

import pyarrow as pa
import pyarrow.compute as pc

build = sys.argv[1] if len(sys.argv) > 1 else "build/release"
rows = int(sys.argv[2]) if len(sys.argv) > 2 else 28_000_000
cli = os.path.join(build, "bin", "rowbridge")
path = os.path.join(build, "measure", "record.arrow")
os.makedirs(os.path.dirname(path), exist_ok=True)

if not os.path.exists(path):
    schema = pa.schema([("a", pa.int64()), ("b", pa.int32()), ("c", pa.float64()), ("d", pa.utf8())])
    with pa.OSFile(path + ".tmp", "wb") as sink, pa.ipc.new_file(sink, schema) as writer:
        for first in range(0, rows, 1 << 20):
            n = min(1 << 20, rows - first)
            a = pa.array(range(first, first + n), pa.int64())
            table = pa.table({"a": a, "b": pc.cast(a, pa.int32(), safe=False),
                              "c": pc.multiply(pc.cast(a, pa.float64()), 0.5),
                              "d": pa.array(["value_%d" % i for i in range(first, first + n)])},
                             schema=schema)
            writer.write_table(table, max_chunksize=8192)
    os.rename(path + ".tmp", path)


def timed(command, **kwargs):
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, **kwargs)
    return time.perf_counter() - start


size = os.path.getsize(path)
timed(["cat", path])  # warm the page cache so that both reads start equal
cat_seconds = min(timed(["cat", path]) for _ in range(3))
convert_seconds = min(timed([cli, "convert", path, "/dev/null"]) for _ in range(3))
bench = json.loads(subprocess.run([cli, "bench", "--json"], check=True, capture_output=True).stdout)
memory_ns = next(c["ns_per_row"] for c in bench["cases"] if c["schema"] == "record" and c["batch_rows"] == 8192)

print(f"file: {path}, {size} bytes, {rows} rows in 8192-row batches, uncompressed")
print(f"cat FILE > /dev/null:                {cat_seconds:8.3f} s ({size / cat_seconds / 1e9:.2f} GB/s)")
print(f"rowbridge convert FILE /dev/null:    {convert_seconds:8.3f} s "
      f"({size / convert_seconds / 1e9:.2f} GB/s of input, {convert_seconds * 1e9 / rows:.1f} ns/row)")
print(f"in-memory conversion (bench record): {memory_ns * rows / 1e9:8.3f} s ({memory_ns:.1f} ns/row)")
print("best of 3 runs each; the conversion figure is the median of rowbridge bench")
