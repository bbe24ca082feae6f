#!/usr/bin/env bash
# Runs the end-to-end demonstration (make run) or the Spark benchmark (bench.sh) in one JVM:
# builds the demo module and its class path, then io.rowbridge.demo.Demo with the arguments.
#
#   java/rowbridge-demo/run.sh [Demo arguments...]       (after make java)
#
# Environment: BUILD (build), LINE (the Spark line, 4.1), DEMO_JAVA_OPTS (JVM options, default -Xmx4g), JAVA_HOME;
# DEMO_MAIN (the class to run, default io.rowbridge.demo.Demo; tpch.sh: TpchBench);
# DEMO_SKIP_BUILD=1 reuses the build and class path of a previous run (bench.sh's later JVMs);
# DEMO_CLASSPATH_FILE (default $BUILD/demo-classpath.txt) where that class path is kept;
# DEMO_BUILD_ONLY=1 builds and writes the class path, and runs nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."

build=${BUILD:-build}
mkdir -p "$build"
# The Spark line (LINE: 4.1, the default, or 4.2, 4.0, 3.5): its Maven profile and build folder.
line=${LINE:-4.1}
profile=() classes=java/rowbridge-demo/target/classes
if [[ "$line" != 4.1 ]]; then
  profile=("-Pspark-$line")
  classes=java/rowbridge-demo/target/${line}_$([[ "$line" == 3.5 ]] && echo 2.12 || echo 2.13)/classes
fi
classpath_file="$PWD/${DEMO_CLASSPATH_FILE:-$build/demo-classpath.txt}"
# The same lock as the Makefile's Maven runs: one Maven build of java/ at a time. The reactor
# (-am) resolves rowbridge-core and rowbridge-spark from this tree, never from ~/.m2.
[[ "${DEMO_SKIP_BUILD:-0}" == 1 && -s "$classpath_file" ]] || flock "$build/.java.lock" mvn -q -B -Dstyle.color=never -f java/pom.xml \
  "${profile[@]}" -Drowbridge.native.dir="$PWD/$build/jni/lib" -DskipTests -pl rowbridge-demo -am \
  package dependency:build-classpath -Dmdep.includeScope=runtime \
  -Dmdep.outputFile="$classpath_file"
[[ "${DEMO_BUILD_ONLY:-0}" != 1 ]] || exit 0

opens="--add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED"
opens+=" --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.lang.invoke=ALL-UNNAMED"
opens+=" --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED"
opens+=" --add-opens=java.base/sun.util.calendar=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
# shellcheck disable=SC2086
exec java ${DEMO_JAVA_OPTS:--Xmx4g} $opens \
  -cp "$classes:$(cat "$classpath_file")" "${DEMO_MAIN:-io.rowbridge.demo.Demo}" "$@"
