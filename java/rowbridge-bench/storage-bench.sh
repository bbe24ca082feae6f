#!/usr/bin/env bash
# The source's storage benchmark (make bench-spark; docs/BENCHMARKS.md, section Storage): the
# record dataset read by format("rowbridge") from local files, from an HDFS mini cluster and from
# S3Proxy through s3a://, side by side in one JVM (io.rowbridge.bench.StorageBench). Writes
# OUT_DIR/spark-storage.json and prints the table.
#
#   java/rowbridge-bench/storage-bench.sh [OUT_DIR]          (after make java)
#
# Environment: BUILD (build), STORAGE_FILES (4), STORAGE_ROWS (rows per file, 3000000),
# STORAGE_RUNS (5), BENCH_JAVA_OPTS (-Xmx4g).
set -euo pipefail
cd "$(dirname "$0")/../.."

build=${BUILD:-build}
out=${1:-$build/bench}
mkdir -p "$out" "$build/s3proxy"
version=$(sed -n 's:.*<s3proxy.version>\(.*\)</s3proxy.version>.*:\1:p' java/pom.xml)
# S3Proxy's self-contained jar, run by LocalS3 in a JVM of its own.
jar="$PWD/$build/s3proxy/s3proxy-$version-jar-with-dependencies.jar"
[[ -s "$jar" ]] || mvn -q -B -Dstyle.color=never dependency:copy \
  -Dartifact="org.gaul:s3proxy:$version:jar:jar-with-dependencies" \
  -DoutputDirectory="$build/s3proxy"
BENCH_MAIN=io.rowbridge.bench.StorageBench \
  BENCH_JAVA_OPTS="${BENCH_JAVA_OPTS:--Xmx4g} -Drowbridge.test.s3proxy.jar=$jar" \
  java/rowbridge-bench/run.sh --data "$build/bench-storage" --files "${STORAGE_FILES:-4}" \
  --rows "${STORAGE_ROWS:-3000000}" --runs "${STORAGE_RUNS:-5}" --json "$out/spark-storage.json"
