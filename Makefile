# rowbridge: install, build, test, run.
#
# `make run` and `make test` work on a fresh Debian 12 machine: both install
# what is missing first (make deps). `.ci/run` calls `make test`.
#
#   make deps        install the missing Debian (and Python) packages
#   make build       Release build in build/release (warnings are errors)
#   make test        deps, the layer and format checks, build, clang-tidy, every test
#                    suite (Release, ASan+UBSan, TSan), the install/consumer check, the
#                    IPC reader fuzzed, the Java and Python suites on Spark 4.1, 3.5 and
#                    4.2, the wheel in fresh virtual environments (4.1, 3.5) and the
#                    portable libraries
#   make test-long   the long fuzz, sanitizer and soak suites, every aarch64 test
#                    and an aarch64 JVM (under qemu-user) on the jar's library, every
#                    core and Spark suite on Spark 3.5 (Scala 2.12 and 2.13), 4.0 and 4.2,
#                    the Python suites on 4.0, the wheel on Spark 4.0 and 4.2, and the
#                    wheel's Spark Connect suites on 3.5, 4.0 and 4.2
#   make run         deps, build, then the main job: Spark SQL queries over a built-in
#                    dataset through format("rowbridge") and rowbridge's row conversion,
#                    timed against Spark's Parquet reader; PySpark's mapInArrow, a plain
#                    @udf and to_arrow of the Arrow cache with rowbridge and with Spark's
#                    own paths (python/bench/run_demo.py); then rowbridge bench
#   make bench       rowbridge bench --json > build/bench/c2r.json, then the table
#   make jni         the portable libraries (Zig's toolchain, glibc 2.28, LZ4 and
#                    Zstandard linked in): librowbridge_jni.so and librowbridge.so
#                    for linux/x86_64 (build/jni) and linux/aarch64 (build/aarch64)
#   make java        the JVM side: make jni, then the Maven modules under java/
#                    (installed into ~/.m2, no tests); the core jar carries both
#                    architectures' librowbridge_jni.so
#   make test-java   the Java suites (Surefire), then the Python exchange suites
#                    (python/tests, pytest, scripts/python_tests.sh); part of make test
#   make test-python the Python exchange suites alone, on the default Spark line
#   make test-portable  the portable libraries need glibc 2.28 at most and no other
#                    shared library, and export only their API; part of make test
#   make test-aarch64   the aarch64 Release tests of AARCH64_TESTS under qemu-user
#                    (build/aarch64); make test-long runs every aarch64 test
#   make test-java-spark35 / test-java-spark40 / test-java-spark42
#                    the differential, operator and cache suites on Spark 3.5 (Scala
#                    2.12), 4.0 or 4.2, then the Python exchange suites against that
#                    line's PySpark; make test runs 3.5 and 4.2, make test-long all three
#   make java-lines  the jars of the Spark 3.5 (Scala 2.12), 4.0 and 4.2 lines (no tests)
#   make wheel       the Python package rowbridge (python/rowbridge) with the jars of
#                    every Spark line: build/dist/rowbridge-VERSION-py3-none-PLATFORM.whl
#                    (VERSION java/pom.xml's, PLATFORM manylinux_2_28 x86_64 and aarch64)
#   make test-wheel  the wheel's suites (python/wheel_tests) on Spark 4.1 and 3.5, each in
#                    a fresh virtual environment with that line's PySpark from PyPI and the
#                    wheel installed, and on 4.2 the suites of the frames and the PySpark
#                    adapter; then the Spark Connect suites (python/connect_tests) on 4.1
#                    against real Connect servers; part of make test (4.0, and all of 4.2,
#                    Connect included, and Connect on 3.5: make test-long)
#   make bench-jvm   JMH, side by side: build/bench/jvm-c2r.json and docs/img/,
#                    then rows -> Arrow: build/bench/jvm-r2c.json
#   make bench-spark the Spark data source over ~2 GB, side by side with Parquet
#                    (docs/BENCHMARKS.md, section "Spark data source"), then TPC-H SF1 end to end
#                    (section TPC-H: build/bench/tpch.json, docs/img/tpch.png;
#                    TPCH_ROUNDS, TPCH_SCALE) and with Comet (build/bench/tpch-comet*.json),
#                    then the same data read from local
#                    files, HDFS and S3 (section Storage: build/bench/spark-storage.json),
#                    then df.cache() with Spark's serializer and rowbridge's (section Cache:
#                    build/bench/cache.json; a JVM per mode, ROUNDS rounds)
#   make bench-python the Python exchange (mapInArrow, mapInPandas, pandas UDFs,
#                    applyInPandas) with rowbridge's operators and with Spark's, side by
#                    side over cached TPC-H lineitem and make run's nested dataset
#                    (build/bench/python.json, docs/img/python.png), then rowbridge.spark's
#                    to_arrow, to_pandas and create_dataframe against PySpark's own
#                    (build/bench/python-frames.json), and plain Python UDFs on rowbridge's
#                    path against Spark's pickled and Arrow paths and SQL
#                    (build/bench/plain-udf.json; PLAIN_UDF_ROUNDS rounds)
#                    On Spark 4.2 (section "Spark 4.2"): LINE=4.2 scripts/bench_python.sh DIR
#                    and LINE=4.2 java/rowbridge-bench/tpch.sh DIR (no Comet off 4.1)
#   make golden      regenerate tests/golden with Spark (tools/golden-spark)
#   make format      clang-format every C and C++ file, Spotless the Java and Scala, in place
#   make format-check / tidy   the same check without changes; clang-tidy (.clang-tidy)
#   make check-layers  no include crosses the library's layers (scripts/check_layers.py)
#   make clean       remove build/

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := build
.DELETE_ON_ERROR:

