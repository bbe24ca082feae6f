// Random Arrow columns for the randomized differential tests: every flat
// type, with nulls, extreme values and garbage under the nulls; plain,
// dictionary-encoded or run-end encoded; sliced at every level. Every value
// comes from a seeded Rng, so a failing seed reproduces.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "support/test_arrow.hpp"

namespace rowbridge::testing {

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {  // splitmix64
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// Uniform in [lo, hi].
  int64_t Range(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(Next() % (static_cast<uint64_t>(hi - lo) + 1));
  }
  bool Chance(double p) { return static_cast<double>(Next() >> 11) * 0x1.0p-53 < p; }
  template <typename T>
  const T& Pick(const std::vector<T>& items) {
    return items[static_cast<size_t>(Range(0, static_cast<int64_t>(items.size()) - 1))];
  }

 private:
  uint64_t state_;
};

struct ColumnSpec {
  std::string name;
  std::string format;  // of the values
  double null_rate = 0;
  bool nullable = true;
  bool extremes = false;  // may hold values that overflow their Spark type
};

enum class Encoding { kPlain, kDictionary, kRunEnd };
struct EncodingSpec {
  Encoding encoding = Encoding::kPlain;
  std::string index_format;  // dictionary indices or run ends
};

/// `n` random values of spec's type (nulls at spec.null_rate), named `name`.
TestArray RandomValues(Rng& rng, const ColumnSpec& spec, const std::string& name, int64_t n);

/// An integer array of Arrow `format` (c, C, s, S, i, I, l, L).
TestArray IntegerArray(const std::string& format, const std::string& name,
                       const std::vector<std::optional<int64_t>>& v);

/// A column of `n` rows of `spec` in `encoding`, possibly sliced.
TestArray MakeColumn(Rng& rng, const ColumnSpec& spec, const EncodingSpec& encoding, int64_t n);

EncodingSpec RandomEncoding(Rng& rng);

/// A random flat Arrow format (every type CONTRACTS.md §2 maps).
std::string RandomFormat(Rng& rng);

}  // namespace rowbridge::testing
