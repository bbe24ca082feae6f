#!/usr/bin/env bash
# Fails when a shared library would not load on every Linux of the glibc floor:
#   - a machine other than MACHINE (x86_64 or aarch64);
#   - a symbol version GLIBC_x.y newer than the floor (2.28, or GLIBC_FLOOR),
#     or any version of a library other than glibc (GLIBCXX_, CXXABI_, ...);
#   - a NEEDED library that is not glibc's own (libc, libm, libpthread, libdl,
#     librt, the dynamic loader): liblz4, libzstd, libstdc++, libgcc_s, ...
#
#   scripts/check_portable.sh MACHINE LIBRARY...
set -euo pipefail

machine=$1
shift
floor=${GLIBC_FLOOR:-2.28}
case "$machine" in
  x86_64) elf_machine="Advanced Micro Devices X86-64" loader="ld-linux-x86-64.so.2" ;;
  aarch64) elf_machine="AArch64" loader="ld-linux-aarch64.so.1" ;;
  *) echo "check_portable: unknown machine $machine" >&2; exit 2 ;;
esac
glibc_libraries="^(libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|librt\.so\.1|${loader//./\\.})$"

# Returns 0 when version $1 (x.y or x.y.z) is newer than $2.
newer() {
  [[ "$1" != "$2" && "$(printf '%s\n%s\n' "$1" "$2" | sort -V | tail -n 1)" == "$1" ]]
}

failed=0
for library in "$@"; do
  problems=()
  actual=$(readelf -h "$library" | sed -n 's/^ *Machine: *//p')
  [[ "$actual" == "$elf_machine" ]] || problems+=("machine is '$actual', not $machine")

  # The versions the dynamic loader checks: the version needs (.gnu.version_r).
  newest=0
  while read -r version; do
    if [[ "$version" =~ ^GLIBC_([0-9.]+)$ ]]; then
      number=${BASH_REMATCH[1]}
      newer "$number" "$newest" && newest=$number
      if newer "$number" "$floor"; then
        symbols=$(objdump -T "$library" | awk -v v="$version" '$0 ~ "[( ]"v"[) ]" { print $NF }' |
                  sort -u | tr '\n' ' ')
        problems+=("needs $version (newer than $floor) for: $symbols")
      fi
    else
      problems+=("needs $version, a version of a library other than glibc")
    fi
  done < <(readelf -W -V "$library" | sed -n 's/.*Name: \([A-Za-z0-9_.]*\) .*Flags.*/\1/p' | sort -u)

  needed=$(readelf -d "$library" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
  while read -r name; do
    [[ -z "$name" || "$name" =~ $glibc_libraries ]] || problems+=("needs $name, not part of glibc")
  done <<<"$needed"

  if [[ ${#problems[@]} -gt 0 ]]; then
    echo "check_portable: $library:" >&2
    printf '  %s\n' "${problems[@]}" >&2
    failed=1
  else
    echo "check_portable: $library: $machine, GLIBC_$newest at most (floor $floor), needs" \
         "$(tr '\n' ' ' <<<"$needed")"
  fi
done
exit "$failed"
