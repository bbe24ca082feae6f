#!/usr/bin/env bash
# Runs the Python exchange suites (python/tests, pytest) on one Spark line, against that
# line's PySpark from PyPI and rowbridge's jars of the same line (built by Maven before).
#
#   scripts/python_tests.sh LINE [PYTEST ARGS...]     LINE: 4.1, 4.0 or 3.5
#
# The 4.1 line uses make deps' virtual environment (build/venv); another line gets its own,
# build/venv-spark-LINE, from scripts/python-requirements-spark-LINE.txt, made again whenever
# that file changes. Local mode runs in one pytest process and local-cluster mode in another
# (one SparkContext per process); on 4.1, a third runs the suite over Apache Comet's scans, with
# Comet's jar in place of arrow-c-data (scripts/rowbridge_classpath.sh 4.1 comet).
set -euo pipefail

cd "$(dirname "$0")/.."
line=${1:?usage: scripts/python_tests.sh LINE [PYTEST ARGS...]}
shift

case "$line" in
  4.1) venv=build/venv ;;
  4.2 | 4.0 | 3.5) venv=build/venv-spark-$line ;;
  *) echo "python_tests: unknown Spark line '$line' (4.2, 4.1, 4.0 or 3.5)" >&2; exit 2 ;;
esac

if [[ "$line" != 4.1 ]]; then
  scripts/requirements_venv.sh "$venv" "scripts/python-requirements-spark-$line.txt"
fi

ROWBRIDGE_CLASSPATH=$(scripts/rowbridge_classpath.sh "$line")
export ROWBRIDGE_CLASSPATH
export JAVA_HOME="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}"
unset SPARK_HOME

python="$PWD/$venv/bin/python3"
echo "== Python exchange suites on Spark $line ($("$python" -c 'import pyspark; print("pyspark", pyspark.__version__)'))"
cd python/tests
pytest=("$python" -m pytest -p no:cacheprovider -q -W ignore::DeprecationWarning)
"${pytest[@]}" test_map_in_batch.py test_columnar_input.py test_scalar_udfs.py test_grouped.py \
  test_plain_udfs.py test_java_hash.py "$@"
"${pytest[@]}" test_local_cluster.py "$@"
if [[ "$line" == 4.1 ]]; then
  ROWBRIDGE_CLASSPATH=$(cd ../.. && scripts/rowbridge_classpath.sh 4.1 comet) \
    "${pytest[@]}" test_comet_input.py test_comet_frames.py "$@"
fi
