#!/usr/bin/env bash
# Runs the end-to-end demonstration (make run), io.rowbridge.demo.Demo with the arguments, through
# scripts/java_main.sh (which builds this module and its class path first).
#
#   java/rowbridge-demo/run.sh [Demo arguments...]       (after make java)
#
# Environment: BUILD (build), LINE (the Spark line, 4.1), DEMO_JAVA_OPTS (JVM options, default
# -Xmx4g), JAVA_HOME.
set -euo pipefail
cd "$(dirname "$0")/../.."

JVM_OPTS=${DEMO_JAVA_OPTS:--Xmx4g} SKIP_BUILD=0 BUILD_ONLY=0 CLASSPATH_FILE= \
  exec scripts/java_main.sh rowbridge-demo io.rowbridge.demo.Demo "$@"
