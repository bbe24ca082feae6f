#!/usr/bin/env bash
# make bench-python: the Python exchange benchmark (python/bench/python_exchange_bench.py)
# over TPC-H lineitem at SF 1 and make run's nested dataset, in PySpark local[2] with the
# pinned PySpark of make deps and rowbridge's jars of the default Spark line (or of LINE's).
#
#   scripts/bench_python.sh OUT_DIR [PLOT]
#
# Then the same identity cases over Apache Comet's scan of lineitem, in a session with Comet's
# plugin (--comet: rowbridge, Spark's path through Comet's transition, the A/A twin and Comet's
# own exchange), and to_arrow and to_pandas of Comet's scan (arrow_frames_bench.py --comet),
# unless CASES names cases or COMET=0.
#
# Then DataFrames to and from Arrow and pandas over lineitem (python/bench/frames_bench.py:
# rowbridge.spark's to_arrow, to_pandas and create_dataframe against PySpark's own), and of
# Arrow-native plans (python/bench/arrow_frames_bench.py: lineitem as LZ4 IPC files and as the
# Arrow cache, against PySpark's own and pyarrow reading the files).
#
# Then the same DataFrames on a Spark Connect session (python/bench/connect_frames_bench.py:
# rowbridge.spark's to_arrow, to_pandas and create_dataframe against Connect's own, over cached
# rows and an Arrow-native plan), unless CONNECT=0.
#
# Then plain (pickled) Python UDFs over lineitem (python/bench/plain_udf_bench.py: Spark's
# pickled path, rowbridge's, Spark's useArrow path and SQL, with an A/A twin).
#
# Environment: BUILD (build), LINE (4.1; 4.2 runs without Comet's part), ROUNDS (3), CASES
# (every case; names separated by semicolons), COMET (1), FRAMES (1), CONNECT (1), PLAIN_UDF (1),
# PLAIN_UDF_ROUNDS (ROUNDS). Writes OUT_DIR/python.json, OUT_DIR/python-frames.json,
# OUT_DIR/python-arrow-frames.json, OUT_DIR/python-connect.json,
# OUT_DIR/plain-udf.json, OUT_DIR/python-comet.json, OUT_DIR/python-arrow-frames-comet.json and the plot (default docs/img/python.png;
# none on another line); prints the tables.
set -euo pipefail

cd "$(dirname "$0")/.."
out=${1:?usage: scripts/bench_python.sh OUT_DIR [PLOT]}
plot=${2:-docs/img/python.png}
build=${BUILD:-build}
# The Spark line (LINE: 4.1, the default, or 4.2): its PySpark's virtual environment and
# rowbridge's jars of that line; Comet's part only on 4.1, where Comet 1.2.0 exists.
line=${LINE:-4.1}
venv=$build/venv
if [[ "$line" != 4.1 ]]; then
  venv=$build/venv-spark-$line
  scripts/requirements_venv.sh "$venv" "scripts/python-requirements-spark-$line.txt"
  plot=${2:-}  # no plot unless named: matplotlib is in make deps' environment only
  COMET=0
fi
python=$PWD/$venv/bin/python3
mkdir -p "$out" "$(dirname "${plot:-$out/none}")"

# The data, kept between runs: TPC-H (tpchgen-cli, then Arrow IPC) and make run's datasets.
"$PWD/$build/venv/bin/python3" java/rowbridge-bench/tpch_data.py 1 "$build/tpch/sf1"
java/rowbridge-demo/run.sh --data "$build/demo" --suite data

ROWBRIDGE_CLASSPATH=$(scripts/rowbridge_classpath.sh "$line")
export ROWBRIDGE_CLASSPATH
unset SPARK_HOME
"$python" python/bench/python_exchange_bench.py \
  --lineitem "$build/tpch/sf1/generated/lineitem.parquet" \
  --lineitem-arrow "$build/tpch/sf1/arrow/lineitem" \
  --nested "$build/demo/nested" \
  --rounds "${ROUNDS:-3}" ${CASES:+--cases "$CASES"} \
  --json "$out/python.json" ${plot:+--plot "$plot"}

# DataFrames to and from Arrow and pandas (rowbridge.spark against PySpark's own), unless CASES
# names exchange cases or FRAMES=0.
if [[ -z "${CASES:-}" && "${FRAMES:-1}" != 0 ]]; then
  "$python" python/bench/frames_bench.py \
    --lineitem "$build/tpch/sf1/generated/lineitem.parquet" \
    --rounds "${ROUNDS:-3}" --json "$out/python-frames.json"
  "$python" python/bench/arrow_frames_bench.py \
    --lineitem "$build/tpch/sf1/generated/lineitem.parquet" \
    --files "$build/tpch/sf1/lineitem-lz4" \
    --rounds "${ROUNDS:-3}" --json "$out/python-arrow-frames.json"
fi

# rowbridge.spark on Spark Connect, unless CASES names exchange cases or CONNECT=0 (after the
# Arrow frames benchmark, which writes the IPC files).
if [[ -z "${CASES:-}" && "${CONNECT:-1}" != 0 ]]; then
  "$python" python/bench/connect_frames_bench.py \
    --lineitem "$build/tpch/sf1/generated/lineitem.parquet" \
    --files "$build/tpch/sf1/lineitem-lz4" \
    --rounds "${ROUNDS:-3}" --json "$out/python-connect.json"
fi

# Plain (pickled) Python UDFs, unless CASES names exchange cases or PLAIN_UDF=0.
if [[ -z "${CASES:-}" && "${PLAIN_UDF:-1}" != 0 ]]; then
  "$python" python/bench/plain_udf_bench.py \
    --lineitem "$build/tpch/sf1/generated/lineitem.parquet" \
    --rounds "${PLAIN_UDF_ROUNDS:-${ROUNDS:-3}}" --json "$out/plain-udf.json"
fi

if [[ -z "${CASES:-}" && "${COMET:-1}" != 0 ]]; then
  ROWBRIDGE_CLASSPATH=$(scripts/rowbridge_classpath.sh 4.1 comet) "$python" \
    python/bench/python_exchange_bench.py --comet \
    --lineitem "$build/tpch/sf1/generated/lineitem.parquet" \
    --rounds "${ROUNDS:-3}" --json "$out/python-comet.json"
  if [[ "${FRAMES:-1}" != 0 ]]; then
    ROWBRIDGE_CLASSPATH=$(scripts/rowbridge_classpath.sh 4.1 comet) "$python" \
      python/bench/arrow_frames_bench.py --comet \
      --lineitem "$build/tpch/sf1/generated/lineitem.parquet" \
      --files "$build/tpch/sf1/lineitem-lz4" \
      --rounds "${ROUNDS:-3}" --json "$out/python-arrow-frames-comet.json"
  fi
fi
