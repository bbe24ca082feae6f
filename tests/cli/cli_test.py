#!/usr/bin/env python3
"""End-to-end checks of `rowbridge convert` and `rowbridge inspect` (CONTRACTS.md §4).

Usage: cli_test.py ROWBRIDGE_BINARY SOURCE_DIR
"""
import json
import os
import struct
import subprocess
import sys
import tempfile

BINARY, SOURCE = sys.argv[1], sys.argv[2]
GOLDEN = os.path.join(SOURCE, "tests", "golden", "flat")
CORPUS = os.path.join(SOURCE, "tests", "ipc", "corpus")
UNCONVERTIBLE = os.path.join(SOURCE, "tests", "cli", "inputs", "decimal256_50_2.arrow")
# Written by make_extension_inputs.py: extension-typed columns, and their storage alone
# (CONTRACTS.md §2: an extension reads as its storage type).
EXTENSIONS = os.path.join(SOURCE, "tests", "cli", "inputs", "extension_columns.arrow")
EXTENSION_STORAGE = os.path.join(SOURCE, "tests", "cli", "inputs", "extension_storage.arrow")
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message)


def run(*args, timeout=60):
    return subprocess.run([BINARY, *args], capture_output=True, timeout=timeout)


def read_rows(data):
    rows, i = [], 0
    while i < len(data):
        (size,) = struct.unpack(">i", data[i:i + 4])
        rows.append(data[i + 4:i + 4 + size].hex())
        i += 4 + size
    return rows


def test_convert_matches_spark(work):
    """Every Spark golden file converts to exactly Spark's rows (null intervals aside)."""
    compared = 0
    for name in sorted(os.listdir(GOLDEN)):
        if not name.endswith(".arrow"):
            continue
        golden = json.load(open(os.path.join(GOLDEN, name[:-6] + ".json")))
        out = os.path.join(work, name + ".rows")
        result = run("convert", os.path.join(GOLDEN, name), out)
        check(result.returncode == 0, f"{name}: exit {result.returncode}: {result.stderr!r}")
        if result.returncode != 0:
            continue
        rows = read_rows(open(out, "rb").read())
        check(len(rows) == len(golden["rows"]), f"{name}: {len(rows)} rows, Spark {len(golden['rows'])}")
        if "interval" not in golden["spark_schema"]:
            check(rows == golden["rows"], f"{name}: rows differ from Spark's")
        compared += 1
    check(compared >= 30, f"only {compared} golden files compared")


def test_standard_output_and_devices():
    source = os.path.join(GOLDEN, "record.arrow")
    to_stdout = run("convert", source, "-")
    check(to_stdout.returncode == 0, "convert to - must succeed")
    golden = json.load(open(os.path.join(GOLDEN, "record.json")))
    check(read_rows(to_stdout.stdout) == golden["rows"], "rows written to standard output differ")
    check(run("convert", source, "/dev/null").returncode == 0, "convert to /dev/null must succeed")


def test_failure_leaves_no_partial_output(work):
    bad = os.path.join(CORPUS, "EXPECTED")  # not an Arrow file at all
    out = os.path.join(work, "fresh.rows")
    result = run("convert", bad, out)
    check(result.returncode == 1, "bad input must exit 1")
    lines = result.stderr.decode().strip().splitlines()
    check(len(lines) == 1 and "EXPECTED" in lines[0], f"one stderr line naming the input: {lines!r}")
    check(not os.path.exists(out), "a failed convert must not create OUT")
    check(not any(".rowbridge-" in f for f in os.listdir(work)), "a temporary file was left behind")
    existing = os.path.join(work, "existing.rows")
    open(existing, "wb").write(b"keep me")
    run("convert", bad, existing)
    check(open(existing, "rb").read() == b"keep me", "a failed convert must leave an existing OUT untouched")


