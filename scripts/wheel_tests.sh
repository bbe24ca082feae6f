#!/usr/bin/env bash
# Runs the wheel's suites (python/wheel_tests, pytest) on one Spark line against the wheel that
# make wheel built (build/dist), installed as a user installs it: into a new virtual environment,
# beside that line's PySpark from PyPI, with no class path, SPARK_HOME or source tree to help.
#
#   scripts/wheel_tests.sh LINE [--connect] [PYTEST ARGS...]     LINE: 4.2, 4.1, 4.0 or 3.5
#
# The wheel's suites get the line's pins of polars and duckdb too (tables they make). --connect
# runs the Spark Connect suites (python/connect_tests) instead, in build/wheel-venv-LINE-connect,
# with the line's pins of pyspark[connect]'s client packages (grpcio, grpcio-status,
# googleapis-common-protos, protobuf, zstandard). PySpark 3.5 carries no Connect server: on 3.5
# the suites get the spark-connect jar java/pom.xml's spark-3.5 profile compiles against, copied
# by Maven from its repository (ROWBRIDGE_TEST_CONNECT_JARS), as a user adds it to spark.jars.
#
# Every run makes build/wheel-venv-LINE afresh and installs into it, in one pip command (so
# that the wheel's own requirements cannot move a pin), the wheel and the line's pins of
# pyspark, pyarrow, pandas, numpy and pytest: scripts/python-requirements.txt's for 4.1,
# scripts/python-requirements-spark-LINE.txt's for the others. pytest runs in python/wheel_tests
# (its rootdir), so that python/, where the package's sources are, is not on sys.path, and takes
# no configuration from python/; the script first checks that rowbridge imports from the
# environment's site-packages and has the line's jars.
set -euo pipefail

cd "$(dirname "$0")/.."
line=${1:?usage: scripts/wheel_tests.sh LINE [--connect] [PYTEST ARGS...]}
shift
suites=python/wheel_tests
venv_suffix=
extra_pins=(polars duckdb)
if [[ ${1:-} == --connect ]]; then
  shift
  suites=python/connect_tests
  venv_suffix=-connect
  extra_pins=(grpcio grpcio-status googleapis-common-protos protobuf zstandard)
fi

case "$line" in
  4.1) requirements=scripts/python-requirements.txt ;;
  4.2 | 4.0 | 3.5) requirements=scripts/python-requirements-spark-$line.txt ;;
  *) echo "wheel_tests: unknown Spark line '$line' (4.2, 4.1, 4.0 or 3.5)" >&2; exit 2 ;;
esac
fail() {
  echo "wheel_tests: $*" >&2
  exit 1
}

wheels=(build/dist/rowbridge-*.whl)
[[ ${#wheels[@]} -eq 1 && -f "${wheels[0]}" ]] ||
  fail "build/dist must hold exactly one rowbridge wheel (make wheel), not: ${wheels[*]}"
wheel=$(realpath "${wheels[0]}")
# A package of tests would make pytest put python/ on sys.path, ahead of the wheel.
[[ -d $suites && ! -e $suites/__init__.py ]] ||
  fail "$suites must be a folder of tests without __init__.py"

venv=$PWD/build/wheel-venv-$line$venv_suffix
started=$SECONDS
rm -rf "$venv"
python3 -m venv "$venv"
pins=$(grep -E '^(pyspark|pyarrow|pandas|numpy|pytest)==' "$requirements" || true)
[[ $(grep -c . <<<"$pins") -eq 5 ]] ||
  fail "$requirements must pin each of pyspark, pyarrow, pandas, numpy and pytest once"
for package in "${extra_pins[@]}"; do
  pin=$(grep -E "^$package==" "$requirements" || true)
  [[ $(grep -c . <<<"$pin") -eq 1 ]] || fail "$requirements must pin $package once"
  pins+=$'\n'$pin
done
echo "$pins" >"$venv/requirements.txt"
"$venv/bin/python3" -m pip install -q --disable-pip-version-check \
  -r "$venv/requirements.txt" "$wheel"
if [[ $line == 3.5 && -n $venv_suffix ]]; then
  connect_version=$(python3 - <<'EOF'
import xml.etree.ElementTree as ElementTree

ns = {"m": "http://maven.apache.org/POM/4.0.0"}
root = ElementTree.parse("java/pom.xml").getroot()
for profile in root.iterfind("m:profiles/m:profile", ns):
    if profile.findtext("m:id", namespaces=ns) == "spark-3.5":
        print(profile.findtext("m:properties/m:spark.connect.version", namespaces=ns))
EOF
  )
  [[ -n $connect_version ]] ||
    fail "java/pom.xml's spark-3.5 profile names no spark.connect.version"
  mvn -q -B -N -Dstyle.color=never -f java/pom.xml dependency:copy \
    -Dartifact="org.apache.spark:spark-connect_2.12:$connect_version" \
    -DoutputDirectory="$venv/connect-server" >"$venv/connect-server.log" 2>&1 ||
    fail "Maven could not copy org.apache.spark:spark-connect_2.12:$connect_version" \
      "($venv/connect-server.log)"
  export ROWBRIDGE_TEST_CONNECT_JARS=$venv/connect-server/spark-connect_2.12-$connect_version.jar
fi

# The environment as a user's activated one: its python3 first on PATH (PySpark's workers
# start python3), rowbridge's jars only those of the wheel.
export VIRTUAL_ENV=$venv
export PATH="$venv/bin:$PATH"
export JAVA_HOME="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}"
unset SPARK_HOME PYTHONPATH PYTHONHOME ROWBRIDGE_CLASSPATH PYSPARK_PYTHON PYSPARK_DRIVER_PYTHON \
  PYSPARK_SUBMIT_ARGS

cd "$suites"
python=$venv/bin/python3
site=$("$python" -c 'import os, sysconfig; print(os.path.realpath(sysconfig.get_path("purelib")))')
module=$("$python" -c 'import os, rowbridge; print(os.path.realpath(rowbridge.__file__))')
[[ "$module" == "$site/rowbridge/__init__.py" ]] ||
  fail "rowbridge imports from $module, not from $site (the installed wheel)"
"$python" - "$line" <<'EOF' || fail "the installed wheel lacks Spark $line's jars"
import json
import sys
from importlib import resources

jars = resources.files("rowbridge") / "jars"
entry = json.loads((jars / "lines.json").read_text())[sys.argv[1]]
missing = [name for name in entry["jars"] if not (jars / f"spark-{sys.argv[1]}" / name).is_file()]
sys.exit(f"missing {missing}" if missing else 0)
EOF

echo "== the wheel's suites ($suites) on Spark $line ($("$python" -c 'import pyspark; print("pyspark", pyspark.__version__)'), $(basename "$wheel"), environment made in $((SECONDS - started)) s)"
# pytest's configuration: python/wheel_tests/pytest.ini if there is one, never
# python/pyproject.toml (the wheel's build file, which pytest would take for lack of another).
config=/dev/null
[[ ! -f pytest.ini ]] || config=pytest.ini
"$python" -m pytest -c "$config" -p no:cacheprovider -q --rootdir . "$@"
