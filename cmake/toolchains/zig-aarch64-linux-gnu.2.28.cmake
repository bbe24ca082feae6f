# AArch64 Linux, glibc 2.28 or newer, cross-compiled: librowbridge_jni.so and
# librowbridge.so for linux/aarch64 and the tests run under qemu-aarch64
# (make jni, make test-aarch64; build/aarch64).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(ROWBRIDGE_ZIG_TARGET aarch64-linux-gnu.2.28)
include(${CMAKE_CURRENT_LIST_DIR}/zig.cmake)
# ctest and gtest_discover_tests run the test binaries under qemu-user, with
# Debian's cross glibc (libc6-arm64-cross) as the root of the dynamic loader.
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /usr/aarch64-linux-gnu)
endif()
