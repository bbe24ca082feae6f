# rowbridge: install, build, test, run.
#
# `make run` and `make test` work on a fresh Debian 12 machine: both install
# what is missing first (make deps). `.ci/run` calls `make test`.
#
#   make deps        install the missing Debian (and Python) packages
#   make build       Release build in build/release (warnings are errors)
#   make test        deps, build, every test suite (Release, then ASan+UBSan),
#                    then the install/consumer check
#   make test-long   the long fuzz, sanitizer and soak suites
#   make run         deps, build, then the main job: rowbridge bench
#   make bench       rowbridge bench --json > build/bench/c2r.json, then the table
#   make golden      regenerate tests/golden with Spark (tools/golden-spark)
#   make format      clang-format every C and C++ file in place
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
CLI := $(RELEASE_DIR)/bin/rowbridge
TESTS_ASAN := $(ASAN_DIR)/bin/rowbridge_tests
FUZZ_DIR := $(BUILD)/fuzz
FUZZER := $(FUZZ_DIR)/bin/ipc_reader_fuzz

# CMAKE_ARGS adds cache settings to both builds (e.g. CMAKE_ARGS=-DROWBRIDGE_BUILD_CLI=OFF).
CMAKE_ARGS ?=
GENERATOR := -G Ninja
RELEASE_FLAGS := -DCMAKE_BUILD_TYPE=Release -DROWBRIDGE_WERROR=ON $(CMAKE_ARGS)
ASAN_FLAGS := -DCMAKE_BUILD_TYPE=RelWithDebInfo -DROWBRIDGE_SANITIZE=ON \
              -DROWBRIDGE_BUILD_BENCHMARKS=OFF $(CMAKE_ARGS)

# Sanitizer reports end the process with a non-zero status and a stack trace.
SANITIZER_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
                 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# Iterations of the randomized differential test in make test-long.
LONG_RANDOM_ITERATIONS ?= 20000
# Seconds of IPC reader fuzzing in make test and in make test-long.
FUZZ_SECONDS ?= 60
LONG_FUZZ_SECONDS ?= 1800

# make test-long runs each of these targets; add a target per new long suite.
LONG_SUITES := long-random long-fuzz

.PHONY: deps build build-asan build-fuzz test test-release test-asan test-install test-fuzz test-long \
        $(LONG_SUITES) run bench golden format format-check clean

deps:
	scripts/deps.sh

build: deps
	cmake -S . -B $(RELEASE_DIR) $(GENERATOR) $(RELEASE_FLAGS)
	cmake --build $(RELEASE_DIR) -j $(JOBS)

build-asan: deps
	cmake -S . -B $(ASAN_DIR) $(GENERATOR) $(ASAN_FLAGS)
	cmake --build $(ASAN_DIR) -j $(JOBS)

# ---- make test: every suite, in order; any failure stops it non-zero. ----

test: test-release test-asan test-install test-fuzz
	@echo "make test: all suites passed (Release, ASan+UBSan, install/consumers, fuzzing)"

test-release: build
	@echo "== ctest: Release ($(RELEASE_DIR))"
	ROWBRIDGE_JOBS=$(JOBS) scripts/ctest.sh $(RELEASE_DIR)

test-asan: build-asan
	@echo "== ctest: ASan+UBSan ($(ASAN_DIR))"
	$(SANITIZER_ENV) ROWBRIDGE_JOBS=$(JOBS) scripts/ctest.sh $(ASAN_DIR)

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

test-fuzz: build-fuzz
	@echo "== fuzzing the IPC reader for $(FUZZ_SECONDS) s"
	mkdir -p $(FUZZ_DIR)/corpus $(FUZZ_DIR)/artifacts
	$(FUZZER) -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
	  -artifact_prefix=$(FUZZ_DIR)/artifacts/ $(FUZZ_DIR)/corpus tests/ipc/corpus

# ---- make test-long: long fuzz, sanitizer and soak suites. ----

test-long: $(LONG_SUITES)
	@echo "make test-long: all long suites passed ($(LONG_SUITES))"

long-fuzz: build-fuzz
	@echo "== fuzzing the IPC reader for $(LONG_FUZZ_SECONDS) s"
	mkdir -p $(FUZZ_DIR)/corpus $(FUZZ_DIR)/artifacts
	$(FUZZER) -max_total_time=$(LONG_FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
	  -artifact_prefix=$(FUZZ_DIR)/artifacts/ $(FUZZ_DIR)/corpus tests/ipc/corpus

long-random: build-asan
	@echo "== randomized differential test, $(LONG_RANDOM_ITERATIONS) iterations (ASan+UBSan)"
	$(SANITIZER_ENV) ROWBRIDGE_RANDOM_ITERATIONS=$(LONG_RANDOM_ITERATIONS) \
	  scripts/run_gtest.sh $(TESTS_ASAN) '*Random*'

# ---- The main job and the benchmark. ----

run: build
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

format:
	scripts/deps.sh clang-format
	clang-format -i --style=file $(FORMAT_FILES)

format-check:
	scripts/deps.sh clang-format
	clang-format --dry-run --Werror --style=file $(FORMAT_FILES)

clean:
	rm -rf $(BUILD)
