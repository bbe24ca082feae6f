#!/usr/bin/env python3
"""Writes the Arrow files that cli_test.py needs beyond the golden vectors.

Usage: make_cli_inputs.py OUT_DIR   (needs pyarrow; the outputs are checked in)
"""
import os
import sys
from decimal import Decimal

import pyarrow as pa
import pyarrow.ipc as ipc

out_dir = sys.argv[1]
# Readable Arrow, but no Spark type holds a decimal of 50 digits.
values = pa.array([Decimal("1.25"), None, Decimal("-3.50")], pa.decimal256(50, 2))
table = pa.table({"wide": values})
with ipc.new_file(os.path.join(out_dir, "decimal256_50_2.arrow"), table.schema) as writer:
    writer.write_table(table)
