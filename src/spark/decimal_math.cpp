#include "spark/decimal_math.hpp"

#include <array>
#include <cstring>

namespace rowbridge::spark {
namespace {

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

}  // namespace rowbridge::spark
