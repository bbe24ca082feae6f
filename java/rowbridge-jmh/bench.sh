#!/usr/bin/env bash
# The side-by-side JMH benchmark of columnar -> row (make bench-jvm): Spark's JVM path,
# rowbridge, Comet's native converter (flat schemas) and an Arrow C Data export alone, in one
# JMH run per schema (record, wide_strings, nested), with the GC profiler. Writes
# OUT_DIR/jvm-c2r.json (and the raw JMH JSON next to it) and IMG_DIR/jvm-c2r.png, and prints
# the table.
#
#   java/rowbridge-jmh/bench.sh OUT_DIR IMG_DIR      (after make java)
#
# Environment: JMH_ARGS adds JMH options (e.g. "-wi 1 -i 2" for a quick look); JAVA_HOME.
set -euo pipefail
cd "$(dirname "$0")/../.."

out=${1:-build/bench}
img=${2:-docs/img}
mkdir -p "$out" "$img" build
# The same lock as the Makefile's Maven runs: one Maven build of java/ at a time.
mvn=(flock build/.java.lock mvn -q -B -Dstyle.color=never -f java/pom.xml)

# The benchmark module with Comet's driver, its run-time class path, and Comet's jar (loaded by
# CometCase in its own class loader).
"${mvn[@]}" -Pcomet -pl rowbridge-jmh -DskipTests package
"${mvn[@]}" -pl rowbridge-jmh dependency:build-classpath -Dmdep.includeScope=runtime \
  -Dmdep.outputFile="$PWD/$out/jmh-classpath.txt"
"${mvn[@]}" -Pcomet -pl rowbridge-jmh dependency:copy \
  -Dartifact=org.apache.datafusion:comet-spark-spark4.1_2.13:1.2.0 -DoutputDirectory="$PWD/$out/comet"
comet_jar="$PWD/$out/comet/comet-spark-spark4.1_2.13-1.2.0.jar"
classpath="java/rowbridge-jmh/target/classes:$(cat "$out/jmh-classpath.txt")"

jvm_args="-Xmx4g --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED"
jvm_args+=" --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.lang.invoke=ALL-UNNAMED"
jvm_args+=" --add-opens=java.base/java.util=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
jvm_args+=" -Darrow.enable_unsafe_memory_access=true -Drowbridge.comet.jar=$comet_jar"
common=(-f 1 -wi 3 -w 1 -i 5 -r 1 -prof gc -rf json -jvmArgsAppend "$jvm_args")
# shellcheck disable=SC2206
extra=(${JMH_ARGS:-})

jmh() {
  java -cp "$classpath" org.openjdk.jmh.Main C2RBenchmark "${common[@]}" "${extra[@]}" "$@"
}

echo "== JMH: record (1 M rows) at 8192/512/32 rows per batch"
jmh -p schema=record -p batchRows=8192,512,32 -p impl=spark,rowbridge,comet \
  -p consumer=seed,noalloc -rff "$out/jmh-record.json" | grep -E '^(C2RBenchmark|Benchmark)' || true
echo "== JMH: Arrow C Data export alone"
jmh -p schema=record -p batchRows=8192,512,32 -p impl=ffi_export -p consumer=noalloc \
  -rff "$out/jmh-ffi.json" | grep -E '^(C2RBenchmark|Benchmark)' || true
echo "== JMH: wide_strings (256 K rows) at 8192 rows per batch"
jmh -p schema=wide_strings -p batchRows=8192 -p impl=spark,rowbridge,comet,ffi_export \
  -p consumer=seed,noalloc -rff "$out/jmh-wide.json" | grep -E '^(C2RBenchmark|Benchmark)' || true

echo "== JMH: nested (128 K rows) at 8192 rows per batch (Comet's converter: flat schemas only)"
jmh -p schema=nested -p batchRows=8192 -p impl=spark,rowbridge,ffi_export \
  -p consumer=seed,noalloc -rff "$out/jmh-nested.json" | grep -E '^(C2RBenchmark|Benchmark)' || true

java -cp "$classpath" io.rowbridge.jmh.Report "$out/jvm-c2r.json" "$img/jvm-c2r.png" \
  "make bench-jvm (java/rowbridge-jmh/bench.sh; JMH -f 1 -wi 3 -i 5 -r 1s -prof gc ${JMH_ARGS:-})" \
  "$out/jmh-record.json" "$out/jmh-ffi.json" "$out/jmh-wide.json" "$out/jmh-nested.json"
