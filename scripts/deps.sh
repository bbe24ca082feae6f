#!/usr/bin/env bash
# Installs the Debian packages and the Python packages that building and
# testing rowbridge needs. Idempotent and quick: when everything is present it
# only queries dpkg and compares one file. Works as root, or through sudo.
#
#   scripts/deps.sh                 the build and test packages
#   scripts/deps.sh clang-format    those plus extra Debian packages
set -euo pipefail

cd "$(dirname "$0")/.."

DEBIAN_PACKAGES=(
  build-essential
  cmake
  ninja-build
  libgtest-dev
  # GoogleTest's sources: the aarch64 test build compiles them (make test-aarch64).
  googletest
  libbenchmark-dev
  libcli11-dev
  nlohmann-json3-dev
  liblz4-dev
  libzstd-dev
  pkg-config
  # /usr/bin/time -v: peak RSS of rowbridge scan for docs/BENCHMARKS.md.
  time
  # The JVM side (java/, src/jni): a JDK 17 for javac -h, JNI headers and the
  # Maven build (Maven Central supplies Spark, Arrow Java, JUnit and JMH).
  openjdk-17-jdk-headless
  maven
  "$@"
)

# Python packages, one requirement per line (comments and blank lines are
# ignored); installed into the virtual environment build/venv when the file
# lists any, and again whenever the file changes. Tests find the interpreter
# at build/venv/bin/python3.
PYTHON_REQUIREMENTS=scripts/python-requirements.txt
PYTHON_VENV=build/venv

if [[ "$(id -u)" -eq 0 ]]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1; then
  SUDO=(sudo)
else
  SUDO=()
fi

# Returns 0 when the Debian package $1 is installed.
installed() {
  [[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" == "install ok installed" ]]
}

install_debian() {
  local missing=()
  local package
  for package in "$@"; do
    installed "$package" || missing+=("$package")
  done
  if [[ ${#missing[@]} -eq 0 ]]; then
    return 0
  fi
  if [[ "$(id -u)" -ne 0 && ${#SUDO[@]} -eq 0 ]]; then
    echo "deps: missing ${missing[*]}, and neither root nor sudo is available to install them" >&2
    exit 1
  fi
  echo "deps: installing ${missing[*]}"
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends "${missing[@]}"
  for package in "${missing[@]}"; do
    if ! installed "$package"; then
      echo "deps: $package is still not installed" >&2
      exit 1
    fi
  done
}

install_python() {
  [[ -f "$PYTHON_REQUIREMENTS" ]] || return 0
  if ! grep -qvE '^[[:space:]]*(#|$)' "$PYTHON_REQUIREMENTS"; then
    return 0
  fi
  local stamp="$PYTHON_VENV/.requirements"
  if [[ -f "$PYTHON_VENV/pyvenv.cfg" ]] && cmp -s "$stamp" "$PYTHON_REQUIREMENTS"; then
    return 0
  fi
  echo "deps: installing the Python packages of $PYTHON_REQUIREMENTS into $PYTHON_VENV"
  rm -rf "$PYTHON_VENV"
  # Debian's own python3 needs python3-venv for `-m venv`; other builds have it.
  if ! python3 -m venv "$PYTHON_VENV" >/dev/null 2>&1; then
    rm -rf "$PYTHON_VENV"
    install_debian python3-venv python3-pip
    python3 -m venv "$PYTHON_VENV"
  fi
  "$PYTHON_VENV/bin/python3" -m pip install -q --disable-pip-version-check \
    -r "$PYTHON_REQUIREMENTS"
  cp "$PYTHON_REQUIREMENTS" "$stamp"
}

install_debian "${DEBIAN_PACKAGES[@]}"
install_python
