// The fill functions of leaf nodes (fill_tile.hpp): a tile of values copied
// into their Arrow buffers in one loop each, a null's value masked to zero.
#include <cstring>

#include "decoder/decode_values.hpp"
#include "decoder/fill_tile.hpp"
#include "decoder/unsafe_layout.hpp"
#include "spark/memory_access.hpp"

namespace rowbridge::decoder {
namespace {

// Each loop reads the tile and the output into locals first: stores into
// the byte buffers may alias anything.

template <typename T>
void FillFixedValues(const FillContext& context, int32_t index, const ValueTile& tile) {
  DecodeOutput& out = context.Output(index);
  uint8_t* values = out.values + out.length * int64_t{sizeof(T)};
  const uint64_t valid = tile.valid;
  const int64_t count = tile.count;
  for (int64_t i = 0; i < count; ++i) {
    const T value = static_cast<T>(Load<T>(tile.at[i]) & static_cast<T>(ValidMask(valid, i)));
    std::memcpy(values + i * int64_t{sizeof(T)}, &value, sizeof(T));
  }
  AppendValidity(&out, valid, count);
}

void FillBooleans(const FillContext& context, int32_t index, const ValueTile& tile) {
  DecodeOutput& out = context.Output(index);
  uint64_t bits = 0;
  for (int64_t i = 0; i < tile.count; ++i) bits |= static_cast<uint64_t>(*tile.at[i] != 0) << i;
  OrBits(out.values, out.length, bits & tile.valid, tile.count);
  AppendValidity(&out, tile.valid, tile.count);
}

void FillSmallDecimals(const FillContext& context, int32_t index, const ValueTile& tile) {
  DecodeOutput& out = context.Output(index);
  uint8_t* values = out.values + out.length * 16;
  const uint64_t valid = tile.valid;
  for (int64_t i = 0; i < tile.count; ++i) {
    const int64_t low = Load<int64_t>(tile.at[i]) & static_cast<int64_t>(ValidMask(valid, i));
    const int64_t high = low >> 63;
    std::memcpy(values + i * 16, &low, 8);
    std::memcpy(values + i * 16 + 8, &high, 8);
  }
  AppendValidity(&out, valid, tile.count);
}

void FillLargeDecimals(const FillContext& context, int32_t index, const ValueTile& tile) {
  DecodeOutput& out = context.Output(index);
  uint8_t* values = out.values + out.length * 16;
  for (int64_t i = 0; i < tile.count; ++i) {
    spark::Int128 value = 0;
    if ((tile.valid >> i) & 1) {
      const VariableSlot slot = SplitSlot(Load<uint64_t>(tile.at[i]));
      value = ReadBigEndianDecimal(tile.base[i] + slot.offset, slot.size);
    }
    std::memcpy(values + i * 16, &value, 16);
  }
  AppendValidity(&out, tile.valid, tile.count);
}

void FillIntervals(const FillContext& context, int32_t index, const ValueTile& tile) {
  DecodeOutput& out = context.Output(index);
  uint8_t* values = out.values + out.length * 16;
  for (int64_t i = 0; i < tile.count; ++i) {
    uint8_t* value = values + i * 16;
    if ((tile.valid >> i) & 1) {
      const VariableSlot slot = SplitSlot(Load<uint64_t>(tile.at[i]));
      const uint8_t* interval = tile.base[i] + slot.offset;
      std::memcpy(value, interval, 8);                           // months, days
      const int64_t nanos = Load<int64_t>(interval + 8) * 1000;  // checked by the measure pass
      std::memcpy(value + 8, &nanos, 8);
    } else {
      std::memset(value, 0, 16);
    }
  }
  AppendValidity(&out, tile.valid, tile.count);
}

template <typename Offset>
void FillStrings(const FillContext& context, int32_t index, const ValueTile& tile) {
  DecodeOutput& out = context.Output(index);
  uint8_t* offsets = out.values + (out.length + 1) * int64_t{sizeof(Offset)};
  uint8_t* data = out.data;
  const uintptr_t short_end = context.short_end;
  const uint64_t valid = tile.valid;
  int64_t position = out.data_size;
  for (int64_t i = 0; i < tile.count; ++i) {
    const VariableSlot slot = SplitSlot(Load<uint64_t>(tile.at[i]) & ValidMask(valid, i));
    CopyString(data + position, tile.base[i] + slot.offset, slot.size, short_end);
    position += slot.size;
    const Offset end = static_cast<Offset>(position);
    std::memcpy(offsets + i * int64_t{sizeof(Offset)}, &end, sizeof(Offset));
  }
  out.data_size = position;
  AppendValidity(&out, valid, tile.count);
}

void FillNulls(const FillContext& context, int32_t index, const ValueTile& tile) {
  DecodeOutput& out = context.Output(index);
  out.length += tile.count;
  out.null_count += tile.count;
}

}  // namespace

NodeFillFn LeafFillFunction(const DecodeNode& node) {
  switch (node.kind) {
    case DecodeKind::kNull: return FillNulls;
    case DecodeKind::kBoolean: return FillBooleans;
    case DecodeKind::kFixed:
      switch (node.width) {
        case 1: return FillFixedValues<uint8_t>;
        case 2: return FillFixedValues<uint16_t>;
        case 4: return FillFixedValues<uint32_t>;
        default: return FillFixedValues<uint64_t>;
      }
    case DecodeKind::kSmallDecimal: return FillSmallDecimals;
    case DecodeKind::kLargeDecimal: return FillLargeDecimals;
    case DecodeKind::kString32: return FillStrings<int32_t>;
    case DecodeKind::kString64: return FillStrings<int64_t>;
    case DecodeKind::kCalendarInterval: return FillIntervals;
    default: return nullptr;
  }
}

}  // namespace rowbridge::decoder
