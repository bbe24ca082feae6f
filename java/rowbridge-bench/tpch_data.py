#!/usr/bin/env python3
"""TPC-H data for the TPC-H benchmark (java/rowbridge-bench/tpch.sh).

    tpch_data.py SCALE_FACTOR DIR

1. tpchgen-cli (pinned in scripts/python-requirements.txt) writes the eight tables as Parquet
   under DIR/generated/ (lineitem and orders in several files).
2. pyarrow converts every table to Arrow IPC *file* format under DIR/arrow/TABLE/: view strings
   cast to utf8, decimals to decimal128, dates to date32, 8192-row record batches, uncompressed;
   lineitem, orders, partsupp and customer in several files so that two tasks read in parallel.
DIR/_tpch_data holds a stamp; a rerun with the same scale factor does nothing. Spark writes its
own Parquet copy later (TpchBench), from DIR/generated/.
"""
import os
import shutil
import subprocess
import sys

import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.ipc as ipc

TABLES = ["region", "nation", "supplier", "customer", "part", "partsupp", "orders", "lineitem"]
FILES = {"lineitem": 4, "orders": 4, "partsupp": 2, "customer": 2, "part": 2}
BATCH_ROWS = 8192
STAMP_VERSION = "tpch-data 1"


def arrow_type(t):
    """The IPC type of a generated column: what Spark's ArrowColumnVector reads."""
    if pa.types.is_string_view(t) or pa.types.is_large_string(t):
        return pa.string()
    if pa.types.is_binary_view(t) or pa.types.is_large_binary(t):
        return pa.binary()
    if pa.types.is_decimal(t):
        return pa.decimal128(t.precision, t.scale)
    if pa.types.is_date(t):
        return pa.date32()
    return t


def convert(table_dir, parquet_path, files):
    table = ds.dataset(parquet_path, format="parquet").to_table()
    schema = pa.schema([pa.field(f.name, arrow_type(f.type), f.nullable) for f in table.schema])
    table = table.cast(schema)
    os.makedirs(table_dir, exist_ok=True)
    per_file = -(-table.num_rows // files)
    per_file = -(-per_file // BATCH_ROWS) * BATCH_ROWS  # whole batches in every file but the last
    for f in range(files):
        part = table.slice(f * per_file, per_file)
        if part.num_rows == 0:
            break
        path = os.path.join(table_dir, f"part-{f:05d}.arrow")
        with pa.OSFile(path + ".partial", "wb") as sink:
            with ipc.new_file(sink, schema) as writer:
                for batch in part.combine_chunks().to_batches(max_chunksize=BATCH_ROWS):
                    writer.write_batch(batch)
        os.replace(path + ".partial", path)
    return table.num_rows


def main():
    scale, out = sys.argv[1], sys.argv[2]
    stamp = os.path.join(out, "_tpch_data")
    manifest = f"{STAMP_VERSION}, scale factor {scale}\n"
    if os.path.exists(stamp) and open(stamp).read() == manifest:
        return
    shutil.rmtree(out, ignore_errors=True)
    generated = os.path.join(out, "generated")
    os.makedirs(generated)
    tpchgen = os.path.join(os.path.dirname(sys.executable), "tpchgen-cli")
    subprocess.run([tpchgen, "parquet", "-s", scale, "--output-dir", generated, "--quiet"],
                   check=True)
    for name in TABLES:
        rows = convert(os.path.join(out, "arrow", name),
                       os.path.join(generated, name + ".parquet"), FILES.get(name, 1))
        print(f"-- {name}: {rows:,} rows as Arrow IPC", flush=True)
    with open(stamp, "w") as f:
        f.write(manifest)


if __name__ == "__main__":
    main()
