#!/usr/bin/env bash
# Prints the class path of rowbridge's jars for one Spark line, as a PySpark session takes it
# (spark.driver.extraClassPath): the core and Spark jars Maven packaged under java/, and
# arrow-c-data at that line's Arrow Java version from the local Maven repository.
#
# With "comet" (Spark 4.1 only), the class path of a session with Apache Comet instead: the
# core, Spark and Comet jars of rowbridge, and Comet's own jar from the local Maven repository
# (Maven downloads it for rowbridge-comet's tests), without arrow-c-data, whose classes Comet's
# jar carries in its own build.
#
#   scripts/rowbridge_classpath.sh LINE [comet]       LINE: 4.2, 4.1, 4.0 or 3.5
set -euo pipefail

cd "$(dirname "$0")/.."
line=${1:?usage: scripts/rowbridge_classpath.sh LINE [comet]}
with=${2:-}
case "$line" in
  4.1) scala=2.13 arrow=18.3.0 target=target ;;
  4.2) scala=2.13 arrow=19.0.0 target=target/4.2_2.13 ;;
  4.0) scala=2.13 arrow=18.1.0 target=target/4.0_2.13 ;;
  3.5) scala=2.12 arrow=12.0.1 target=target/3.5_2.12 ;;
  *) echo "rowbridge_classpath: unknown Spark line '$line' (4.2, 4.1, 4.0 or 3.5)" >&2; exit 2 ;;
esac

modules=(core spark)
if [[ "$with" == comet ]]; then
  if [[ "$line" != 4.1 ]]; then
    echo "rowbridge_classpath: Comet's jar is built for Spark 4.1 only" >&2
    exit 2
  fi
  modules+=(comet)
elif [[ -n "$with" ]]; then
  echo "rowbridge_classpath: unknown option '$with' (comet)" >&2
  exit 2
fi

jars=()
for module in "${modules[@]}"; do
  jar=java/rowbridge-$module/$target/rowbridge-$module-${line}_$scala-0.1.0.jar
  if [[ ! -f "$jar" ]]; then
    echo "rowbridge_classpath: $jar is missing (Maven packages it first)" >&2
    exit 1
  fi
  jars+=("$(realpath "$jar")")
done
if [[ "$with" == comet ]]; then
  comet_version=$(sed -n 's:.*<comet.version>\(.*\)</comet.version>.*:\1:p' java/pom.xml)
  comet="$HOME/.m2/repository/org/apache/datafusion/comet-spark-spark4.1_2.13/$comet_version/comet-spark-spark4.1_2.13-$comet_version.jar"
  if [[ ! -f "$comet" ]]; then
    echo "rowbridge_classpath: $comet is missing (Maven downloads it with rowbridge-comet's tests)" >&2
    exit 1
  fi
  jars+=("$comet")
  (IFS=:; echo "${jars[*]}")
  exit 0
fi
c_data="$HOME/.m2/repository/org/apache/arrow/arrow-c-data/$arrow/arrow-c-data-$arrow.jar"
if [[ ! -f "$c_data" ]]; then
  echo "rowbridge_classpath: $c_data is missing (Maven downloads it with the build)" >&2
  exit 1
fi
jars+=("$c_data")
(IFS=:; echo "${jars[*]}")