JOBS ?= 2
BUILD ?= build
RELEASE_DIR := $(BUILD)/release
ASAN_DIR := $(BUILD)/asan
BENCH_DIR := $(BUILD)/bench
# make bench-spark's TPC-H: scale factor and interleaved rounds per query.
TPCH_SCALE ?= 1
TPCH_ROUNDS ?= 5
# make bench-python's plain (pickled) Python UDFs: interleaved rounds per case.
PLAIN_UDF_ROUNDS ?= 3
CLI := $(RELEASE_DIR)/bin/rowbridge
TESTS_ASAN := $(ASAN_DIR)/bin/rowbridge_tests
TSAN_DIR := $(BUILD)/tsan
TESTS_TSAN := $(TSAN_DIR)/bin/rowbridge_stream_tests
FUZZ_DIR := $(BUILD)/fuzz
FUZZER := $(FUZZ_DIR)/bin/ipc_reader_fuzz

# CMAKE_ARGS adds cache settings to both builds (e.g. CMAKE_ARGS=-DROWBRIDGE_BUILD_CLI=OFF).
CMAKE_ARGS ?=
GENERATOR := -G Ninja
RELEASE_FLAGS := -DCMAKE_BUILD_TYPE=Release -DROWBRIDGE_WERROR=ON $(CMAKE_ARGS)
ASAN_FLAGS := -DCMAKE_BUILD_TYPE=RelWithDebInfo -DROWBRIDGE_SANITIZE=ON \
              -DROWBRIDGE_BUILD_BENCHMARKS=OFF $(CMAKE_ARGS)
TSAN_FLAGS := -DCMAKE_BUILD_TYPE=RelWithDebInfo -DROWBRIDGE_SANITIZE_THREAD=ON \
              -DROWBRIDGE_BUILD_BENCHMARKS=OFF -DROWBRIDGE_BUILD_CLI=OFF $(CMAKE_ARGS)
# The multithreaded suites that make test-tsan runs under ThreadSanitizer.
TSAN_TESTS := PrefetchStream*:RowStream*:StreamExport*:IpcScan*:FilledInput*:RowEncodeStream*

# Sanitizer reports end the process with a non-zero status and a stack trace.
SANITIZER_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
                 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:abort_on_error=1
TSAN_ENV := TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1

# Iterations of the randomized differential test in make test-long.
LONG_RANDOM_ITERATIONS ?= 20000
# Damaged batches of the hostile-input test in make test-long (make test: 2000).
LONG_HOSTILE_ITERATIONS ?= 200000
# Seconds of IPC reader fuzzing in make test and in make test-long.
FUZZ_SECONDS ?= 30
LONG_FUZZ_SECONDS ?= 1800

# make test-long runs each of these targets; add a target per new long suite.
LONG_SUITES := long-random long-fuzz long-java long-aarch64 long-java-spark35 \
               long-java-spark35-scala213 long-wheel-spark35 long-java-spark40 \
               long-wheel-spark40 long-java-spark42 long-wheel-spark42

