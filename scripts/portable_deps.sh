#!/usr/bin/env bash
# Installs what the portable builds (cmake/toolchains/zig-*.cmake) need, from
# PyPI, pinned and hash-checked, into BUILD_DIR/portable:
#   zig/ziglang/zig   Zig's C/C++ toolchain (scripts/portable-requirements.txt)
#   src/lz4, src/zstd the LZ4 and Zstandard C sources, unpacked from the sdists
#                     of scripts/compression-sources.txt
# Idempotent: each part is installed again only when its list changes.
# Needs build/venv (scripts/deps.sh) for pip.
#
#   scripts/portable_deps.sh BUILD_DIR
set -euo pipefail

cd "$(dirname "$0")/.."
build_dir=$1
portable="$build_dir/portable"
pip=(build/venv/bin/python3 -m pip -q --disable-pip-version-check)
mkdir -p "$portable"

toolchain_list=scripts/portable-requirements.txt
if ! cmp -s "$toolchain_list" "$portable/.toolchain" || [[ ! -x "$portable/zig/ziglang/zig" ]]; then
  echo "deps: installing Zig ($toolchain_list) into $portable/zig"
  rm -rf "$portable/zig"
  "${pip[@]}" install --no-deps --only-binary :all: --require-hashes \
    --target "$portable/zig" -r "$toolchain_list"
  cp "$toolchain_list" "$portable/.toolchain"
fi

sources_list=scripts/compression-sources.txt
if ! cmp -s "$sources_list" "$portable/.sources" || [[ ! -f "$portable/src/zstd/zstd.c" ]]; then
  echo "deps: unpacking the LZ4 and Zstandard sources ($sources_list) into $portable/src"
  work=$(mktemp -d "${TMPDIR:-/tmp}/rowbridge-sources.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  # Source only: pip prepares each sdist's metadata, which needs its build
  # backend (setuptools) in an isolated environment, but builds nothing.
  "${pip[@]}" download --no-deps --no-binary lz4,zstandard --require-hashes -d "$work" -r "$sources_list"
  rm -rf "$portable/src"
  mkdir -p "$portable/src/lz4" "$portable/src/zstd"
  tar -xzf "$work"/lz4-*.tar.gz -C "$work"
  tar -xzf "$work"/zstandard-*.tar.gz -C "$work"
  cp "$work"/lz4-*/lz4libs/*.[ch] "$portable/src/lz4/"
  cp "$work"/zstandard-*/zstd/*.[ch] "$work"/zstandard-*/zstd/LICENSE "$portable/src/zstd/"
  cp "$sources_list" "$portable/.sources"
fi
