#!/usr/bin/env bash
# Runs a main class of one of java/'s modules in a JVM of its own, for one Spark line: builds the
# module and its run-time class path, then MAIN with the arguments. The launchers of the demo
# (java/rowbridge-demo/run.sh) and of the Spark benchmarks (java/rowbridge-bench/run.sh) set
# the environment and call it.
#
#   scripts/java_main.sh MODULE MAIN [ARGS...]          (after make java)
#
# Environment: BUILD (build), LINE (the Spark line, 4.1), JAVA_HOME;
# JVM_OPTS (JVM options, default -Xmx4g);
# CLASSPATH_FILE (default $BUILD/MODULE-classpath.txt) where the class path is kept;
# SKIP_BUILD=1 reuses the build and class path of a previous run;
# BUILD_ONLY=1 builds and writes the class path, and runs nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

usage="usage: scripts/java_main.sh MODULE MAIN [ARGS...] (MAIN may be empty with BUILD_ONLY=1)"
module=${1:?$usage}
main=${2-}
[[ -n "$main" || "${BUILD_ONLY:-0}" == 1 ]] || { echo "$usage" >&2; exit 2; }
shift 2
build=${BUILD:-build}
mkdir -p "$build"
# The Spark line (LINE: 4.1, the default, or 4.2, 4.0, 3.5): its Maven profile and build folder.
line=${LINE:-4.1}
profile=() classes=java/$module/target/classes
if [[ "$line" != 4.1 ]]; then
  profile=("-Pspark-$line")
  classes=java/$module/target/${line}_$([[ "$line" == 3.5 ]] && echo 2.12 || echo 2.13)/classes
fi
classpath_file="$PWD/${CLASSPATH_FILE:-$build/$module-classpath.txt}"
# The same lock as the Makefile's Maven runs: one Maven build of java/ at a time. The reactor
# (-am) resolves rowbridge's other modules from this tree, never from ~/.m2.
[[ "${SKIP_BUILD:-0}" == 1 && -s "$classpath_file" ]] || flock "$build/.java.lock" mvn -q -B -Dstyle.color=never -f java/pom.xml \
  "${profile[@]}" -Drowbridge.native.dir="$PWD/$build/jni/lib" -DskipTests -pl "$module" -am \
  package dependency:build-classpath -Dmdep.includeScope=runtime \
  -Dmdep.outputFile="$classpath_file"
[[ "${BUILD_ONLY:-0}" != 1 ]] || exit 0

opens="--add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED"
opens+=" --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.lang.invoke=ALL-UNNAMED"
opens+=" --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED"
opens+=" --add-opens=java.base/sun.util.calendar=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
# shellcheck disable=SC2086
exec java ${JVM_OPTS:--Xmx4g} $opens -cp "$classes:$(cat "$classpath_file")" "$main" "$@"
