# x86-64 Linux, glibc 2.28 or newer (baseline x86-64): librowbridge_jni.so in
# the jar and the portable librowbridge.so (make jni, build/jni).
set(ROWBRIDGE_ZIG_TARGET x86_64-linux-gnu.2.28)
include(${CMAKE_CURRENT_LIST_DIR}/zig.cmake)
