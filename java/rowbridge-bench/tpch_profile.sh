#!/usr/bin/env bash
# Where the time of a few TPC-H queries goes (docs/BENCHMARKS.md, section TPC-H): each query
# and mode in a JVM of its own under Java Flight Recorder, its task threads' samples split by
# tpch_profile.py into transition, scan and the rest. Uses tpch.sh's data and jars (run it, or
# `make bench-spark`, first).
#
#   java/rowbridge-bench/tpch_profile.sh [OUT_DIR]
#
# Environment: BUILD (build), SCALE (1), DATA_DIR ($BUILD/tpch/sf$SCALE), QUERIES
# (q01,q03,q18), MODES (rowbridge,spark-c2r; comet-* modes run on tpch.sh's Comet class path),
# ROUNDS (3), COMET_SHUFFLE (TpchBench's default; false or true: spark.comet.shuffle.enabled
# in the comet-* modes), BENCH_JAVA_OPTS (-Xmx6g).
set -euo pipefail
cd "$(dirname "$0")/../.."

build=${BUILD:-build}
out=${1:-$build/bench}/profiles
scale=${SCALE:-1}
data=${DATA_DIR:-$build/tpch/sf$scale}
jars=$build/tpch/jars
python=$build/venv/bin/python3
if [[ ! -s "$jars/classpath.txt" || ! -d "$data" ]]; then
  echo "tpch_profile.sh: run java/rowbridge-bench/tpch.sh first (no $jars or $data)" >&2
  exit 1
fi
mkdir -p "$out"
IFS=, read -ra queries <<< "${QUERIES:-q01,q03,q18}"
IFS=, read -ra modes <<< "${MODES:-rowbridge,spark-c2r}"
shuffle=()
[[ -n "${COMET_SHUFFLE:-}" ]] && shuffle=(--comet-shuffle "$COMET_SHUFFLE")
for query in "${queries[@]}"; do
  for mode in "${modes[@]}"; do
    recording="$out/$query-$mode.jfr"
    classpath=$jars/classpath.txt
    [[ "$mode" == comet-* ]] && classpath=$jars/classpath-comet.txt  # a Comet JVM's (tpch.sh)
    BENCH_SKIP_BUILD=1 BENCH_CLASSPATH_FILE=$classpath \
      BENCH_MAIN=io.rowbridge.bench.TpchBench \
      BENCH_JAVA_OPTS="${BENCH_JAVA_OPTS:--Xmx6g} -XX:StartFlightRecording=filename=$recording,settings=profile" \
      java/rowbridge-bench/run.sh --data "$data" --scale "$scale" --rounds "${ROUNDS:-3}" \
      --queries "$query" --modes "$mode" "${shuffle[@]}" > "$out/$query-$mode.log" 2>&1
    jfr print --events jdk.ExecutionSample,jdk.NativeMethodSample --stack-depth 96 \
      "$recording" > "$out/$query-$mode.txt"
    "$python" java/rowbridge-bench/tpch_profile.py "$out/$query-$mode.txt" \
      --label "$query $mode" --json "$out/$query-$mode.json"
    rm -f "$out/$query-$mode.txt"
  done
done
