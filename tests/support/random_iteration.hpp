// What the randomized tests share: their seed and iteration count from the
// environment, and the kernels (and nested writer) each iteration runs.
#pragma once

#include <signal.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "row/kernel_isa.hpp"
#include "rowbridge/converter.hpp"

namespace rowbridge::testing {

/// The unsigned integer in environment variable `name` (decimal or 0x hex),
/// or `fallback` when it is unset or empty.
inline uint64_t EnvOr(const char* name, uint64_t fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  return std::strtoull(text, nullptr, 0);
}

/// The seed of the iteration running now, for the report below.
inline volatile uint64_t& RunningSeed() {
  static volatile uint64_t seed = 0;
  return seed;
}

/// Writes the running seed to stderr and dies of `signal` (async-signal-safe).
inline void ReportSeedAndDie(int signal) {
  static const char kText[] = "the process died in the iteration of ROWBRIDGE_TEST_SEED=";
  char text[24];  // the decimal digits right-aligned, then a newline
  size_t begin = sizeof(text) - 1;
  text[begin] = '\n';
  uint64_t seed = RunningSeed();
  do {
    text[--begin] = static_cast<char>('0' + seed % 10);
    seed /= 10;
  } while (seed != 0);
  (void)!::write(2, kText, sizeof(kText) - 1);
  (void)!::write(2, text + begin, sizeof(text) - begin);
  raise(signal);  // the handler was reset: the default action now
}

/// Records `seed` as the running iteration's. A crash or a sanitizer report
/// (which aborts: the Makefile sets abort_on_error) ends the process before
/// the test can print its trace, so the first call installs a handler that
/// prints this seed first.
inline void TrackIterationSeed(uint64_t seed) {
  RunningSeed() = seed;
  static const bool installed = [] {
    struct sigaction action {};
    action.sa_handler = ReportSeedAndDie;
    action.sa_flags = SA_RESETHAND;
    for (int signal : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) {
      struct sigaction previous {};
      // Keep a handler somebody else installed (AddressSanitizer's own SEGV handler).
      if (sigaction(signal, nullptr, &previous) == 0 && previous.sa_handler == SIG_DFL)
        sigaction(signal, &action, nullptr);
    }
    return true;
  }();
  (void)installed;
}

/// The options of `seed`'s iteration: the kernels of its parity (odd: one of
/// the vector sets this machine runs, picked by bit 2; even, or none
/// available: portable), and the depth-first nested writer where it applies
/// when bit 1 is clear, the level-by-level one otherwise. Every converter the
/// iteration makes starts from them.
inline ConverterOptions IterationOptions(uint64_t seed) {
  std::vector<row::KernelIsa> vector_sets;
  for (row::KernelIsa isa : row::kKernelIsas) {
    if (isa != row::KernelIsa::kPortable && row::KernelIsaAvailable(isa))
      vector_sets.push_back(isa);
  }
  row::KernelIsa isa = row::KernelIsa::kPortable;
  if ((seed & 1) != 0 && !vector_sets.empty()) isa = vector_sets[(seed >> 2) % vector_sets.size()];
  ConverterOptions options;
  options.kernels = row::KernelsOf(isa);
  options.nested_writer = (seed & 2) == 0 ? NestedWriter::kDepthFirst : NestedWriter::kLevels;
  return options;
}

}  // namespace rowbridge::testing
