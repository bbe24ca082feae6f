#!/usr/bin/env bash
# TPC-H end to end (make bench-spark; docs/BENCHMARKS.md, section TPC-H): the 22 TPC-H
# queries and five whole-row queries (java/rowbridge-bench: TpchQueries, TpchBench) in Spark
# local mode over tables tpchgen-cli generated, in the modes
#   rowbridge     = format("rowbridge") columnar batches, rows by rowbridge's transition,
#   spark-c2r     = the same batches, rows by Spark's own ColumnarToRow,
#   spark-c2r-aa  = spark-c2r's configuration again, timed as a mode of its own (A/A twin),
#   rows          = the source's row mode,
#   parquet       = Spark's Parquet reader on a copy Spark wrote itself;
# all in one JVM with the default settings, then UNSAFE_MODES in a second JVM with Arrow
# Java's checks off (-Darrow.enable_unsafe_memory_access=true
# -Darrow.enable_null_check_for_get=false, read once when Arrow's classes load).
# 1. Data (cached under DATA_DIR, kept): tpch_data.py (tpchgen-cli Parquet, Arrow IPC files);
#    TpchBench writes Spark's Parquet copy and the nested dataset on first use.
# 2. Per query: a warm-up run per mode, then ROUNDS rounds with the modes interleaved, their
#    order reversed every other round; answers compared across every mode of both JVMs.
# 3. tpch_report.py: OUT_DIR/tpch.json, a Markdown table, PLOT (a PNG).
# 4. With Apache Comet (COMET_MODES, default all five), a JVM per COMET_SHUFFLE setting
#    (default "off on": Comet's shuffle off, then on): the Parquet copies read by Comet's native
#    scans, rows by rowbridge's transition (comet-rowbridge) or by Comet's JVM
#    transition (comet-jvm, its A/A twin comet-jvm-aa), its direct converter (comet-direct) or
#    its native one (comet-native). Its class path is the others' with Comet's jar and without
#    arrow-c-data (java/README.md, "With Apache Comet"). Each writes
#    OUT_DIR/tpch-comet-shuffle-SETTING.json; tpch_comet_report.py writes
#    OUT_DIR/tpch-comet-shuffle-SETTING-report.json and prints the table.
# 5. WriteBench (WRITES=1, the default): lineitem written by format("rowbridge"), Spark's
#    Parquet writer and ArrowWriter + ArrowFileWriter, all ZSTD (OUT_DIR/writes.json).
#
#   java/rowbridge-bench/tpch.sh [OUT_DIR]          (after make java)
#
# Environment: BUILD (build), LINE (the Spark line: 4.1, or 4.2 without Comet), SCALE (1), DATA_DIR ($BUILD/tpch/sf$SCALE), ROUNDS (5),
# QUERIES (all, or q01,q06,sort-lineitem,...), MODES (all five), UNSAFE_MODES
# (rowbridge,spark-c2r; empty: no second JVM), COMET_MODES (comet-rowbridge,comet-jvm,
# comet-jvm-aa,comet-direct,comet-native; empty: no Comet JVM), COMET_SHUFFLE (off on),
# PLOT (docs/img/tpch.png),
# BENCH_JAVA_OPTS (-Xmx6g), WRITES (1), WRITE_ROUNDS (3).
set -euo pipefail
cd "$(dirname "$0")/../.."

