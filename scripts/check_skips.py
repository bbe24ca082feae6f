#!/usr/bin/env python3
"""Fails when a test report lists a test that did not run, or no test at all.

Reads a ctest JUnit report (ctest --output-junit) or a GoogleTest XML report
(--gtest_output=xml:FILE). CONTRACTS.md §5: a test that skips itself counts as
a failure unless it names a missing hardware feature, so a skipped test is
accepted only when its skip message mentions "hardware"; a disabled test is
never accepted.

Usage: check_skips.py REPORT.xml
"""
import re
import sys
import xml.etree.ElementTree as ElementTree


def skip_message(case):
    """Returns the message a GTEST_SKIP() gave, or ''."""
    skipped = case.find("skipped")
    message = skipped.get("message", "") if skipped is not None else ""
    if message and message != "SKIP_REGULAR_EXPRESSION_MATCHED":
        return message.strip()
    # ctest: the message is in the captured output of the test.
    output = case.findtext("system-out") or ""
    match = re.search(r": Skipped\n(.*?)\[  SKIPPED \]", output, re.S)
    return match.group(1).strip() if match else ""


def did_not_run(case):
    status = case.get("status", "")
    result = case.get("result", "")
    return (case.find("skipped") is not None or status in ("notrun", "disabled") or
            result in ("skipped", "suppressed"))


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = ElementTree.parse(argv[1]).getroot()
    ran = 0
    bad = []
    for case in root.iter("testcase"):
        name = case.get("name", "?")
        if case.get("classname") and "." not in name:
            name = case.get("classname") + "." + name
        if not did_not_run(case):
            ran += 1
            continue
        message = skip_message(case)
        disabled = case.get("status") in ("disabled", "notrun") and not message
        if not disabled and re.search(r"hardware", message, re.I):
            print(f"check_skips: {name} skipped for missing hardware: {message}")
            continue
        bad.append((name, message or "(disabled, or no message)"))
    for name, message in bad:
        print(f"check_skips: {name} did not run: {message}", file=sys.stderr)
    if bad:
        print(f"check_skips: {len(bad)} test(s) did not run without naming missing hardware; "
              "a skipped test counts as a failure (CONTRACTS.md §5)", file=sys.stderr)
        return 1
    if ran == 0:
        print(f"check_skips: {argv[1]}: no test ran", file=sys.stderr)
        return 1
    print(f"check_skips: {ran} test(s) ran, none skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
