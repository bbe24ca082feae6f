# Zig's C/C++ toolchain (clang, lld, a static libc++ and libunwind) for one
# target, glibc version included: the portable builds of librowbridge.so and
# librowbridge_jni.so. Included by zig-<target>.cmake, which sets
# ROWBRIDGE_ZIG_TARGET (and, for another architecture, CMAKE_SYSTEM_NAME and
# CMAKE_SYSTEM_PROCESSOR) first.
#
#   ROWBRIDGE_ZIG        the zig executable (-D, or the environment variable;
#                        default: zig on PATH)
#   ROWBRIDGE_ZIG_CACHE  zig's cache, where it keeps libc++ and the glibc stubs
#                        it builds once per target (default: zig's own)
if(NOT ROWBRIDGE_ZIG AND DEFINED ENV{ROWBRIDGE_ZIG})
  set(ROWBRIDGE_ZIG "$ENV{ROWBRIDGE_ZIG}")
endif()
if(NOT ROWBRIDGE_ZIG)
  find_program(ROWBRIDGE_ZIG zig)
  if(NOT ROWBRIDGE_ZIG)
    message(FATAL_ERROR "zig not found: set ROWBRIDGE_ZIG (make jni installs it, see scripts/portable_deps.sh)")
  endif()
endif()
# try_compile projects read this file again and need the same values.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES ROWBRIDGE_ZIG ROWBRIDGE_ZIG_CACHE)

# CMake takes one executable per tool: a small script per tool that runs
# `zig <tool>` with the target.
set(_rowbridge_zig_bin "${CMAKE_BINARY_DIR}/zig-${ROWBRIDGE_ZIG_TARGET}")
set(_rowbridge_zig_env "")
if(ROWBRIDGE_ZIG_CACHE)
  set(_rowbridge_zig_env "export ZIG_GLOBAL_CACHE_DIR='${ROWBRIDGE_ZIG_CACHE}' ZIG_LOCAL_CACHE_DIR='${ROWBRIDGE_ZIG_CACHE}'\n")
endif()
# zig keeps its libc++ built per set of options: links strip debug information
# (unless -g asks for it) so that every link, CMake's compiler identification
# included, takes the same release libc++, built once per target, and the
# libraries carry no debug information, as Debian's Release builds.
set(_rowbridge_strip [=[case " $* " in *" -c "*|*" -g "*) ;; *) set -- "$@" -Wl,--strip-debug ;; esac
]=])
foreach(_rowbridge_tool cc c++ ar ranlib)
  set(_rowbridge_command "${_rowbridge_tool}")
  set(_rowbridge_prologue "")
  if(_rowbridge_tool MATCHES "^c")
    set(_rowbridge_command "${_rowbridge_tool} -target ${ROWBRIDGE_ZIG_TARGET}")
    set(_rowbridge_prologue "${_rowbridge_strip}")
  endif()
  file(CONFIGURE OUTPUT "${_rowbridge_zig_bin}/${_rowbridge_tool}" CONTENT
       "#!/bin/sh\n${_rowbridge_zig_env}${_rowbridge_prologue}exec '${ROWBRIDGE_ZIG}' ${_rowbridge_command} \"$@\"\n" @ONLY)
  file(CHMOD "${_rowbridge_zig_bin}/${_rowbridge_tool}"
       PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                   WORLD_READ WORLD_EXECUTE)
endforeach()

set(CMAKE_C_COMPILER "${_rowbridge_zig_bin}/cc")
set(CMAKE_CXX_COMPILER "${_rowbridge_zig_bin}/c++")
set(CMAKE_AR "${_rowbridge_zig_bin}/ar" CACHE FILEPATH "zig ar")
set(CMAKE_RANLIB "${_rowbridge_zig_bin}/ranlib" CACHE FILEPATH "zig ranlib")

# zig cc emits debug information unless told otherwise: none in the objects (a
# Debug build's -g comes later and wins). -O2 first, so that the compiler
# identification's link takes the release libc++ too (a build type's -O wins).
set(CMAKE_C_FLAGS_INIT "-g0 -O2")
set(CMAKE_CXX_FLAGS_INIT "-g0 -O2")
