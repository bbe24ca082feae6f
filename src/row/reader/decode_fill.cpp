// ValueFill (decode_values.hpp): a checked value written into its node's
// Arrow buffers.
#include <cstring>

#include "row/memory_access.hpp"
#include "row/reader/decode_values.hpp"
#include "row/reader/unsafe_layout.hpp"

namespace rowbridge::row {
namespace {

template <typename Offset>
void StoreOffset(DecodeOutput& out, int64_t i, int64_t value) {
  const Offset v = static_cast<Offset>(value);
  std::memcpy(out.values + i * int64_t{sizeof(Offset)}, &v, sizeof(Offset));
}

void StoreDecimal(uint8_t* dst, Int128 value) { std::memcpy(dst, &value, 16); }

}  // namespace

void ValueFill::Fields(const std::vector<int32_t>& fields, RowRegion region) {
  const int64_t num_fields = static_cast<int64_t>(fields.size());
  const uint8_t* slots = region.base + BitsetBytes(num_fields);
  for (int64_t i = 0; i < num_fields; ++i) {
    const int32_t index = fields[static_cast<size_t>(i)];
    if (GetBit(region.base, i)) {
      Null(index);
    } else {
      Value(index, region, slots + 8 * i);
    }
  }
}

void ValueFill::Null(int32_t index) {
  const DecodeNode& node = Node(index);
  DecodeOutput& out = Output(index);
  const int64_t i = out.length++;
  ++out.null_count;
  switch (node.kind) {
    case DecodeKind::kNull:
    case DecodeKind::kBoolean: break;  // bits zeroed at allocation
    case DecodeKind::kFixed: std::memset(out.values + i * node.width, 0, static_cast<size_t>(node.width)); break;
    case DecodeKind::kSmallDecimal:
    case DecodeKind::kLargeDecimal:
    case DecodeKind::kCalendarInterval: std::memset(out.values + i * 16, 0, 16); break;
    case DecodeKind::kString32:
    case DecodeKind::kList32:
    case DecodeKind::kMap: StoreOffset<int32_t>(out, i + 1, Load<int32_t>(out.values + 4 * i)); break;
    case DecodeKind::kString64:
    case DecodeKind::kList64: StoreOffset<int64_t>(out, i + 1, Load<int64_t>(out.values + 8 * i)); break;
    case DecodeKind::kStruct:
      for (int32_t child : node.children) Null(child);
      break;
  }
}

void ValueFill::Value(int32_t index, RowRegion region, const uint8_t* at) {
  const DecodeNode& node = Node(index);
  DecodeOutput& out = Output(index);
  const int64_t i = out.length++;
  SetBit(out.validity, i);
  switch (node.kind) {
    case DecodeKind::kNull: return;
    case DecodeKind::kBoolean:
      if (*at != 0) SetBit(out.values, i);
      return;
    case DecodeKind::kFixed: std::memcpy(out.values + i * node.width, at, static_cast<size_t>(node.width)); return;
    case DecodeKind::kSmallDecimal: StoreDecimal(out.values + i * 16, Load<int64_t>(at)); return;
    default: break;
  }
  const VariableSlot slot = SplitSlot(Load<uint64_t>(at));
  const RowRegion value{region.base + slot.offset, slot.size};
  switch (node.kind) {
    case DecodeKind::kString32:
    case DecodeKind::kString64:
      std::memcpy(out.data + out.data_size, value.base, static_cast<size_t>(value.size));
      out.data_size += value.size;
      if (node.kind == DecodeKind::kString32) {
        StoreOffset<int32_t>(out, i + 1, out.data_size);
      } else {
        StoreOffset<int64_t>(out, i + 1, out.data_size);
      }
      return;
    case DecodeKind::kLargeDecimal:
      StoreDecimal(out.values + i * 16, ReadBigEndianDecimal(value.base, value.size));
      return;
    case DecodeKind::kCalendarInterval: {
      std::memcpy(out.values + i * 16, value.base, 8);             // months, days
      const int64_t nanos = Load<int64_t>(value.base + 8) * 1000;  // checked by the measure pass
      std::memcpy(out.values + i * 16 + 8, &nanos, 8);
      return;
    }
    case DecodeKind::kStruct: Fields(node.children, value); return;
    case DecodeKind::kList32: StoreOffset<int32_t>(out, i + 1, Array(node.children[0], value)); return;
    case DecodeKind::kList64: StoreOffset<int64_t>(out, i + 1, Array(node.children[0], value)); return;
    case DecodeKind::kMap: {
      const int64_t key_bytes = Load<int64_t>(value.base);
      Array(node.children[0], {value.base + 8, key_bytes});
      StoreOffset<int32_t>(out, i + 1, Array(node.children[1], {value.base + 8 + key_bytes, value.size - 8 - key_bytes}));
      return;
    }
    default: return;
  }
}

int64_t ValueFill::Array(int32_t index, RowRegion region) {
  const DecodeNode& element = Node(index);
  const ArrayLayout layout = ReadArrayLayout(region, element.element_size);
  const uint8_t* nulls = region.base + 8;
  for (int64_t k = 0; k < layout.num_elements; ++k) {
    if (GetBit(nulls, k)) {
      Null(index);
    } else {
      Value(index, region, layout.values + k * element.element_size);
    }
  }
  return Output(index).length;
}

}  // namespace rowbridge::row