build=${BUILD:-build}
out=${1:-$build/bench}
# The Spark line (run.sh's LINE); Comet's modes only on 4.1, where Comet 1.2.0 exists.
line=${LINE:-4.1}
export LINE=$line
target=java/rowbridge-bench/target
[[ "$line" == 4.1 ]] || target+=/${line}_2.13
scale=${SCALE:-1}
data=${DATA_DIR:-$build/tpch/sf$scale}
rounds=${ROUNDS:-5}
queries=${QUERIES:-all}
modes=${MODES:-rowbridge,spark-c2r,spark-c2r-aa,rows,parquet}
unsafe_modes=${UNSAFE_MODES-rowbridge,spark-c2r}
comet_modes=${COMET_MODES-comet-rowbridge,comet-jvm,comet-jvm-aa,comet-direct,comet-native}
[[ "$line" == 4.1 ]] || comet_modes=
plot=${PLOT:-docs/img/tpch.png}
[[ "$line" == 4.1 || -n "${PLOT:-}" ]] || plot=$out/tpch.png
python=$build/venv/bin/python3
jvm=${BENCH_JAVA_OPTS:--Xmx6g}
mkdir -p "$out"
# Build once, then run from copies of the benchmarks' and rowbridge's jars, with a class path file
# of its own: builds in the same tree (make run, make java) rewrite java/*/target and run.sh's
# class path file while the benchmark runs.
jars=$build/tpch/jars
[[ "$line" == 4.1 ]] || jars+=-$line
if [[ "${BENCH_SKIP_BUILD:-0}" != 1 || ! -s "$jars/classpath.txt" ]]; then
  BENCH_BUILD_ONLY=1 BENCH_CLASSPATH_FILE="$jars-maven-classpath.txt" \
    java/rowbridge-bench/run.sh
  rm -rf "$jars" && mkdir -p "$jars"
  entries=("$PWD/$(ls "$target"/rowbridge-bench-*.jar)")
  IFS=: read -ra maven < "$jars-maven-classpath.txt" || true  # no newline at its end
  for entry in "${maven[@]}"; do
    if [[ "$entry" == *rowbridge* ]]; then
      cp -r "$entry" "$jars/" && entries+=("$PWD/$jars/$(basename "$entry")")
    else
      entries+=("$entry")
    fi
  done
  cp "${entries[0]}" "$jars/" && entries[0]="$PWD/$jars/$(basename "${entries[0]}")"
  (IFS=:; echo "${entries[*]}") > "$jars/classpath.txt"
  # The Comet JVM's: Comet's jar in place of arrow-c-data, whose org.apache.arrow.c it replaces.
  if [[ "$line" == 4.1 ]]; then
    flock "$build/.java.lock" mvn -q -B -Dstyle.color=never -f java/pom.xml dependency:copy \
      -Dartifact=org.apache.datafusion:comet-spark-spark4.1_2.13:1.2.0 \
      -DoutputDirectory="$PWD/$jars"
    comet=("$PWD/$jars/comet-spark-spark4.1_2.13-1.2.0.jar")
    for entry in "${entries[@]}"; do
      [[ "$(basename "$entry")" == arrow-c-data-* ]] || comet+=("$entry")
    done
    (IFS=:; echo "${comet[*]}") > "$jars/classpath-comet.txt"
  fi
  git rev-parse --short HEAD > "$jars/commit" 2> /dev/null || echo unknown > "$jars/commit"
fi
export BENCH_SKIP_BUILD=1 BENCH_CLASSPATH_FILE=$jars/classpath.txt

"$python" java/rowbridge-bench/tpch_data.py "$scale" "$data"

common=(--data "$data" --scale "$scale" --rounds "$rounds" --queries "$queries")
echo "== TPC-H SF $scale, default JVM: $modes"
BENCH_MAIN=io.rowbridge.bench.TpchBench BENCH_JAVA_OPTS="$jvm" java/rowbridge-bench/run.sh \
  "${common[@]}" --modes "$modes" --json "$out/tpch-default.json"
runs=("$out/tpch-default.json")
if [[ -n "$unsafe_modes" ]]; then
  echo "== TPC-H SF $scale, Arrow Java's checks off: $unsafe_modes"
  BENCH_MAIN=io.rowbridge.bench.TpchBench BENCH_JAVA_OPTS="$jvm \
    -Darrow.enable_unsafe_memory_access=true -Darrow.enable_null_check_for_get=false" \
    java/rowbridge-bench/run.sh "${common[@]}" --modes "$unsafe_modes" \
    --json "$out/tpch-unsafe.json"
  runs+=("$out/tpch-unsafe.json")
fi
"$python" java/rowbridge-bench/tpch_report.py --out "$out/tpch.json" --plot "$plot" \
  --commit "$(cat "$jars/commit" 2> /dev/null || echo unknown)" "${runs[@]}"
if [[ -n "$comet_modes" ]]; then
  for shuffle in ${COMET_SHUFFLE-off on}; do
    echo "== TPC-H SF $scale with Apache Comet, Comet's shuffle $shuffle: $comet_modes"
    BENCH_MAIN=io.rowbridge.bench.TpchBench BENCH_JAVA_OPTS="$jvm" \
      BENCH_CLASSPATH_FILE=$jars/classpath-comet.txt java/rowbridge-bench/run.sh "${common[@]}" \
      --modes "$comet_modes" --comet-shuffle "$([[ $shuffle == on ]] && echo true || echo false)" \
      --json "$out/tpch-comet-shuffle-$shuffle.json"
    "$python" java/rowbridge-bench/tpch_comet_report.py \
      --out "$out/tpch-comet-shuffle-$shuffle-report.json" \
      --commit "$(cat "$jars/commit" 2> /dev/null || echo unknown)" \
      "$out/tpch-comet-shuffle-$shuffle.json"
  done
fi
if [[ "${WRITES:-1}" == 1 ]]; then
  echo "== writes: lineitem SF $scale (rowbridge ZSTD, Parquet ZSTD, ArrowWriter + ArrowFileWriter)"
  BENCH_MAIN=io.rowbridge.bench.WriteBench BENCH_JAVA_OPTS="$jvm" java/rowbridge-bench/run.sh \
    --data "$data" --rounds "${WRITE_ROUNDS:-3}" --json "$out/writes.json"
fi
