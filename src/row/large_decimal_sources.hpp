// Readers of the unscaled values of large decimals (precision 19..38) and of
// uint64 (as decimal(20,0)), shared by the slot and array element writers.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "spark/decimal_math.hpp"
#include "spark/memory_access.hpp"

namespace rowbridge::row {

/// Reads an unscaled value of kBytes little-endian bytes as a 128-bit integer;
/// returns false when it does not fit 128 bits.
template <int kBytes>
struct SignedSource {
  static bool Read(const uint8_t* values, int64_t index, spark::Int128* out) {
    const uint8_t* p = values + index * kBytes;
    std::memcpy(out, p, 16);
    if constexpr (kBytes == 32) {
      const uint64_t sign = static_cast<uint64_t>(spark::SignWord128(*out));
      return Load<uint64_t>(p + 16) == sign && Load<uint64_t>(p + 24) == sign;
    }
    return true;
  }
  static std::string Describe(const uint8_t* values, int64_t index) {
    return spark::DecimalToString(values + index * kBytes, kBytes);
  }
};

struct UInt64Source {
  static bool Read(const uint8_t* values, int64_t index, spark::Int128* out) {
    *out = static_cast<spark::Int128>(Load<uint64_t>(values + index * 8));
    return true;
  }
  static std::string Describe(const uint8_t* values, int64_t index) {
    return std::to_string(Load<uint64_t>(values + index * 8));
  }
};

}  // namespace rowbridge::row