# ---- The portable libraries and the JVM side (java/, src/jni). ----
# Zig's toolchain (cmake/toolchains/zig-*.cmake, installed with the LZ4 and
# Zstandard sources into $(PORTABLE_DIR) by scripts/portable_deps.sh) builds
# librowbridge_jni.so and librowbridge.so for glibc 2.28, with LZ4 and Zstandard
# linked in: x86_64 in $(JNI_DIR), aarch64 in $(AARCH64_DIR), which also holds
# the aarch64 tests (run under qemu-user).
# Order: Maven compiles rowbridge-core, whose javac -h writes the JNI header;
# CMake builds librowbridge_jni.so against it; Maven then packages both
# architectures' libraries into the rowbridge-core jar and runs the suites.
PORTABLE_DIR := $(BUILD)/portable
JNI_DIR := $(BUILD)/jni
AARCH64_DIR := $(BUILD)/aarch64
PORTABLE_FLAGS = -DCMAKE_BUILD_TYPE=Release -DROWBRIDGE_WERROR=ON -DROWBRIDGE_BUILD_JNI=ON \
                 -DROWBRIDGE_BUILD_BENCHMARKS=OFF -DROWBRIDGE_BUILD_CLI=OFF \
                 -DROWBRIDGE_ZIG=$(abspath $(PORTABLE_DIR))/zig/ziglang/zig \
                 -DROWBRIDGE_ZIG_CACHE=$(abspath $(PORTABLE_DIR))/zig-cache \
                 -DROWBRIDGE_COMPRESSION_SOURCES=$(abspath $(PORTABLE_DIR))/src \
                 -DROWBRIDGE_JNI_HEADERS=$(CURDIR)/java/rowbridge-core/target/native-headers \
                 $(CMAKE_ARGS)
JNI_FLAGS = -DCMAKE_TOOLCHAIN_FILE=$(CURDIR)/cmake/toolchains/zig-x86_64-linux-gnu.2.28.cmake \
            -DROWBRIDGE_BUILD_TESTS=OFF $(PORTABLE_FLAGS)
AARCH64_FLAGS = -DCMAKE_TOOLCHAIN_FILE=$(CURDIR)/cmake/toolchains/zig-aarch64-linux-gnu.2.28.cmake \
                -DROWBRIDGE_GTEST_SOURCES=/usr/src/googletest $(PORTABLE_FLAGS)
# The test files make test builds for aarch64 and runs under qemu (make test-long: all):
# the integer, binary and decimal types, the nested structs and maps, every type against
# Spark's bytes, the decoder against Spark's bytes, the IPC reader and the kernels'
# cross-checks. The random differential tests, both nested writers' own suites, the IPC
# writer and the parallel scan run on aarch64 in make test-long only.
AARCH64_TESTS := row/flat_types_numeric_test.cc;row/flat_types_binary_test.cc;$\
                 row/flat_types_decimal_test.cc;row/spark_golden_test.cc;$\
                 row/nested/nested_structs_maps_test.cc;decoder/row_decoder_golden_test.cc;$\
                 ipc/ipc_reader_test.cc;row/simd/kernel_isa_test.cc;$\
                 row/simd/size_kernels_test.cc;row/simd/page_edge_test.cc
# What runs the aarch64 tests: qemu-user (the toolchain file sets it as CMake's
# emulator) over Debian's cross glibc.
AARCH64_RUNTIME := qemu-user libc6-arm64-cross
# JDK 17 unless JAVA_HOME says otherwise (evaluated in the recipe: on a fresh
# machine the JDK only exists once make deps has run).
JAVA_ENV = export JAVA_HOME="$${JAVA_HOME:-$$(dirname "$$(dirname "$$(readlink -f "$$(command -v javac)")")")}";
# Maven runs hold a lock: two make runs in one tree must not build java/*/target at once.
MVN = mkdir -p $(BUILD) && flock $(abspath $(BUILD))/.java.lock \
      mvn -q -B -Dstyle.color=never -f java/pom.xml -Drowbridge.native.dir=$(abspath $(JNI_DIR))/lib \
      -Drowbridge.native.aarch64.dir=$(abspath $(AARCH64_DIR))/lib
# Randomized Java suites: schemas x rows (make test: 200 x 500; make test-long: 5000 x 500).
JAVA_TEST_SCHEMAS ?= 200
JAVA_LONG_TEST_SCHEMAS ?= 5000
# Random Arrow Java files read back through the data source in make test-long (make test: 24).
JAVA_LONG_SOURCE_SCHEMAS ?= 500
JAVA_TEST_ROWS ?= 500

.PHONY: deps build build-asan build-tsan build-fuzz test test-release test-asan test-tsan test-install \
        test-fuzz test-long test-portable build-aarch64 test-aarch64 test-java-spark35 \
        test-java-spark40 test-java-spark42 test-python java-lines wheel test-wheel \
        $(LONG_SUITES) run bench golden format format-check check-layers tidy clean jni java test-java bench-jvm \
        bench-spark bench-python

deps:
	scripts/deps.sh

