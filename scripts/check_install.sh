#!/usr/bin/env bash
# Installs a build into a temporary prefix and checks what a user gets:
#   - the files: lib/librowbridge.so.0 (the SONAME), the headers (the generated
#     rowbridge/version.h included), lib/cmake/rowbridge/rowbridgeConfig.cmake;
#   - the SONAME, and a dynamic symbol table holding only the rowbridge API;
#   - examples/cpp_consumer, built with find_package(rowbridge) against the
#     prefix, and examples/c_consumer, compiled with gcc -std=c11 against it:
#     both must run and print examples/expected_output.txt.
#
#   scripts/check_install.sh BUILD_DIR
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=$(cd "$1" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/rowbridge-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"

fail() {
  echo "check_install: $*" >&2
  exit 1
}

echo "check_install: installing $build_dir into $prefix"
cmake --install "$build_dir" --prefix "$prefix" >"$work/install.log" ||
  { cat "$work/install.log" >&2; fail "cmake --install failed"; }

for file in \
    lib/librowbridge.so.0 \
    lib/librowbridge.so \
    include/rowbridge/rowbridge.h \
    include/rowbridge/arrow_c_data.h \
    include/rowbridge/export.h \
    include/rowbridge/version.h \
    include/rowbridge/converter.hpp \
    include/rowbridge/status.hpp \
    include/rowbridge/status_codes.h \
    include/rowbridge/spark_type.hpp \
    lib/cmake/rowbridge/rowbridgeConfig.cmake \
    lib/cmake/rowbridge/rowbridgeConfigVersion.cmake \
    lib/cmake/rowbridge/rowbridgeTargets.cmake; do
  [[ -e "$prefix/$file" ]] || fail "the install lacks $file"
done
if [[ -e "$prefix/include/rowbridge/version.h.in" ]]; then
  fail "the install holds the template version.h.in"
fi
# Every header the installed headers include is installed too.
while IFS= read -r included; do
  [[ -e "$prefix/include/$included" ]] || fail "an installed header includes $included, not installed"
done < <(grep -ho '#include "rowbridge/[^"]*"' "$prefix"/include/rowbridge/* | sed 's/.*"\(.*\)"/\1/' | sort -u)

if [[ -x "$build_dir/bin/rowbridge" ]]; then
  [[ -x "$prefix/bin/rowbridge" ]] || fail "the install lacks bin/rowbridge, the command line"
  "$prefix/bin/rowbridge" --help >/dev/null || fail "the installed bin/rowbridge --help failed"
fi

library=$(readlink -f "$prefix/lib/librowbridge.so.0")
soname=$(readelf -d "$library" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[[ "$soname" == "librowbridge.so.0" ]] || fail "SONAME is '$soname', expected librowbridge.so.0"
echo "check_install: SONAME $soname"
"$root/scripts/check_symbols.sh" "$library"

expected="$root/examples/expected_output.txt"

echo "check_install: building examples/cpp_consumer with find_package(rowbridge)"
cmake -S "$root/examples/cpp_consumer" -B "$work/cpp_consumer" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_CXX_FLAGS="-Werror" >"$work/cpp_configure.log" ||
  { cat "$work/cpp_configure.log" >&2; fail "configuring examples/cpp_consumer failed"; }
cmake --build "$work/cpp_consumer" || fail "building examples/cpp_consumer failed"
"$work/cpp_consumer/cpp_consumer" >"$work/cpp_output.txt" || fail "cpp_consumer exited with $?"
diff -u "$expected" "$work/cpp_output.txt" || fail "cpp_consumer printed unexpected rows"
echo "check_install: cpp_consumer output matches examples/expected_output.txt"

echo "check_install: compiling examples/c_consumer with gcc -std=c11"
gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -I"$prefix/include" \
  "$root/examples/c_consumer/main.c" -o "$work/c_consumer" \
  -L"$prefix/lib" -lrowbridge -Wl,-rpath,"$prefix/lib" || fail "compiling c_consumer failed"
"$work/c_consumer" >"$work/c_output.txt" || fail "c_consumer exited with $?"
diff -u "$expected" "$work/c_output.txt" || fail "c_consumer printed unexpected rows"
echo "check_install: c_consumer output matches examples/expected_output.txt"
echo "check_install: OK"
