#!/usr/bin/env bash
# make bench-python: the Python exchange benchmark (python/bench/python_exchange_bench.py)
# over TPC-H lineitem at SF 1 and make run's nested dataset, in PySpark local[2] with the
# pinned PySpark of make deps and rowbridge's jars of the default Spark line.
#
#   scripts/bench_python.sh OUT_DIR [PLOT]
#
# Environment: BUILD (build), ROUNDS (3), CASES (every case; names separated by semicolons).
# Writes OUT_DIR/python.json and the plot (default docs/img/python.png); prints the table.
set -euo pipefail

cd "$(dirname "$0")/.."
out=${1:?usage: scripts/bench_python.sh OUT_DIR [PLOT]}
plot=${2:-docs/img/python.png}
build=${BUILD:-build}
python=$PWD/$build/venv/bin/python3
mkdir -p "$out" "$(dirname "$plot")"

# The data, kept between runs: TPC-H (tpchgen-cli, then Arrow IPC) and make run's datasets.
"$python" java/rowbridge-demo/tpch_data.py 1 "$build/tpch/sf1"
java/rowbridge-demo/run.sh --data "$build/demo" --suite data

ROWBRIDGE_CLASSPATH=$(scripts/rowbridge_classpath.sh 4.1)
export ROWBRIDGE_CLASSPATH
unset SPARK_HOME
"$python" python/bench/python_exchange_bench.py \
  --lineitem "$build/tpch/sf1/generated/lineitem.parquet" \
  --lineitem-arrow "$build/tpch/sf1/arrow/lineitem" \
  --nested "$build/demo/nested" \
  --rounds "${ROUNDS:-3}" ${CASES:+--cases "$CASES"} \
  --json "$out/python.json" --plot "$plot"