build: deps
	cmake -S . -B $(RELEASE_DIR) $(GENERATOR) $(RELEASE_FLAGS)
	cmake --build $(RELEASE_DIR) -j $(JOBS)

build-asan: deps
	cmake -S . -B $(ASAN_DIR) $(GENERATOR) $(ASAN_FLAGS)
	cmake --build $(ASAN_DIR) -j $(JOBS)

# ThreadSanitizer: only the multithreaded suites' test binary (src/stream, scan, write).
build-tsan: deps
	cmake -S . -B $(TSAN_DIR) $(GENERATOR) $(TSAN_FLAGS)
	cmake --build $(TSAN_DIR) -j $(JOBS) --target rowbridge_stream_tests

# ---- make test: every suite, in order; any failure stops it non-zero. ----

# The qemu runs (test-aarch64) and the Spark 4.0 line (test-java-spark40) are in make test-long
# (long-aarch64, long-java-spark40), to keep make test under 60 minutes on 2 cores.
test: check-layers format-check test-release tidy test-asan test-tsan test-install test-fuzz test-java \
      test-java-spark35 test-java-spark42 test-wheel test-portable
	@echo "make test: all suites passed (layers, format, Release, clang-tidy, ASan+UBSan, TSan, install/consumers, fuzzing, Java on Spark 4.1 and 3.5, the Spark 4.2 line, the wheel on Spark 4.1 and 3.5 (and its frames on 4.2), Spark Connect on 4.1, portable libraries for x86_64 and aarch64)"

test-release: build
	@echo "== ctest: Release ($(RELEASE_DIR))"
	ROWBRIDGE_JOBS=$(JOBS) scripts/ctest.sh $(RELEASE_DIR)

test-asan: build-asan
	@echo "== ctest: ASan+UBSan ($(ASAN_DIR))"
	$(SANITIZER_ENV) ROWBRIDGE_JOBS=$(JOBS) scripts/ctest.sh $(ASAN_DIR)

test-tsan: build-tsan
	@echo "== stream suites under ThreadSanitizer ($(TSAN_DIR))"
	$(TSAN_ENV) scripts/run_gtest.sh $(TESTS_TSAN) '$(TSAN_TESTS)'

test-install: build
	@echo "== install and consumer check ($(RELEASE_DIR))"
	scripts/check_install.sh $(RELEASE_DIR)

# The IPC reader under libFuzzer (Clang, ASan+UBSan), seeded with the hostile
# corpus; any crash, sanitizer report, leak or hang fails the run.
build-fuzz: deps
	scripts/deps.sh clang libclang-rt-14-dev
	CC=clang CXX=clang++ cmake -S . -B $(FUZZ_DIR) $(GENERATOR) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DROWBRIDGE_BUILD_FUZZERS=ON -DROWBRIDGE_SANITIZE=ON -DROWBRIDGE_BUILD_TESTS=OFF \
	  -DROWBRIDGE_BUILD_CLI=OFF -DROWBRIDGE_BUILD_BENCHMARKS=OFF
	cmake --build $(FUZZ_DIR) -j $(JOBS) --target ipc_reader_fuzz

# One recipe, two lengths: make test's FUZZ_SECONDS and make test-long's LONG_FUZZ_SECONDS.
FUZZ_SECONDS_test-fuzz = $(FUZZ_SECONDS)
FUZZ_SECONDS_long-fuzz = $(LONG_FUZZ_SECONDS)
test-fuzz long-fuzz: build-fuzz
	@echo "== fuzzing the IPC reader for $(FUZZ_SECONDS_$@) s"
	mkdir -p $(FUZZ_DIR)/corpus $(FUZZ_DIR)/artifacts
	$(FUZZER) -max_total_time=$(FUZZ_SECONDS_$@) -timeout=10 -rss_limit_mb=2048 \
	  -artifact_prefix=$(FUZZ_DIR)/artifacts/ $(FUZZ_DIR)/corpus tests/ipc/corpus

# The portable libraries: javac -h first (rowbridge-core), then CMake, x86_64 and
# aarch64. A $(JNI_DIR) configured with another toolchain (before Zig's) starts afresh.
jni: deps
	scripts/portable_deps.sh $(BUILD)
	$(JAVA_ENV) $(MVN) -pl rowbridge-core compile
	if [[ -f $(JNI_DIR)/CMakeCache.txt ]] && ! grep -q zig-x86_64 $(JNI_DIR)/CMakeCache.txt; then \
	  rm -rf $(JNI_DIR); fi
	$(JAVA_ENV) flock $(abspath $(BUILD))/.java.lock cmake -S . -B $(JNI_DIR) $(GENERATOR) $(JNI_FLAGS)
	flock $(abspath $(BUILD))/.java.lock cmake --build $(JNI_DIR) -j $(JOBS) \
	  --target rowbridge_jni rowbridge_shared
	$(JAVA_ENV) flock $(abspath $(BUILD))/.java.lock cmake -S . -B $(AARCH64_DIR) $(GENERATOR) \
	  $(AARCH64_FLAGS)
	flock $(abspath $(BUILD))/.java.lock cmake --build $(AARCH64_DIR) -j $(JOBS) \
	  --target rowbridge_jni rowbridge_shared