def test_hostile_corpus_never_crashes(work):
    """Every hostile file ends with exit 0 or 1 and a message, never a signal or a hang."""
    for name in sorted(os.listdir(CORPUS)):
        out = os.path.join(work, "corpus.rows")
        try:
            result = run("convert", os.path.join(CORPUS, name), out, timeout=30)
        except subprocess.TimeoutExpired:
            check(False, f"corpus {name}: convert hung")
            continue
        check(result.returncode in (0, 1), f"corpus {name}: exit status {result.returncode}")
        if result.returncode == 1:
            check(len(result.stderr.decode().strip().splitlines()) == 1, f"corpus {name}: not one stderr line")
        inspected = run("inspect", os.path.join(CORPUS, name), timeout=30)
        check(inspected.returncode in (0, 1), f"corpus {name}: inspect exit status {inspected.returncode}")


def test_inspect():
    result = run("inspect", os.path.join(GOLDEN, "record.arrow"))
    text = result.stdout.decode()
    check(result.returncode == 0, "inspect must succeed")
    for expected in ("Arrow IPC file", "a: int64 -> bigint", "d: utf8 -> string",
                     "spark schema: struct<a:bigint,b:int,c:double,d:string>", "rows: 100",
                     "compression: none"):
        check(expected in text, f"inspect output lacks {expected!r}")
    unsupported = run("inspect", UNCONVERTIBLE)
    check(unsupported.returncode == 0 and "not convertible" in unsupported.stdout.decode(),
          "inspect names an unconvertible schema")


def test_extension_types_read_as_their_storage(work):
    inspected = run("inspect", EXTENSIONS)
    text = inspected.stdout.decode()
    check(inspected.returncode == 0, f"inspect must succeed: {inspected.stderr!r}")
    for expected in ("small: int8 (extension example.unregistered) -> tinyint",
                     "point: struct<x: float64, tag: utf8> (extension example.unregistered) -> "
                     "struct<x:double,tag:string>",
                     "items: list<int8 (extension example.unregistered)> -> array<tinyint>",
                     "id: fixed_size_binary[16] (extension arrow.uuid) -> binary"):
        check(expected in text, f"inspect output lacks {expected!r}:\n{text}")
    check("not convertible" not in text, f"inspect must map every column:\n{text}")
    outputs = []
    for source in (EXTENSIONS, EXTENSION_STORAGE):
        out = os.path.join(work, os.path.basename(source) + ".rows")
        result = run("convert", source, out)
        check(result.returncode == 0, f"{source}: exit {result.returncode}: {result.stderr!r}")
        outputs.append(open(out, "rb").read() if result.returncode == 0 else None)
    check(outputs[0] is not None and len(read_rows(outputs[0])) == 6,
          "the extension columns convert to 6 rows")
    check(outputs[0] == outputs[1], "the extension columns' rows are their storage's, byte for byte")
    scanned = []
    for source in (EXTENSIONS, EXTENSION_STORAGE):
        result = run("scan", "--rows", source)
        check(result.returncode == 0, f"scan --rows {source}: {result.stderr!r}")
        line = json.loads(result.stdout) if result.returncode == 0 else {}
        scanned.append((line.get("rows"), line.get("row_bytes")))
    check(scanned[0] == scanned[1] == (6, 560),
          f"scan --rows reads the extension columns as their storage: {scanned}")


def test_unsupported_type_fails_cleanly(work):
    out = os.path.join(work, "decimal.rows")
    result = run("convert", UNCONVERTIBLE, out)
    check(result.returncode == 1, "an unsupported type must exit 1")
    check("decimal256(50, 2)" in result.stderr.decode(), f"the error must name the type: {result.stderr!r}")
    check(not os.path.exists(out), "no output may be left after a failure")


def test_usage_errors():
    check(run().returncode == 2, "no subcommand must exit 2")
    check(run("frobnicate").returncode == 2, "an unknown subcommand must exit 2")
    check(run("convert", "only-one-argument").returncode == 2, "a missing argument must exit 2")


with tempfile.TemporaryDirectory() as work:
    tests = [lambda: test_convert_matches_spark(work), test_standard_output_and_devices,
             lambda: test_failure_leaves_no_partial_output(work),
             lambda: test_extension_types_read_as_their_storage(work),
             lambda: test_hostile_corpus_never_crashes(work), test_inspect, test_usage_errors,
             lambda: test_unsupported_type_fails_cleanly(work)]
    failed = 0
    for test in tests:
        before = len(failures)
        test()
        failed += len(failures) > before

print(f"{len(tests) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
