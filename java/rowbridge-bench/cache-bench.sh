#!/usr/bin/env bash
# The cache benchmark (make bench-spark; docs/BENCHMARKS.md, section "Cache"): Spark's default
# cache serializer against rowbridge's ArrowCachedBatchSerializer, uncompressed, with LZ4 and with zstd,
# over TPC-H lineitem at SF 1 (tpchgen-cli's Parquet) and make run's nested dataset (its Arrow
# files). The serializer is a static setting, so each mode runs in a JVM of its own
# (io.rowbridge.bench.CacheBench): ROUNDS rounds of one JVM per mode, the order of the modes
# reversed every other round; spark-aa is spark again, the A/A twin. cache_report.py takes the
# median per mode over the rounds, checks that every mode gave the same answers, and writes
# OUT_DIR/cache.json and the Markdown table.
#
#   java/rowbridge-bench/cache-bench.sh [OUT_DIR]          (after make java)
#
# Environment: BUILD (build), ROUNDS (3), RUNS (3: timed runs of each query per JVM, after a
# warm-up), CACHE_MODES (spark,rowbridge-none,rowbridge-lz4,rowbridge-zstd,spark-plain,spark-aa),
# BENCH_JAVA_OPTS (-Xmx8g).
set -euo pipefail
cd "$(dirname "$0")/../.."

build=${BUILD:-build}
out=${1:-$build/bench}
rounds=${ROUNDS:-3}
runs=${RUNS:-3}
IFS=, read -ra modes <<< "${CACHE_MODES:-spark,rowbridge-none,rowbridge-lz4,rowbridge-zstd,spark-plain,spark-aa}"
python=$build/venv/bin/python3
mkdir -p "$out"

"$python" java/rowbridge-bench/tpch_data.py 1 "$build/tpch/sf1"
# make run's datasets (the demo's Demo, on this module's class path: one build for both).
BENCH_MAIN=io.rowbridge.demo.Demo java/rowbridge-bench/run.sh --data "$build/demo" --suite data \
  > /dev/null

lines=$out/cache.jsonl
rm -f "$lines"
for ((round = 1; round <= rounds; round++)); do
  order=("${modes[@]}")
  if ((round % 2 == 0)); then
    order=()
    for ((i = ${#modes[@]} - 1; i >= 0; i--)); do order+=("${modes[i]}"); done
  fi
  for mode in "${order[@]}"; do
    echo "== cache benchmark: round $round of $rounds, $mode"
    BENCH_SKIP_BUILD=1 BENCH_MAIN=io.rowbridge.bench.CacheBench \
      BENCH_JAVA_OPTS="${BENCH_JAVA_OPTS:--Xmx8g}" java/rowbridge-bench/run.sh \
      --mode "$mode" --runs "$runs" --json "$lines" \
      --lineitem "$build/tpch/sf1/generated/lineitem.parquet" --nested "$build/demo/nested" \
      | grep '^{'
  done
done
"$python" java/rowbridge-bench/cache_report.py "$lines" "$out/cache.json" \
  "$(git rev-parse --short HEAD 2> /dev/null || echo unknown)"
