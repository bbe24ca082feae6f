#!/usr/bin/env bash
# Runs every ctest test of a build directory, two at a time, and fails when a
# test fails, when there is no test, or when a test skipped itself without
# naming missing hardware (scripts/check_skips.py).
#
#   scripts/ctest.sh BUILD_DIR [extra ctest arguments]
set -euo pipefail

build_dir=$(cd "$1" && pwd)
shift
report="$build_dir/ctest-junit.xml"
rm -f "$report"
ctest --test-dir "$build_dir" --output-on-failure --no-tests=error \
  -j "${ROWBRIDGE_JOBS:-2}" --timeout "${ROWBRIDGE_TEST_TIMEOUT:-900}" \
  --output-junit "$report" "$@"
python3 "$(dirname "$0")/check_skips.py" "$report"
