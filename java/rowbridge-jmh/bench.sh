#!/usr/bin/env bash
# The side-by-side JMH benchmarks (make bench-jvm), with the GC profiler:
#
# 1. columnar -> row (C2RBenchmark): Spark's JVM path, rowbridge, Comet's transitions over
#    CometPlainVectors (its native converter, its JVM projection and the A/A twin of it, its
#    direct converter) and rowbridge over the same Comet vectors (flat schemas), and an Arrow C
#    Data export alone, in one JMH run per schema (record, wide_strings, nested). Writes
#    OUT_DIR/jvm-c2r.json (and the raw JMH JSON next to it) and IMG_DIR/jvm-c2r.png, and prints
#    the table.
# 2. row -> columnar (R2CBenchmark): rowbridge's decoder (add + decode, its A/A twin, and decode
#    alone of rows staged once), Spark's ArrowWriter and Spark's RowToColumnConverter into
#    OffHeapColumnVectors, 8192 rows per batch, per schema; and rowbridge at 1, 32 and 512 rows
#    per batch on "record" for the fixed cost of a batch. R2C_ROUNDS rounds (default 3), each
#    running every variant once (a JMH fork each: warm-up, then measurement), so that the
#    variants take turns. Writes OUT_DIR/jvm-r2c.json (medians over the rounds, speed-ups over
#    ArrowWriter, bytes allocated per batch, the fit time = a + b * rows) and prints the table.
#
# 3. staging attribution (StagingBenchmark, PARTS=staging, not run by default): per schema, the
#    ways of staging rows and the end-to-end paths timed variant against variant in one JVM,
#    interleaved; prints each variant's median ns per row and its paired ratio to rowbridge's
#    RowStaging.
#
#   java/rowbridge-jmh/bench.sh OUT_DIR IMG_DIR      (after make java)
#
# Environment: JMH_ARGS adds JMH options (e.g. "-wi 1 -i 2" for a quick look); R2C_ROUNDS;
# PARTS, the benchmarks to run (default "c2r r2c"; "r2c" skips columnar -> row and Comet's
# jar; "staging" is the attribution of 3.); JAVA_HOME.
set -euo pipefail
cd "$(dirname "$0")/../.."

out=${1:-build/bench}
img=${2:-docs/img}
mkdir -p "$out" "$img" build
# The same lock as the Makefile's Maven runs: one Maven build of java/ at a time.
mvn=(flock build/.java.lock mvn -q -B -Dstyle.color=never -f java/pom.xml)

parts=" ${PARTS:-c2r r2c} "
# The benchmark module with Comet's driver, its run-time class path, and Comet's jar (loaded by
# CometCase in its own class loader); row -> columnar alone needs neither.
comet_jar="$PWD/$out/comet/comet-spark-spark4.1_2.13-1.2.0.jar"
if [[ $parts == *" c2r "* ]]; then
  "${mvn[@]}" -Pcomet -pl rowbridge-jmh -DskipTests package
else
  "${mvn[@]}" -pl rowbridge-jmh -DskipTests package
fi
if [[ $parts == *" c2r "* ]]; then
  # -Pcomet: rowbridge-comet and rowbridge-spark (the rowbridge_comet case) on the class path.
  "${mvn[@]}" -Pcomet -pl rowbridge-jmh dependency:build-classpath -Dmdep.includeScope=runtime \
    -Dmdep.outputFile="$PWD/$out/jmh-classpath.txt"
  "${mvn[@]}" -Pcomet -pl rowbridge-jmh dependency:copy \
    -Dartifact=org.apache.datafusion:comet-spark-spark4.1_2.13:1.2.0 -DoutputDirectory="$PWD/$out/comet"
else
  "${mvn[@]}" -pl rowbridge-jmh dependency:build-classpath -Dmdep.includeScope=runtime \
    -Dmdep.outputFile="$PWD/$out/jmh-classpath.txt"
fi
# Comet's jar never goes on the class path (the dependency plugin lists the profile's provided
# jar): CometCase loads it in a class loader of its own.
classpath="java/rowbridge-jmh/target/classes:$(tr ':' '\n' <"$out/jmh-classpath.txt" |
  grep -v '/comet-spark-spark' | paste -sd:)"

