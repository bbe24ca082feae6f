// Reading the parts of UnsafeRow, UnsafeArrayData and UnsafeMapData bytes
// (CONTRACTS.md §3) that the row decoder's passes share.
#pragma once

#include <climits>
#include <cstdint>

#include "decoder/decode_passes.hpp"
#include "spark/decimal_math.hpp"
#include "spark/memory_access.hpp"

namespace rowbridge::decoder {

/// A variable-length value's slot: offset (from its region's start) and
/// size, each 32 bits.
struct VariableSlot {
  int64_t offset;
  int64_t size;
};

inline VariableSlot SplitSlot(uint64_t slot) {
  return VariableSlot{static_cast<int64_t>(slot >> 32), static_cast<int64_t>(slot & 0xffffffffu)};
}

/// An UnsafeArrayData's header read from `region`: its element count, its
/// null bits (at region.base + 8) and where its element values start.
struct ArrayLayout {
  bool ok = false;  // the header and the values fit the region
  int64_t num_elements = 0;
  const uint8_t* values = nullptr;
};

/// Spark's largest array (ByteArrayMethods.MAX_ROUNDED_ARRAY_LENGTH).
inline constexpr int64_t kMaxArrayElements = INT32_MAX - 15;

inline ArrayLayout ReadArrayLayout(RowRegion region, int32_t element_size) {
  ArrayLayout layout;
  if (region.size < 8) return layout;
  layout.num_elements = Load<int64_t>(region.base);
  if (layout.num_elements < 0 || layout.num_elements > kMaxArrayElements) return layout;
  const int64_t header = 8 + spark::BitsetBytes(layout.num_elements);
  layout.ok = header + spark::RoundUp8(layout.num_elements * element_size) <= region.size;
  layout.values = region.base + header;
  return layout;
}

/// The two's complement big-endian integer of `size` (1-16) bytes.
inline spark::Int128 ReadBigEndianDecimal(const uint8_t* bytes, int64_t size) {
  spark::UInt128 value = bytes[0] & 0x80 ? ~spark::UInt128{0} : 0;
  for (int64_t i = 0; i < size; ++i) value = (value << 8) | bytes[i];
  return static_cast<spark::Int128>(value);
}

}  // namespace rowbridge::decoder
