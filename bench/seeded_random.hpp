// A small, portable pseudo-random generator (SplitMix64), so that the same
// seed gives the same benchmark data on every platform and standard library.
#pragma once

#include <cstdint>

namespace rowbridge::bench {

/// Scrambles a 64-bit value (the SplitMix64 finaliser).
constexpr uint64_t Mix64(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

class SeededRandom {
 public:
  explicit SeededRandom(uint64_t seed) : state_(seed) {}

  /// Returns a generator for the value at (`stream`, `index`), independent of
  /// the order in which values are generated: the data of row r does not
  /// depend on how the rows are cut into batches.
  static SeededRandom For(uint64_t seed, uint64_t stream, uint64_t index) {
    return SeededRandom(Mix64(seed ^ Mix64(stream * 0x9E3779B97F4A7C15ULL + Mix64(index))));
  }

  uint64_t Next() {
    state_ += 0x9E3779B97F4A7C15ULL;
    return Mix64(state_);
  }

  /// Returns an integer uniform in [low, high] (the modulo bias is negligible
  /// for the small ranges used here).
  int64_t Uniform(int64_t low, int64_t high) {
    uint64_t span = static_cast<uint64_t>(high - low) + 1;
    return low + static_cast<int64_t>(Next() % span);
  }

  /// Returns a double uniform in [0, 1).
  double Unit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

  /// Returns true with probability `p`.
  bool Chance(double p) { return Unit() < p; }

 private:
  uint64_t state_;
};

}  // namespace rowbridge::bench