# Each portable library: glibc 2.28 at most, glibc's libraries only (a library
# Debian's toolchain links must fail that check), the API alone exported.
test-portable: jni
	@echo "== portable libraries: glibc floor, needed libraries, exported symbols"
	scripts/check_portable.sh x86_64 $(JNI_DIR)/lib/librowbridge_jni.so $(JNI_DIR)/lib/librowbridge.so.0
	scripts/check_portable.sh aarch64 $(AARCH64_DIR)/lib/librowbridge_jni.so \
	  $(AARCH64_DIR)/lib/librowbridge.so.0
	printf '#include <stdlib.h>\nunsigned draw(void) { return arc4random(); }\n' | \
	  gcc -shared -fPIC -x c - -o $(PORTABLE_DIR)/host-built.so -llz4
	if scripts/check_portable.sh x86_64 $(PORTABLE_DIR)/host-built.so 2>/dev/null; then \
	  echo "check_portable passed a library that needs GLIBC_2.36 and liblz4" >&2; exit 1; fi
	for library in $(JNI_DIR)/lib/librowbridge.so.0 $(AARCH64_DIR)/lib/librowbridge.so.0; do \
	  scripts/check_symbols.sh $$library; done
	for library in $(JNI_DIR)/lib/librowbridge_jni.so $(AARCH64_DIR)/lib/librowbridge_jni.so; do \
	  cmake -DLIBRARY=$$library -P src/jni/check_exports.cmake; done

# The aarch64 Release tests, run by ctest through qemu-user: the files of
# AARCH64_TESTS (make test), or every test (make long-aarch64).
build-aarch64: jni
	scripts/deps.sh $(AARCH64_RUNTIME)
	cmake -S . -B $(AARCH64_DIR) $(GENERATOR) $(AARCH64_FLAGS) '-DROWBRIDGE_TEST_SUBSET=$(AARCH64_TESTS)'
	cmake --build $(AARCH64_DIR) -j $(JOBS)

test-aarch64: build-aarch64
	@echo "== ctest: aarch64 Release under qemu-user, $(words $(subst ;, ,$(AARCH64_TESTS))) test files ($(AARCH64_DIR))"
	ROWBRIDGE_JOBS=$(JOBS) scripts/ctest.sh $(AARCH64_DIR)

java: jni
	$(JAVA_ENV) $(MVN) -DskipTests install

# Every Java suite (core, then the Spark differential suite and the rest);
# a failing test fails the build.
test-java: jni
	@echo "== Java suites (Maven Surefire; $(JAVA_TEST_SCHEMAS) random schemas x $(JAVA_TEST_ROWS) rows)"
	$(JAVA_ENV) $(MVN) -Drowbridge.test.schemas=$(JAVA_TEST_SCHEMAS) \
	  -Drowbridge.test.rows=$(JAVA_TEST_ROWS) install
	$(JAVA_ENV) scripts/python_tests.sh 4.1

# The Python exchange suites (python/tests, pytest) against the default line's PySpark;
# make test runs them after the Java suites, and on Spark 3.5 and 4.2 (4.0 in make test-long).
test-python: java
	$(JAVA_ENV) scripts/python_tests.sh 4.1

# The Spark lines besides the default (java/pom.xml's profiles), each built in its own
# target/LINE_SCALA directories and installed under its own names (rowbridge-core-3.5_2.12, ...).
# make test runs the differential suites ($(JAVA_LINE_SCHEMAS) schemas) and the operator suites
# against each line's own UnsafeProjection; make test-long runs every suite on every line.
JAVA_LINE_SCHEMAS ?= 50
JAVA_LINE_SUITES := SparkDifferentialTest,DecoderDifferentialTest,RowbridgeOperatorTest,RowToArrowExecTest,TransitionPlacementTest,ArrowCacheTest,CacheEvictionTest
MVN_LINE = $(MVN) -pl rowbridge-core,rowbridge-spark
JAVA_LINE_TEST = -Dtest='$(JAVA_LINE_SUITES)' -Dsurefire.failIfNoSpecifiedTests=false \
                 -Drowbridge.cluster.skip=true -Drowbridge.test.schemas=$(JAVA_LINE_SCHEMAS) \
                 -Drowbridge.test.rows=$(JAVA_TEST_ROWS) package