jvm_args="-Xmx4g --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED"
jvm_args+=" --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.lang.invoke=ALL-UNNAMED"
jvm_args+=" --add-opens=java.base/java.util=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
jvm_args+=" -Darrow.enable_unsafe_memory_access=true -Drowbridge.comet.jar=$comet_jar"
# shellcheck disable=SC2206
extra=(${JMH_ARGS:-})
# JMH refuses an option given twice: an option of JMH_ARGS replaces the default's.
common=()
defaults=(-f 1 -wi 3 -w 1 -i 5 -r 1)
for ((k = 0; k < ${#defaults[@]}; k += 2)); do
  [[ " ${extra[*]} " == *" ${defaults[k]} "* ]] || common+=("${defaults[k]}" "${defaults[k + 1]}")
done
common+=(-prof gc -rf json -jvmArgsAppend "$jvm_args")

# jmh_run BENCHMARK [JMH OPTIONS...]
jmh_run() {
  local benchmark=$1
  shift
  java -cp "$classpath" org.openjdk.jmh.Main "$benchmark" "${common[@]}" "${extra[@]}" "$@"
}
jmh() {
  jmh_run C2RBenchmark "$@"
}

if [[ $parts == *" c2r "* ]]; then
  echo "== JMH: record (1 M rows) at 8192/512/32 rows per batch"
  jmh -p schema=record -p batchRows=8192,512,32 \
    -p impl=spark,rowbridge,rowbridge_comet,comet_jvm,comet_jvm_aa,comet_direct,comet \
    -p consumer=seed,noalloc -rff "$out/jmh-record.json" | grep -E '^(C2RBenchmark|Benchmark)' || true
  echo "== JMH: Arrow C Data export alone"
  jmh -p schema=record -p batchRows=8192,512,32 -p impl=ffi_export -p consumer=noalloc \
    -rff "$out/jmh-ffi.json" | grep -E '^(C2RBenchmark|Benchmark)' || true
  echo "== JMH: wide_strings (256 K rows) at 8192 rows per batch"
  jmh -p schema=wide_strings -p batchRows=8192 \
    -p impl=spark,rowbridge,rowbridge_comet,comet_jvm,comet_direct,comet,ffi_export \
    -p consumer=seed,noalloc -rff "$out/jmh-wide.json" | grep -E '^(C2RBenchmark|Benchmark)' || true

  echo "== JMH: nested (128 K rows) at 8192 rows per batch (Comet's converter: flat schemas only)"
  jmh -p schema=nested -p batchRows=8192 -p impl=spark,rowbridge,ffi_export \
    -p consumer=seed,noalloc -rff "$out/jmh-nested.json" | grep -E '^(C2RBenchmark|Benchmark)' || true

  java -cp "$classpath" io.rowbridge.jmh.Report "$out/jvm-c2r.json" "$img/jvm-c2r.png" \
    "make bench-jvm (java/rowbridge-jmh/bench.sh; JMH -f 1 -wi 3 -i 5 -r 1s -prof gc ${JMH_ARGS:-})" \
    "$out/jmh-record.json" "$out/jmh-ffi.json" "$out/jmh-wide.json" "$out/jmh-nested.json"
fi

if [[ $parts == *" r2c "* ]]; then
  rounds=${R2C_ROUNDS:-3}
  r2c_files=()
  r2c() {
    jmh_run R2CBenchmark "$@" | grep -E '^(R2CBenchmark|Benchmark)' || true
  }
  for round in $(seq 1 "$rounds"); do
    for schema in record wide_strings nested; do
      echo "== JMH row -> columnar, round $round/$rounds: $schema at 8192 rows per batch"
      r2c -p schema=$schema -p batchRows=8192 \
        -p impl=rowbridge,rowbridge_aa,rowbridge_decode,arrow_writer,spark_r2c \
        -rff "$out/jmh-r2c-$schema-$round.json"
      r2c_files+=("$out/jmh-r2c-$schema-$round.json")
    done
    echo "== JMH row -> columnar, round $round/$rounds: rowbridge on record at 1/32/512 rows per batch"
    r2c -p schema=record -p batchRows=1,32,512 -p impl=rowbridge,rowbridge_decode \
      -rff "$out/jmh-r2c-fixed-$round.json"
    r2c_files+=("$out/jmh-r2c-fixed-$round.json")
  done
  java -cp "$classpath" io.rowbridge.jmh.R2CReport "$out/jvm-r2c.json" \
    "make bench-jvm (java/rowbridge-jmh/bench.sh; R2CBenchmark, $rounds interleaved rounds of JMH -f 1 -wi 3 -i 5 -r 1s -prof gc ${JMH_ARGS:-})" \
    "${r2c_files[@]}"
fi

if [[ $parts == *" staging "* ]]; then
  echo "== JMH staging attribution: staging alone, then staged and decoded, interleaved"
  jmh_run StagingBenchmark -p schema=record,wide_strings,nested -p decode=false \
    -p variants=staging+staging_aa+copy+words+gather+read -rff "$out/jmh-staging.json" |
    grep -E '^(==|[a-z_]+ +[0-9]|[a-z_]+: )' || true
  jmh_run StagingBenchmark -p schema=record,wide_strings,nested -p decode=true \
    -p variants=rowbridge+rowbridge_aa+staging+arrow_writer+none -rff "$out/jmh-staging-decode.json" |
    grep -E '^(==|[a-z_]+ +[0-9]|[a-z_]+: )' || true
fi
