// Precision checks and byte encodings of decimal unscaled values.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string>

namespace rowbridge::spark {

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
inline UInt128 PowerOfTen(int32_t digits) {
  return detail::kPowersOfTen[static_cast<size_t>(digits)];
}

// Signs are taken arithmetically, never by a branch: the signs of a column's
// values are as random as its data, and a branch on them mispredicts about
// every other value (small decimals went from 4.6 to 2.3 ns a value).

/// All ones when `v` is negative, zero otherwise.
inline uint64_t SignWord(int64_t v) { return static_cast<uint64_t>(v >> 63); }
inline UInt128 SignWord128(Int128 v) { return static_cast<UInt128>(v >> 127); }

/// Returns true when |v| < 10^precision (precision in [1, 18]).
inline bool FitsPrecision(int64_t v, int32_t precision) {
  const uint64_t sign = SignWord(v);
  const uint64_t magnitude = (static_cast<uint64_t>(v) ^ sign) - sign;
  return magnitude < static_cast<uint64_t>(PowerOfTen(precision));
}

/// Returns true when |v| < 10^precision (precision in [1, 38]).
inline bool FitsPrecision128(Int128 v, int32_t precision) {
  const UInt128 sign = SignWord128(v);
  const UInt128 magnitude = (static_cast<UInt128>(v) ^ sign) - sign;
  return magnitude < PowerOfTen(precision);
}

/// Returns how many bytes MinimalBigEndian writes for `v` (1 to 16).
inline int32_t MinimalBigEndianLength(Int128 v) {
  const UInt128 magnitude = static_cast<UInt128>(v) ^ SignWord128(v);  // of ~v for negatives
  uint64_t high = static_cast<uint64_t>(magnitude >> 64);
  uint64_t low = static_cast<uint64_t>(magnitude);
  int32_t bits =
      high != 0 ? 128 - __builtin_clzll(high) : (low != 0 ? 64 - __builtin_clzll(low) : 0);
  return bits / 8 + 1;
}

/// The minimal big-endian two's complement bytes of `v` (as Java's
/// BigInteger.toByteArray: 1 to 16 bytes, zero is one 0x00 byte) followed by
/// zeros up to 16 bytes, as the two 8-byte words to store in memory order,
/// and the count of those bytes.
struct BigEndianWords {
  uint64_t first = 0;
  uint64_t second = 0;
  int32_t length = 0;
};
inline BigEndianWords MinimalBigEndianWords(Int128 v) {
  BigEndianWords out;
  out.length = MinimalBigEndianLength(v);
  // Shift the kept bytes to the top so that, stored big-endian, they come
  // first and zeros fill the rest of the 16 bytes.
  const UInt128 shifted = static_cast<UInt128>(v) << (8 * (16 - out.length));
  out.first = __builtin_bswap64(static_cast<uint64_t>(shifted >> 64));
  out.second = __builtin_bswap64(static_cast<uint64_t>(shifted));
  return out;
}

/// Writes MinimalBigEndianWords(v) to `out` (16 bytes) and returns its
/// length. Inline: the large decimal writers call it once per value. It goes
/// through the struct above because GCC 12 inlines that form better than the
/// same steps written with two local words (docs/BENCHMARKS.md, "Tried").
inline int32_t MinimalBigEndian(Int128 v, uint8_t out[16]) {
  const BigEndianWords words = MinimalBigEndianWords(v);
  std::memcpy(out, &words.first, 8);
  std::memcpy(out + 8, &words.second, 8);
  return words.length;
}

/// Formats a little-endian two's complement integer of `width` bytes (4, 8,
/// 16 or 32) in decimal; values beyond 128 bits are shown in hexadecimal.
std::string DecimalToString(const uint8_t* bytes, int32_t width);

}  // namespace rowbridge::spark
