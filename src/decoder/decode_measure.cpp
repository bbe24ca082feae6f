// ValueMeasure (decode_values.hpp): a value's bounds, headers and contents
// checked; its node's elements and bytes counted.
#include <string>

#include "decoder/decode_values.hpp"
#include "decoder/unsafe_layout.hpp"
#include "spark/decimal_math.hpp"
#include "spark/memory_access.hpp"

namespace rowbridge::decoder {

Status ValueMeasure::Error(const DecodeNode& node, int64_t row, const std::string& message) {
  return Status::Invalid("field '" + node.path + "' row " + std::to_string(row) + ": " + message);
}

Status ValueMeasure::Overflow(const DecodeNode& node, int64_t row, const std::string& message) {
  return Status::Overflow("field '" + node.path + "' row " + std::to_string(row) + ": " + message);
}

bool ValueMeasure::Fields(const std::vector<int32_t>& fields, RowRegion region, int64_t row) {
  const int64_t num_fields = static_cast<int64_t>(fields.size());
  const uint8_t* slots = region.base + spark::BitsetBytes(num_fields);
  for (int64_t i = 0; i < num_fields; ++i) {
    const int32_t index = fields[static_cast<size_t>(i)];
    const DecodeNode& node = Node(index);
    if (GetBit(region.base, i)) {
      if (!node.nullable) return Fail(Error(node, row, "null in a non-nullable field"));
      continue;
    }
    // Leaves inline; the rest (and any failure, to be named) through Value.
    switch (node.kind) {
      case DecodeKind::kNull:
      case DecodeKind::kBoolean:
      case DecodeKind::kFixed: continue;
      case DecodeKind::kString32:
      case DecodeKind::kString64: {
        const VariableSlot slot = SplitSlot(Load<uint64_t>(slots + 8 * i));
        if (slot.offset + slot.size <= region.size) {
          counts_[static_cast<size_t>(index)].bytes += slot.size;
          continue;
        }
        break;
      }
      default: break;
    }
    if (!Value(index, region, slots + 8 * i, row)) return false;
  }
  return true;
}

bool ValueMeasure::Value(int32_t index, RowRegion region, const uint8_t* at, int64_t row) {
  const DecodeNode& node = Node(index);
  if (node.kind == DecodeKind::kSmallDecimal) {
    const int64_t unscaled = Load<int64_t>(at);
    if (!spark::FitsPrecision(unscaled, node.precision)) {
      return Fail(Overflow(node, row,
                           "the unscaled value " + std::to_string(unscaled) +
                               " exceeds precision " + std::to_string(node.precision)));
    }
    return true;
  }
  if (!IsVariable(node.kind)) return true;
  const VariableSlot slot = SplitSlot(Load<uint64_t>(at));
  if (slot.offset + slot.size > region.size) {
    return Fail(Error(node, row,
                      "a value of " + std::to_string(slot.size) + " bytes at offset " +
                          std::to_string(slot.offset) + " leaves the " +
                          std::to_string(region.size) + " bytes of its row, array or map"));
  }
  return Variable(node, index, {region.base + slot.offset, slot.size}, row);
}

bool ValueMeasure::Variable(const DecodeNode& node, int32_t index, RowRegion value, int64_t row) {
  DecodeCounts& counts = counts_[static_cast<size_t>(index)];
  switch (node.kind) {
    case DecodeKind::kString32:
    case DecodeKind::kString64: counts.bytes += value.size; return true;
    case DecodeKind::kLargeDecimal: {
      if (value.size < 1 || value.size > 16) {
        return Fail(Error(
            node, row, "a decimal of " + std::to_string(value.size) + " bytes (1 to 16 expected)"));
      }
      if (!spark::FitsPrecision128(ReadBigEndianDecimal(value.base, value.size), node.precision)) {
        return Fail(Overflow(
            node, row, "the unscaled value exceeds precision " + std::to_string(node.precision)));
      }
      return true;
    }
    case DecodeKind::kCalendarInterval: {
      if (value.size != 16) {
        return Fail(
            Error(node, row,
                  "a calendar interval of " + std::to_string(value.size) + " bytes (16 expected)"));
      }
      int64_t nanos;
      if (__builtin_mul_overflow(Load<int64_t>(value.base + 8), int64_t{1000}, &nanos)) {
        return Fail(Overflow(node, row, "its microseconds overflow int64 nanoseconds"));
      }
      return true;
    }
    case DecodeKind::kVariant: {
      const int64_t value_bytes = value.size >= 4 ? Load<int32_t>(value.base) : -1;
      if (value_bytes < 0 || value_bytes > value.size - 4) {
        return Fail(Error(node, row,
                          "a variant of " + std::to_string(value.size) +
                              " bytes whose value length is " +
                              (value.size >= 4 ? std::to_string(value_bytes) : "cut off")));
      }
      counts_[static_cast<size_t>(node.children[0])].bytes += value_bytes;
      counts_[static_cast<size_t>(node.children[1])].bytes += value.size - 4 - value_bytes;
      return true;
    }
    case DecodeKind::kStruct:
      if (value.size < node.fixed_bytes) {
        return Fail(Error(node, row,
                          "a nested row of " + std::to_string(value.size) +
                              " bytes, shorter than its " + std::to_string(node.fixed_bytes) +
                              "-byte bitset and slots"));
      }
      return Fields(node.children, value, row);
    case DecodeKind::kList32:
    case DecodeKind::kList64: {
      int64_t n = 0;
      if (!Array(node, node.children[0], value, false, row, &n)) return false;
      counts.elements += n;
      return true;
    }
    case DecodeKind::kMap: {
      if (value.size < 8)
        return Fail(Error(node, row, "a map of " + std::to_string(value.size) + " bytes"));
      const int64_t key_bytes = Load<int64_t>(value.base);
      if (key_bytes < 0 || key_bytes > value.size - 8) {
        return Fail(Error(node, row,
                          "a key array of " + std::to_string(key_bytes) + " bytes in a map of " +
                              std::to_string(value.size)));
      }
      int64_t keys = 0;
      int64_t values = 0;
      if (!Array(node, node.children[0], {value.base + 8, key_bytes}, true, row, &keys))
        return false;
      if (!Array(node, node.children[1], {value.base + 8 + key_bytes, value.size - 8 - key_bytes},
                 false, row, &values))
        return false;
      if (keys != values) {
        return Fail(Error(
            node, row, std::to_string(keys) + " keys and " + std::to_string(values) + " values"));
      }
      counts.elements += keys;
      return true;
    }
    default: return true;
  }
}

bool ValueMeasure::LeafStructs(const DecodeNode& element, RowRegion region,
                               const ArrayLayout& layout, bool keys) {
  // Every element checked without a branch per check; any failure leaves
  // the naming to the general loop (nothing is counted then).
  const int64_t num_fields = static_cast<int64_t>(element.children.size());
  const bool null_allowed = element.nullable && !keys;
  const uint8_t* nulls = region.base + 8;
  int64_t bytes[kMaxLeafFields];
  for (int64_t i = 0; i < num_fields; ++i) bytes[i] = 0;
  uint64_t bad = 0;
  for (int64_t k = 0; k < layout.num_elements && bad == 0; ++k) {
    if (GetBit(nulls, k)) {
      bad |= !null_allowed;
      continue;
    }
    const VariableSlot slot = SplitSlot(Load<uint64_t>(layout.values + 8 * k));
    if (static_cast<uint64_t>(region.size - slot.offset - slot.size) >> 63) return false;
    bad |= CheckLeafStruct(element, region.base + slot.offset, slot.size, bytes);
  }
  if (bad != 0) return false;
  for (int64_t i = 0; i < num_fields; ++i)
    counts_[static_cast<size_t>(element.children[static_cast<size_t>(i)])].bytes += bytes[i];
  return true;
}

bool ValueMeasure::Array(const DecodeNode& parent, int32_t index, RowRegion region, bool keys,
                         int64_t row, int64_t* n) {
  const DecodeNode& element = Node(index);
  const ArrayLayout layout = ReadArrayLayout(region, element.element_size);
  if (!layout.ok) {
    return Fail(Error(parent, row,
                      "an array header of " + std::to_string(layout.num_elements) +
                          " elements does not fit its " + std::to_string(region.size) + " bytes"));
  }
  *n = layout.num_elements;
  const bool check_values = IsVariable(element.kind) || element.kind == DecodeKind::kSmallDecimal;
  if (!keys && element.nullable && !check_values) return true;
  if (element.kind == DecodeKind::kStruct && element.leaf_fields &&
      LeafStructs(element, region, layout, keys)) {
    return true;
  }
  if ((element.kind == DecodeKind::kString32 || element.kind == DecodeKind::kString64) &&
      element.nullable) {
    // Strings: their bounds and bytes in one loop, branch-free but for a
    // null key; a failing value is named by the general loop below.
    const uint8_t* nulls = region.base + 8;
    int64_t bytes = 0;
    uint64_t out_of_bounds = 0;
    uint64_t any_null = 0;
    for (int64_t k = 0; k < layout.num_elements; ++k) {
      const uint64_t null = (nulls[k >> 3] >> (k & 7)) & 1;
      any_null |= null;
      const VariableSlot slot = SplitSlot(Load<uint64_t>(layout.values + 8 * k) & (null - 1));
      out_of_bounds |= static_cast<uint64_t>(region.size - slot.offset - slot.size) >> 63;
      bytes += slot.size;
    }
    if (out_of_bounds == 0 && (!keys || any_null == 0)) {
      counts_[static_cast<size_t>(index)].bytes += bytes;
      return true;
    }
  }
  for (int64_t k = 0; k < layout.num_elements; ++k) {
    if (GetBit(region.base + 8, k)) {
      if (keys) return Fail(Error(parent, row, "map key " + std::to_string(k) + " is null"));
      if (!element.nullable) {
        return Fail(Error(parent, row,
                          "element " + std::to_string(k) + " is null in an array without nulls"));
      }
      continue;
    }
    if (check_values && !Value(index, region, layout.values + k * element.element_size, row))
      return false;
  }
  return true;
}

}  // namespace rowbridge::decoder
