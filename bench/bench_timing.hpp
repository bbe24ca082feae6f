// Wall-clock timing helpers for the benchmark: a steady clock, medians, and
// a barrier that keeps the compiler from discarding benchmarked work.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

namespace rowbridge::bench {

using Clock = std::chrono::steady_clock;

inline double NanosecondsBetween(Clock::time_point start, Clock::time_point end) {
  return std::chrono::duration<double, std::nano>(end - start).count();
}

/// Makes the compiler assume that `p` and all memory are read and written
/// here, so stores to an output buffer are never optimised away.
inline void KeepAlive(const void* p) { asm volatile("" : : "r"(p) : "memory"); }

/// Returns the median of `values` (the mean of the middle two for an even
/// count), or 0 when empty.
inline double Median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  size_t middle = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(middle),
                   values.end());
  double upper = values[middle];
  if (values.size() % 2 == 1) return upper;
  double lower =
      *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(middle));
  return (lower + upper) / 2.0;
}

}  // namespace rowbridge::bench
