#include "row/decimal_math.hpp"

#include <array>
#include <cstring>

namespace rowbridge::row {
namespace {

constexpr std::array<UInt128, 39> MakePowersOfTen() {
  std::array<UInt128, 39> powers{};
  powers[0] = 1;
  for (size_t i = 1; i < powers.size(); ++i) powers[i] = powers[i - 1] * 10;
  return powers;
}

constexpr std::array<UInt128, 39> kPowersOfTen = MakePowersOfTen();

std::string UInt128ToString(UInt128 v) {
  if (v == 0) return "0";
  std::string digits;
  while (v != 0) {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  }
  return digits;
}

}  // namespace

UInt128 PowerOfTen(int32_t digits) { return kPowersOfTen[static_cast<size_t>(digits)]; }

int32_t MinimalBigEndian(Int128 v, uint8_t out[16]) {
  // Drop leading bytes that only repeat the sign of the byte after them.
  uint8_t little[16];
  std::memcpy(little, &v, 16);
  int32_t length = 16;
  while (length > 1) {
    uint8_t top = little[length - 1];
    bool next_negative = (little[length - 2] & 0x80) != 0;
    if ((top == 0x00 && !next_negative) || (top == 0xff && next_negative)) {
      --length;
    } else {
      break;
    }
  }
  for (int32_t i = 0; i < length; ++i) out[i] = little[length - 1 - i];
  return length;
}

std::string DecimalToString(const uint8_t* bytes, int32_t width) {
  Int128 v;
  if (width == 4) {
    int32_t x;
    std::memcpy(&x, bytes, 4);
    v = x;
  } else if (width == 8) {
    int64_t x;
    std::memcpy(&x, bytes, 8);
    v = x;
  } else {
    std::memcpy(&v, bytes, 16);
    if (width == 32) {
      uint64_t sign = v < 0 ? ~uint64_t{0} : 0;
      for (int word = 2; word < 4; ++word) {
        uint64_t w;
        std::memcpy(&w, bytes + word * 8, 8);
        if (w != sign) {
          static const char kHex[] = "0123456789abcdef";
          std::string hex = "0x";
          for (int i = 31; i >= 0; --i) {
            hex += kHex[bytes[i] >> 4];
            hex += kHex[bytes[i] & 15];
          }
          return hex;
        }
      }
    }
  }
  if (v >= 0) return UInt128ToString(static_cast<UInt128>(v));
  std::string text = UInt128ToString(UInt128(0) - static_cast<UInt128>(v));
  text.insert(text.begin(), '-');
  return text;
}

}  // namespace rowbridge::row