# The Spark lines besides the default (4.1), by their names in targets: each one's Spark line
# (the Python suites' and the wheel's) and Maven profiles. One pattern per kind of target:
# test-java-sparkNN, long-java-sparkNN, long-wheel-sparkNN.
LINE_35 := 3.5
LINE_35-scala213 := 3.5
LINE_40 := 4.0
LINE_42 := 4.2
PROFILES_35 := spark-3.5
PROFILES_35-scala213 := spark-3.5,scala-2.13
PROFILES_40 := spark-4.0
PROFILES_42 := spark-4.2
# The lines whose Python exchange suites make test does not run: long-java-sparkNN runs them.
LONG_PYTHON_LINES := 40

test-java-spark35 test-java-spark40 test-java-spark42: test-java-spark%: jni
	@echo "== Java differential and operator suites on Spark $(LINE_$*) ($(PROFILES_$*)), then the Python exchange suites"
	$(JAVA_ENV) $(MVN_LINE) -P$(PROFILES_$*) $(JAVA_LINE_TEST)
	$(JAVA_ENV) scripts/python_tests.sh $(LINE_$*)

# ---- The Python wheel (python/pyproject.toml, scripts/build_wheel.sh). ----

# The jars of the lines besides the default (make java's), in their target/LINE_SCALA directories.
java-lines: jni
	$(JAVA_ENV) for profile in $(PROFILES_35) $(PROFILES_40) $(PROFILES_42); do \
	  $(MVN_LINE) -P$$profile -DskipTests package || exit 1; done

# One wheel in build/dist: python/rowbridge with every line's jars (rowbridge/jars/spark-LINE)
# and rowbridge/jars/lines.json, built from a staging copy in build/wheel-stage.
wheel: java java-lines
	scripts/build_wheel.sh

# The wheel as a user installs it: a new virtual environment per line, with that line's PySpark.
# On 4.2, whose PySpark differs most from 4.1's inside, make test runs the suites of what
# rowbridge/spark/_pyspark.py adapts (make test-long runs all of 4.2's and 4.0's).
WHEEL_ADAPTER_SUITES := test_frames.py test_columnar_frames.py test_pyspark_adapter.py test_install.py \
                        test_setup.py
test-wheel: wheel
	@echo "== the wheel's suites on Spark 4.1, then 3.5, each in a fresh virtual environment"
	$(JAVA_ENV) scripts/wheel_tests.sh 4.1
	$(JAVA_ENV) scripts/wheel_tests.sh 3.5
	@echo "== the wheel's frames and PySpark adapter suites on Spark 4.2"
	$(JAVA_ENV) scripts/wheel_tests.sh 4.2 $(WHEEL_ADAPTER_SUITES)
	@echo "== the wheel's Spark Connect suites on Spark 4.1 (remote(\"local[2]\") and servers in JVMs of their own)"
	$(JAVA_ENV) scripts/wheel_tests.sh 4.1 --connect

# JMH, side by side in one JVM per schema: Spark's JVM path, rowbridge, Comet's
# converter, an Arrow C Data export alone (docs/BENCHMARKS.md, "JVM: Arrow to rows"); then
# rows -> Arrow: rowbridge's decoder, Spark's ArrowWriter and RowToColumnConverter.
bench-jvm: java
	$(JAVA_ENV) java/rowbridge-jmh/bench.sh $(BENCH_DIR) docs/img

# The data source over ~2 GB of the workload of record: rowbridge's conversion on and off,
# the row mode and Spark's Parquet reader, local[2] and local[8], peak memory of each JVM;
# then TPC-H end to end (java/rowbridge-bench/tpch.sh), the same modes and an A/A twin, and
# with Apache Comet: rowbridge's transition against each of Comet's (java/rowbridge-bench).
bench-spark: java
	$(JAVA_ENV) BUILD=$(BUILD) java/rowbridge-bench/source-bench.sh $(BENCH_DIR)
	$(JAVA_ENV) BUILD=$(BUILD) SCALE=$(TPCH_SCALE) ROUNDS=$(TPCH_ROUNDS) \
	  java/rowbridge-bench/tpch.sh $(BENCH_DIR)
	$(JAVA_ENV) BUILD=$(BUILD) java/rowbridge-bench/storage-bench.sh $(BENCH_DIR)
	$(JAVA_ENV) BUILD=$(BUILD) java/rowbridge-bench/cache-bench.sh $(BENCH_DIR)

