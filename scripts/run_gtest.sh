#!/usr/bin/env bash
# Runs the tests of a GoogleTest binary that match a filter, and fails when
# one fails, when the filter matches no test, or when a test skipped itself
# without naming missing hardware (scripts/check_skips.py). Environment
# variables (ROWBRIDGE_RANDOM_ITERATIONS, ASAN_OPTIONS, ...) pass through.
#
#   scripts/run_gtest.sh BINARY FILTER [extra gtest arguments]
set -euo pipefail

binary=$1
filter=$2
shift 2
if [[ ! -x "$binary" ]]; then
  echo "run_gtest: $binary does not exist; build it first" >&2
  exit 1
fi
listed=$("$binary" --gtest_list_tests --gtest_filter="$filter")
if ! grep -q '^  ' <<<"$listed"; then
  echo "run_gtest: no test of $binary matches '$filter'" >&2
  exit 1
fi
report=$(mktemp --suffix=.xml)
trap 'rm -f "$report"' EXIT
"$binary" --gtest_filter="$filter" --gtest_output="xml:$report" "$@"
python3 "$(dirname "$0")/check_skips.py" "$report"
