#!/usr/bin/env bash
# Runs one of the Spark benchmarks (io.rowbridge.bench: SourceBench, TpchBench, WriteBench,
# StorageBench, CacheBench, PlacementBench) with the arguments, through scripts/java_main.sh
# (which builds this module, the demo's it depends on, and its class path first). The scripts
# beside it run it.
#
#   BENCH_MAIN=io.rowbridge.bench.TpchBench java/rowbridge-bench/run.sh [arguments...]
#
# Environment: BENCH_MAIN (the class to run; not needed with BENCH_BUILD_ONLY=1), BUILD (build),
# LINE (the Spark line, 4.1), BENCH_JAVA_OPTS (JVM options, default -Xmx4g), JAVA_HOME;
# BENCH_SKIP_BUILD=1 reuses the build and class path of a previous run (the scripts' later JVMs);
# BENCH_CLASSPATH_FILE (default $BUILD/rowbridge-bench-classpath.txt) where that class path is
# kept;
# BENCH_BUILD_ONLY=1 builds and writes the class path, and runs nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."

[[ -n "${BENCH_MAIN:-}" || "${BENCH_BUILD_ONLY:-0}" == 1 ]] || {
  echo "run.sh: BENCH_MAIN names the benchmark to run, e.g. io.rowbridge.bench.TpchBench" >&2
  exit 2
}
JVM_OPTS=${BENCH_JAVA_OPTS:--Xmx4g} SKIP_BUILD=${BENCH_SKIP_BUILD:-0} \
  BUILD_ONLY=${BENCH_BUILD_ONLY:-0} CLASSPATH_FILE=${BENCH_CLASSPATH_FILE:-} \
  exec scripts/java_main.sh rowbridge-bench "${BENCH_MAIN:-}" "$@"