# The Python exchange (docs/BENCHMARKS.md, "Python exchange"): mapInArrow, mapInPandas, a
# pandas UDF, an Arrow-optimized UDF and applyInPandas over cached TPC-H lineitem (SF 1) and
# make run's nested dataset, in PySpark local[2]: rowbridge's operators, Spark's and Spark's
# again (A/A), interleaved; build/bench/python.json and docs/img/python.png. Then plain
# (pickled) Python UDFs over the same lineitem: Spark's pickled path, rowbridge's, Spark's
# useArrow path and SQL, with an A/A twin; build/bench/plain-udf.json. Then rowbridge.spark on
# a Spark Connect session against Connect's own toArrow, toPandas and createDataFrame;
# build/bench/python-connect.json.
bench-python: java
	$(JAVA_ENV) BUILD=$(BUILD) PLAIN_UDF_ROUNDS=$(PLAIN_UDF_ROUNDS) \
	  scripts/bench_python.sh $(BENCH_DIR)

# ---- make test-long: long fuzz, sanitizer and soak suites. ----

test-long: $(LONG_SUITES)
	@echo "make test-long: all long suites passed ($(LONG_SUITES))"

long-java: jni
	@echo "== Java suites with the randomized differential suite at $(JAVA_LONG_TEST_SCHEMAS) schemas x $(JAVA_TEST_ROWS) rows, an executor killed mid-job, storage in local-cluster mode and the storage servers' own checks"
	$(JAVA_ENV) $(MVN) -Drowbridge.test.schemas=$(JAVA_LONG_TEST_SCHEMAS) \
	  -Drowbridge.test.rows=$(JAVA_TEST_ROWS) \
	  -Drowbridge.test.source.schemas=$(JAVA_LONG_SOURCE_SCHEMAS) \
	  '-Drowbridge.cluster.tests=io/rowbridge/spark/cluster/*Test.java' \
	  -Drowbridge.long.excludes=none install

# Every aarch64 test under qemu-user, then the core suites on Debian's arm64
# OpenJDK under qemu-user (scripts/aarch64_jvm.sh), against the packaged core jar,
# from which the loader takes the aarch64 library.
long-aarch64: jni
	@echo "== ctest: every aarch64 Release test under qemu-user ($(AARCH64_DIR)), then an aarch64 JVM"
	scripts/deps.sh $(AARCH64_RUNTIME)
	cmake -S . -B $(AARCH64_DIR) $(GENERATOR) $(AARCH64_FLAGS) -DROWBRIDGE_TEST_SUBSET=
	cmake --build $(AARCH64_DIR) -j $(JOBS)
	ROWBRIDGE_JOBS=$(JOBS) scripts/ctest.sh $(AARCH64_DIR)
	$(JAVA_ENV) $(MVN) -pl rowbridge-core -DskipTests package
	scripts/aarch64_jvm.sh $(BUILD)/aarch64-jvm
	$(JAVA_ENV) $(MVN) -pl rowbridge-core -Pjar-under-test surefire:test \
	  -Djvm=$(abspath $(BUILD))/aarch64-jvm/bin/java

# Every suite of rowbridge-core and rowbridge-spark on the older lines, as long-java runs them.
JAVA_LONG_LINE = -Drowbridge.test.schemas=$(JAVA_LONG_TEST_SCHEMAS) -Drowbridge.test.rows=$(JAVA_TEST_ROWS) \
                 -Drowbridge.test.source.schemas=$(JAVA_LONG_SOURCE_SCHEMAS) \
                 '-Drowbridge.cluster.tests=io/rowbridge/spark/cluster/*Test.java' \
                 -Drowbridge.long.excludes=none install

long-java-spark35 long-java-spark35-scala213 long-java-spark40 long-java-spark42: long-java-spark%: jni
	@echo "== Java suites on Spark $(LINE_$*) ($(PROFILES_$*))"
	$(JAVA_ENV) $(MVN_LINE) -P$(PROFILES_$*) $(JAVA_LONG_LINE)
	$(if $(filter $*,$(LONG_PYTHON_LINES)),$(JAVA_ENV) scripts/python_tests.sh $(LINE_$*))

long-wheel-spark40 long-wheel-spark42: long-wheel-spark%: wheel
	@echo "== the wheel's suites on Spark $(LINE_$*), then its Spark Connect suites, in fresh virtual environments"
	$(JAVA_ENV) scripts/wheel_tests.sh $(LINE_$*)
	$(JAVA_ENV) scripts/wheel_tests.sh $(LINE_$*) --connect

