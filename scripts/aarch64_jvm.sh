#!/usr/bin/env bash
# An aarch64 JVM for make long-aarch64: Debian's arm64 OpenJDK 17 runtime and the
# arm64 libraries it loads beyond glibc, downloaded with `apt-get download` and
# unpacked with `dpkg -x` into DIR/root (never installed: no second `java`
# on the machine), and DIR/bin/java, which runs its java under qemu-aarch64 over
# Debian's cross glibc (libc6-arm64-cross). Debian's package lists must know
# arm64: this adds the architecture (dpkg --add-architecture, which installs
# nothing) and updates the lists once. Idempotent.
#
#   scripts/aarch64_jvm.sh DIR
set -euo pipefail

dir=$(mkdir -p "$1" && cd "$1" && pwd)
root="$dir/root"
packages=(openjdk-17-jre-headless:arm64 libstdc++6:arm64 libgcc-s1:arm64 zlib1g:arm64)
jdk="$root/usr/lib/jvm/java-17-openjdk-arm64"

if [[ "$(id -u)" -eq 0 ]]; then
  SUDO=()
else
  SUDO=(sudo)
fi

if [[ "$(cat "$dir/.packages" 2>/dev/null)" != "${packages[*]}" || ! -x "$jdk/bin/java" ]]; then
  if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    echo "aarch64_jvm: adding the arm64 architecture to Debian's package lists"
    "${SUDO[@]}" dpkg --add-architecture arm64
    "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  fi
  rm -rf "$dir/debs" "$root"
  mkdir -p "$dir/debs" "$root"
  echo "aarch64_jvm: downloading ${packages[*]}"
  if ! (cd "$dir/debs" && apt-get download -qq -o APT::Sandbox::User=root "${packages[@]}"); then
    "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    (cd "$dir/debs" && apt-get download -qq -o APT::Sandbox::User=root "${packages[@]}")
  fi
  for deb in "$dir"/debs/*.deb; do
    dpkg -x "$deb" "$root"
  done
  # Absolute links (lib/jvm.cfg -> /etc/java-17-openjdk/jvm-arm64.cfg, ...) point
  # into the unpacked tree instead of the host's.
  while IFS= read -r link; do
    target=$(readlink "$link")
    if [[ -e "$root$target" ]]; then
      ln -sfn "$root$target" "$link"
    fi
  done < <(find "$root" -type l -lname '/*')
  echo "${packages[*]}" >"$dir/.packages"
fi

# DIR/release: Surefire reads the Java version of a `jvm` from ../release.
mkdir -p "$dir/bin"
cp "$jdk/release" "$dir/release"
libraries="$root/usr/lib/aarch64-linux-gnu:$root/lib/aarch64-linux-gnu"
# Processes the JVM starts (pyarrow's python in the scan tests) are the host's:
# started by fork and exec, not through the JDK's arm64 jspawnhelper, which
# the host cannot run without binfmt.
cat >"$dir/bin/java" <<EOF
#!/bin/sh
# Debian's arm64 java under qemu-aarch64 (scripts/aarch64_jvm.sh).
exec qemu-aarch64 -L /usr/aarch64-linux-gnu -E LD_LIBRARY_PATH=$libraries $jdk/bin/java \\
  -Djdk.lang.Process.launchMechanism=FORK "\$@"
EOF
chmod +x "$dir/bin/java"
"$dir/bin/java" -version 2>&1 | sed 's/^/aarch64_jvm: /'
