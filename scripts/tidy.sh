#!/usr/bin/env bash
# clang-tidy, with the checks of .clang-tidy, over the library's sources in a build
# directory's compile_commands.json: tests, benchmarks and test support are left out.
# Any warning fails (.clang-tidy makes every warning an error).
#
#   scripts/tidy.sh BUILD_DIR [JOBS]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:?usage: scripts/tidy.sh BUILD_DIR [JOBS]}
jobs=${2:-2}
python3 - "$build/compile_commands.json" > "$build/tidy-files.txt" <<'PY'
import json, sys
skip = ("_test.",)  # benchmarks and test support live outside src/
files = {e["file"] for e in json.load(open(sys.argv[1]))
         if "/src/" in e["file"] and not any(s in e["file"] for s in skip)}
print("\n".join(sorted(files)))
PY
echo "clang-tidy: $(wc -l < "$build/tidy-files.txt") files of $build"
# GCC's warning options in the compile commands are unknown to clang: not an error here.
# clang-tidy counts the warnings its disabled checks would give ("N warnings generated."):
# those lines are dropped, every other line is kept.
set +e
xargs -P "$jobs" -n 4 clang-tidy -p "$build" --quiet --extra-arg=-Wno-unknown-warning-option \
  < "$build/tidy-files.txt" 2>&1 | grep -v -E '^[0-9]+ warnings? generated\.$'
status=${PIPESTATUS[0]}
if [[ $status -ne 0 ]]; then
  echo "clang-tidy: failed (status $status)" >&2
  exit "$status"
fi
echo "clang-tidy: no warnings"
