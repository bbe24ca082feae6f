// ValueFill (decode_values.hpp): a checked value written into its node's
// Arrow buffers.
#include <cstring>

#include "decoder/decode_values.hpp"
#include "decoder/unsafe_layout.hpp"
#include "spark/memory_access.hpp"

namespace rowbridge::decoder {
namespace {

template <typename Offset>
void StoreOffset(DecodeOutput& out, int64_t i, int64_t value) {
  const Offset v = static_cast<Offset>(value);
  std::memcpy(out.values + i * int64_t{sizeof(Offset)}, &v, sizeof(Offset));
}

void StoreDecimal(uint8_t* dst, spark::Int128 value) { std::memcpy(dst, &value, 16); }

/// Copies `width` (1, 2, 4 or 8) bytes with a move the compiler inlines.
void CopyWidth(uint8_t* dst, const uint8_t* src, int32_t width) {
  switch (width) {
    case 1: *dst = *src; return;
    case 2: std::memcpy(dst, src, 2); return;
    case 4: std::memcpy(dst, src, 4); return;
    default: std::memcpy(dst, src, 8); return;
  }
}

/// ORs the low `n` (<= 64) bits of `word` into `bitmap` from bit `at` on
/// (the bitmap has 16 bytes of slack past its bits).
void OrBits(uint8_t* bitmap, int64_t at, uint64_t word, int64_t n) {
  if (n < 64) word &= (uint64_t{1} << n) - 1;
  uint8_t* p = bitmap + (at >> 3);
  const unsigned shift = static_cast<unsigned>(at & 7);
  Store64(p, Load<uint64_t>(p) | (word << shift));
  if (shift != 0) p[8] = static_cast<uint8_t>(p[8] | (word >> (64 - shift)));
}

int64_t PopCount(uint64_t word) {
  word = word - ((word >> 1) & 0x5555555555555555ull);
  word = (word & 0x3333333333333333ull) + ((word >> 2) & 0x3333333333333333ull);
  word = (word + (word >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return static_cast<int64_t>((word * 0x0101010101010101ull) >> 56);
}

/// Sets the validity of `n` array elements appended to `out` (from bit
/// out.length on) from the array's null words, and counts their nulls.
void AppendArrayValidity(const uint8_t* nulls, int64_t n, DecodeOutput* out) {
  for (int64_t k = 0; k < n; k += 64) {
    const int64_t bits = n - k < 64 ? n - k : 64;
    const uint64_t null_word =
        Load<uint64_t>(nulls + k / 8) & (bits < 64 ? (uint64_t{1} << bits) - 1 : ~uint64_t{0});
    OrBits(out->validity, out->length + k, ~null_word, bits);
    out->null_count += PopCount(null_word);
  }
}

/// Stores `end` as offset `i` of a string node's output.
void StoreStringEnd(DecodeKind kind, DecodeOutput& out, int64_t i, int64_t end) {
  if (kind == DecodeKind::kString32) {
    StoreOffset<int32_t>(out, i, end);
  } else {
    StoreOffset<int64_t>(out, i, end);
  }
}

}  // namespace

void ValueFill::Fields(const std::vector<int32_t>& fields, RowRegion region) {
  const int64_t num_fields = static_cast<int64_t>(fields.size());
  const uint8_t* slots = region.base + spark::BitsetBytes(num_fields);
  for (int64_t i = 0; i < num_fields; ++i) {
    const int32_t index = fields[static_cast<size_t>(i)];
    if (GetBit(region.base, i)) {
      Null(index);
      continue;
    }
    // Fixed-width and string leaves inline; the rest through Value.
    const DecodeNode& node = Node(index);
    DecodeOutput& out = Output(index);
    const uint8_t* slot = slots + 8 * i;
    switch (node.kind) {
      case DecodeKind::kFixed:
        SetBit(out.validity, out.length);
        CopyWidth(out.values + out.length * node.width, slot, node.width);
        ++out.length;
        continue;
      case DecodeKind::kString32:
      case DecodeKind::kString64: {
        const VariableSlot value = SplitSlot(Load<uint64_t>(slot));
        SetBit(out.validity, out.length);
        CopyString(out.data + out.data_size, region.base + value.offset, value.size, short_end_);
        out.data_size += value.size;
        ++out.length;
        StoreStringEnd(node.kind, out, out.length, out.data_size);
        continue;
      }
      default: Value(index, region, slot); continue;
    }
  }
}

void ValueFill::AppendBytes(int32_t index, const uint8_t* bytes, int64_t size) {
  const DecodeNode& node = Node(index);
  DecodeOutput& out = Output(index);
  SetBit(out.validity, out.length);
  if (size > 0) std::memcpy(out.data + out.data_size, bytes, static_cast<size_t>(size));
  out.data_size += size;
  ++out.length;
  StoreStringEnd(node.kind, out, out.length, out.data_size);
}

void ValueFill::Null(int32_t index) {
  const DecodeNode& node = Node(index);
  DecodeOutput& out = Output(index);
  const int64_t i = out.length++;
  ++out.null_count;
  switch (node.kind) {
    case DecodeKind::kNull:
    case DecodeKind::kBoolean: break;  // bits zeroed at allocation
    case DecodeKind::kFixed: {
      static constexpr uint8_t kZeros[8] = {};
      CopyWidth(out.values + i * node.width, kZeros, node.width);
      break;
    }
    case DecodeKind::kSmallDecimal:
    case DecodeKind::kLargeDecimal:
    case DecodeKind::kCalendarInterval: std::memset(out.values + i * 16, 0, 16); break;
    case DecodeKind::kString32:
    case DecodeKind::kList32:
    case DecodeKind::kMap:
      StoreOffset<int32_t>(out, i + 1, Load<int32_t>(out.values + 4 * i));
      break;
    case DecodeKind::kString64:
    case DecodeKind::kList64:
      StoreOffset<int64_t>(out, i + 1, Load<int64_t>(out.values + 8 * i));
      break;
    case DecodeKind::kStruct:
      for (int32_t child : node.children) Null(child);
      break;
    case DecodeKind::kVariant:  // its children are not nullable: empty values
      for (int32_t child : node.children) AppendBytes(child, nullptr, 0);
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
    case DecodeKind::kFixed: CopyWidth(out.values + i * node.width, at, node.width); return;
    case DecodeKind::kSmallDecimal: StoreDecimal(out.values + i * 16, Load<int64_t>(at)); return;
    default: break;
  }
  const VariableSlot slot = SplitSlot(Load<uint64_t>(at));
  const RowRegion value{region.base + slot.offset, slot.size};
  switch (node.kind) {
    case DecodeKind::kString32:
    case DecodeKind::kString64:
      CopyString(out.data + out.data_size, value.base, value.size, short_end_);
      out.data_size += value.size;
      StoreStringEnd(node.kind, out, i + 1, out.data_size);
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
    case DecodeKind::kVariant: {
      const int64_t value_bytes = Load<int32_t>(value.base);  // checked by the measure pass
      AppendBytes(node.children[0], value.base + 4, value_bytes);
      AppendBytes(node.children[1], value.base + 4 + value_bytes, value.size - 4 - value_bytes);
      return;
    }
    case DecodeKind::kList32:
      StoreOffset<int32_t>(out, i + 1, Array(node.children[0], value));
      return;
    case DecodeKind::kList64:
      StoreOffset<int64_t>(out, i + 1, Array(node.children[0], value));
      return;
    case DecodeKind::kMap: {
      const int64_t key_bytes = Load<int64_t>(value.base);
      Array(node.children[0], {value.base + 8, key_bytes});
      StoreOffset<int32_t>(
          out, i + 1,
          Array(node.children[1], {value.base + 8 + key_bytes, value.size - 8 - key_bytes}));
      return;
    }
    default: return;
  }
}

int64_t ValueFill::Array(int32_t index, RowRegion region) {
  const DecodeNode& element = Node(index);
  const ArrayLayout layout = ReadArrayLayout(region, element.element_size);
  const uint8_t* nulls = region.base + 8;
  if (element.kind == DecodeKind::kFixed) {
    // The element values as they are (a null one is zero in the array), the
    // validity from the null words.
    DecodeOutput& out = Output(index);
    const int64_t n = layout.num_elements;
    // An exact-size target of empty arrays may have no values buffer at all.
    if (n > 0) {
      std::memcpy(out.values + out.length * element.width, layout.values,
                  static_cast<size_t>(n * element.width));
    }
    AppendArrayValidity(nulls, n, &out);
    out.length += n;
    return out.length;
  }
  if (element.kind == DecodeKind::kString32 || element.kind == DecodeKind::kString64) {
    DecodeOutput& out = Output(index);
    const int64_t n = layout.num_elements;
    uint8_t* data = out.data;
    int64_t position = out.data_size;
    const uintptr_t short_end = short_end_;
    for (int64_t k = 0; k < n; ++k) {
      const uint64_t valid = ((nulls[k >> 3] >> (k & 7)) & 1) ^ 1;
      const VariableSlot slot = SplitSlot(Load<uint64_t>(layout.values + 8 * k) & (0 - valid));
      CopyString(data + position, region.base + slot.offset, slot.size, short_end);
      position += slot.size;
      StoreStringEnd(element.kind, out, out.length + k + 1, position);
    }
    AppendArrayValidity(nulls, n, &out);
    out.data_size = position;
    out.length += n;
    return out.length;
  }
  if (element.kind == DecodeKind::kStruct && element.leaf_fields) {
    // Structs of leaves: their fields written here, without a Value call.
    for (int64_t k = 0; k < layout.num_elements; ++k) {
      if (GetBit(nulls, k)) {
        Null(index);
        continue;
      }
      DecodeOutput& out = Output(index);
      SetBit(out.validity, out.length++);
      const VariableSlot slot = SplitSlot(Load<uint64_t>(layout.values + 8 * k));
      Fields(element.children, {region.base + slot.offset, slot.size});
    }
    return Output(index).length;
  }
  for (int64_t k = 0; k < layout.num_elements; ++k) {
    if (GetBit(nulls, k)) {
      Null(index);
    } else {
      Value(index, region, layout.values + k * element.element_size);
    }
  }
  return Output(index).length;
}

}  // namespace rowbridge::decoder
