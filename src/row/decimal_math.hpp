// Precision checks and byte encodings of decimal unscaled values.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace rowbridge::row {

__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 UInt128;

/// Decimals of at most this precision are stored as a long in the slot.
constexpr int32_t kMaxSmallDecimalDigits = 18;

namespace detail {
constexpr std::array<UInt128, 39> MakePowersOfTen() {
  std::array<UInt128, 39> powers{};
  powers[0] = 1;
  for (size_t i = 1; i < powers.size(); ++i) powers[i] = powers[i - 1] * 10;
  return powers;
}
inline constexpr std::array<UInt128, 39> kPowersOfTen = MakePowersOfTen();
}  // namespace detail

/// Returns 10^digits for digits in [0, 38].
inline UInt128 PowerOfTen(int32_t digits) { return detail::kPowersOfTen[static_cast<size_t>(digits)]; }

/// Returns true when |v| < 10^precision (precision in [1, 18]).
inline bool FitsPrecision(int64_t v, int32_t precision) {
  uint64_t magnitude = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  return magnitude < static_cast<uint64_t>(PowerOfTen(precision));
}

/// Returns true when |v| < 10^precision (precision in [1, 38]).
inline bool FitsPrecision128(Int128 v, int32_t precision) {
  UInt128 magnitude = v < 0 ? UInt128(0) - static_cast<UInt128>(v) : static_cast<UInt128>(v);
  return magnitude < PowerOfTen(precision);
}

/// Returns how many bytes MinimalBigEndian writes for `v` (1 to 16).
inline int32_t MinimalBigEndianLength(Int128 v) {
  UInt128 magnitude = static_cast<UInt128>(v < 0 ? ~v : v);
  uint64_t high = static_cast<uint64_t>(magnitude >> 64);
  uint64_t low = static_cast<uint64_t>(magnitude);
  int32_t bits = high != 0 ? 128 - __builtin_clzll(high) : (low != 0 ? 64 - __builtin_clzll(low) : 0);
  return bits / 8 + 1;
}

/// Writes the minimal big-endian two's complement bytes of `v` (as Java's
/// BigInteger.toByteArray: 1 to 16 bytes, zero is one 0x00 byte) to `out`,
/// followed by zeros up to 16 bytes, and returns their count.
int32_t MinimalBigEndian(Int128 v, uint8_t out[16]);

/// Formats a little-endian two's complement integer of `width` bytes (4, 8,
/// 16 or 32) in decimal; values beyond 128 bits are shown in hexadecimal.
std::string DecimalToString(const uint8_t* bytes, int32_t width);

}  // namespace rowbridge::row