# Spark 3.5's wheel suites run in make test (test-wheel): here, its Spark Connect suites (with
# the spark-connect jar the 3.5 build compiles against, as PySpark 3.5 carries none).
long-wheel-spark35: wheel
	@echo "== the wheel's Spark Connect suites on Spark 3.5, in a fresh virtual environment"
	$(JAVA_ENV) scripts/wheel_tests.sh 3.5 --connect

long-random: build-asan
	@echo "== randomized differential test and row decoder round trip, $(LONG_RANDOM_ITERATIONS) iterations, and hostile input, $(LONG_HOSTILE_ITERATIONS) damaged batches (ASan+UBSan)"
	$(SANITIZER_ENV) ROWBRIDGE_RANDOM_ITERATIONS=$(LONG_RANDOM_ITERATIONS) \
	  ROWBRIDGE_HOSTILE_ITERATIONS=$(LONG_HOSTILE_ITERATIONS) \
	  scripts/run_gtest.sh $(TESTS_ASAN) '*Random*:RowDecoderRoundTrip*'

# ---- The main job and the benchmark. ----

# The end-to-end demonstration (java/rowbridge-demo): Arrow IPC files of the workload of
# record and a nested table in $(DEMO_DIR), queried in Spark local mode through
# format("rowbridge") and against Spark's Parquet reader; then the columnar->row benchmark.
DEMO_DIR ?= $(BUILD)/demo
DEMO_ARGS ?=

run: build java
	$(JAVA_ENV) BUILD=$(BUILD) java/rowbridge-demo/run.sh --data $(DEMO_DIR) $(DEMO_ARGS)
	@echo
	@echo "== PySpark: mapInArrow, a plain @udf and to_arrow with rowbridge and with Spark's own paths"
	$(JAVA_ENV) ROWBRIDGE_CLASSPATH=$$(scripts/rowbridge_classpath.sh 4.1) \
	  $(BUILD)/venv/bin/python3 python/bench/run_demo.py --record $(DEMO_DIR)/record
	@echo
	@echo "== rowbridge bench (columnar -> row, CONTRACTS.md §6)"
	$(CLI) bench

# Two runs: the JSON for tools (build/bench/c2r.json), then the table for people
# (also kept in build/bench/c2r.txt).
bench: build
	mkdir -p $(BENCH_DIR)
	$(CLI) bench --json > $(BENCH_DIR)/c2r.json.tmp
	mv $(BENCH_DIR)/c2r.json.tmp $(BENCH_DIR)/c2r.json
	$(CLI) bench | tee $(BENCH_DIR)/c2r.txt
	@echo "written: $(BENCH_DIR)/c2r.json, $(BENCH_DIR)/c2r.txt"

# ---- Tools. ----

# The command tools/golden-spark/README.md gives.
golden:
	scripts/deps.sh maven openjdk-17-jdk-headless
	cd tools/golden-spark && mvn -q -B -Dstyle.color=never compile exec:exec

FORMAT_FILES = $(shell git ls-files -co --exclude-standard -- \
                 '*.c' '*.h' '*.cc' '*.cpp' '*.hpp' | grep -v '^$(BUILD)/')

# C and C++ by clang-format (.clang-format); the Java and Scala of java/ by Spotless
# (google-java-format and scalafmt, java/pom.xml). make test runs format-check.
format: deps
	scripts/deps.sh clang-format
	clang-format -i --style=file $(FORMAT_FILES)
	$(JAVA_ENV) $(MVN) spotless:apply

# The layers of src/ and include/rowbridge/ (scripts/check_layers.py, docs/ARCHITECTURE.md
# "Targets"): the checker's own test first, then the tree and the concerns' CMake targets.
check-layers:
	@echo "== layers: no include crosses a layer upward, no product file includes test support, targets link as ALLOWED"
	python3 scripts/check_layers.py --self-test
	python3 scripts/check_layers.py

format-check: deps
	@echo "== format: clang-format, google-java-format and scalafmt"
	scripts/deps.sh clang-format
	@clang-format --dry-run --Werror --style=file $(FORMAT_FILES)
	@echo "clang-format: $(words $(FORMAT_FILES)) files formatted"
	$(JAVA_ENV) $(MVN) spotless:check

# clang-tidy with the checks of .clang-tidy over the library's sources of the Release build.
tidy: build
	@echo "== clang-tidy over src/ (.clang-tidy)"
	scripts/deps.sh clang-tidy
	scripts/tidy.sh $(RELEASE_DIR) $(JOBS)

clean:
	rm -rf $(BUILD)
