// The depth-first writer's body, a template on how bytes are moved (`Ops`),
// compiled once per kernel ISA: nested/depth_first.cpp (portable) and
// simd/depth_first_avx512.cpp. Everything here has internal linkage, so that
// the per-ISA copies never replace one another at link time.
//
// `Ops` provides:
//   CopyPadded(dst, src, length): `length` bytes, zeros up to round8(length);
//   SmallFixed<kWidth>(dst, src, n, nulls): n <= 64 / kWidth values of
//     kWidth bytes, those whose bit is set in `nulls` as zero, then zeros up
//     to round8(n * kWidth).
//
// Every node's writers are resolved once per plan (ResolveDepthFirst): a
// struct, list or map value is one call through its node's `value`, an
// array one call through its element's `array`, specialized on the element
// kind; fields, strings and fixed-width elements are written inline. Each
// writer copies what it reads of its node into locals first: stores into
// the rows may alias anything.
//
// Invariant that makes dead (null) values safe to write: every store lands
// either in the fixed part of a value already laid out (a bitset, a slot, an
// array header) or at the cursor and beyond, which later stores overwrite
// (see depth_first.hpp).
#pragma once

#include <cstdint>

#include "row/nested/depth_first/depth_first_flat.hpp"

namespace rowbridge::row {
namespace {

template <typename Ops>
struct DepthFirst {
  using Flat = DepthFirstFlat<Ops>;

  ROWBRIDGE_DF_INLINE static uint64_t Valid(const uint8_t* validity, int64_t bit) {
    if (validity == nullptr) return 1;
    return (validity[bit >> 3] >> (bit & 7)) & 1;
  }

  // The leaf and array writers over a node: DepthFirstFlat's over the node
  // flattened on the spot.

  template <typename Leaf>
  ROWBRIDGE_DF_INLINE static int64_t LeafField(const DepthFirstNode& node, int64_t x, uint8_t* base,
                                               uint8_t* slot, int64_t cursor, uint64_t& nulls,
                                               uint64_t mask) {
    return Flat::template LeafField<Leaf>(FlatOf(node, 0), x, base, slot, cursor, nulls, mask);
  }

  /// LeafField for a node of any kind (a nested one through its `value`).
  ROWBRIDGE_DF_INLINE static int64_t Field(const DepthFirstNode& node, int64_t x, uint8_t* base,
                                           uint8_t* slot, int64_t cursor, uint64_t& nulls,
                                           uint64_t mask) {
    switch (node.kind) {
      case DepthFirstKind::kFixed:
        switch (node.width) {
          case 1: return LeafField<FixedLeaf<1>>(node, x, base, slot, cursor, nulls, mask);
          case 2: return LeafField<FixedLeaf<2>>(node, x, base, slot, cursor, nulls, mask);
          case 4: return LeafField<FixedLeaf<4>>(node, x, base, slot, cursor, nulls, mask);
          default: return LeafField<FixedLeaf<8>>(node, x, base, slot, cursor, nulls, mask);
        }
      case DepthFirstKind::kString32:
        return LeafField<StringLeaf<int32_t>>(node, x, base, slot, cursor, nulls, mask);
      case DepthFirstKind::kString64:
        return LeafField<StringLeaf<int64_t>>(node, x, base, slot, cursor, nulls, mask);
      case DepthFirstKind::kConverted: {
        const uint64_t keep = 0 - Valid(node.validity, node.offset + x);
        nulls |= mask & ~keep;
        Store64(slot, node.convert_value(node, node.offset + x) & keep);
        return cursor;
      }
      case DepthFirstKind::kLargeDecimal: {
        // 16 bytes whether null or not; a null keeps its offset in the slot.
        const uint64_t keep = 0 - Valid(node.validity, node.offset + x);
        nulls |= mask & ~keep;
        Store64(slot, OffsetAndSize(cursor, static_cast<int64_t>(node.encode_value(
                                                node, node.offset + x, base + cursor, keep))));
        return cursor + 16;
      }
      default: {
        const uint64_t keep = 0 - Valid(node.validity, node.offset + x);
        nulls |= mask & ~keep;
        int64_t size = node.value(node, x, base + cursor) & static_cast<int64_t>(keep);
        Store64(slot, OffsetAndSize(cursor, size) & keep);
        return cursor + size;
      }
    }
  }

  static int64_t Struct(const DepthFirstNode& node, int64_t x, uint8_t* dst) {
    const int64_t fields_x = node.offset + x;
    const int64_t bitset = node.bitset_bytes;
    const int64_t count = node.num_children;
    const DepthFirstNode* fields = node.children;
    for (int64_t b = 8; b < bitset; b += 8) Store64(dst + b, 0);
    int64_t cursor = node.fixed_bytes;
    uint64_t nulls = 0;
    const int64_t first_word = count < 64 ? count : 64;
    for (int64_t i = 0; i < first_word; ++i) {
      cursor =
          Field(fields[i], fields_x, dst, dst + bitset + 8 * i, cursor, nulls, uint64_t{1} << i);
    }
    if (count > 0) Store64(dst, nulls);
    for (int64_t i = 64; i < count; ++i) {
      uint64_t word_nulls = 0;
      cursor = Field(fields[i], fields_x, dst, dst + bitset + 8 * i, cursor, word_nulls,
                     uint64_t{1} << (i & 63));
      uint8_t* word = dst + 8 * (i >> 6);
      Store64(word, Load<uint64_t>(word) | word_nulls);
    }
    return cursor;
  }

  template <typename Offset>
  static int64_t List(const DepthFirstNode& node, int64_t x, uint8_t* dst) {
    const uint8_t* offsets = node.values + (node.offset + x) * int64_t{sizeof(Offset)};
    const int64_t first = Flat::template OffsetAt<Offset>(offsets, 0);
    const int64_t n = Flat::template OffsetAt<Offset>(offsets, 1) - first;
    const DepthFirstNode& element = *node.children;
    return element.array(element, first, n, dst);
  }

  static int64_t Map(const DepthFirstNode& node, int64_t x, uint8_t* dst) {
    const uint8_t* offsets = node.values + (node.offset + x) * 4;
    const int64_t first = Flat::template OffsetAt<int32_t>(offsets, 0);
    const int64_t n = Flat::template OffsetAt<int32_t>(offsets, 1) - first;
    const DepthFirstNode& key = node.children[0];
    const DepthFirstNode& value = node.children[1];
    int64_t keys = key.array(key, first, n, dst + 8);
    Store64(dst, static_cast<uint64_t>(keys));
    return 8 + keys + value.array(value, first, n, dst + 8 + keys);
  }

  ROWBRIDGE_DF_INLINE static int64_t Header(const DepthFirstNode& element, int64_t first, int64_t n,
                                            uint8_t* dst, uint64_t* nulls) {
    return Flat::Header(FlatOf(element, 0), first, n, dst, nulls);
  }

  template <int kWidth>
  ROWBRIDGE_DF_INLINE static int64_t FixedArray(const DepthFirstNode& element, int64_t first,
                                                int64_t n, uint8_t* dst) {
    return Flat::template FixedArray<kWidth>(FlatOf(element, 0), first, n, dst);
  }

  template <typename Offset>
  ROWBRIDGE_DF_INLINE static int64_t StringArray(const DepthFirstNode& element, int64_t first,
                                                 int64_t n, uint8_t* dst) {
    return Flat::template StringArray<Offset>(FlatOf(element, 0), first, n, dst);
  }

  static int64_t NestedArray(const DepthFirstNode& element, int64_t first, int64_t n,
                             uint8_t* dst) {
    uint64_t nulls;
    const int64_t header = Header(element, first, n, dst, &nulls);
    const uint8_t* validity = element.validity;
    const int64_t base = element.offset + first;
    const DepthFirstValueFn value = element.value;
    uint8_t* slots = dst + header;
    int64_t cursor = header + 8 * n;
    if (__builtin_expect(n <= 56, 1)) {
      // The header's null word holds every element's validity.
      for (int64_t k = 0; k < n; ++k) {
        cursor = NestedElement(element, value, first + k, ((nulls >> k) & 1) - 1, dst,
                               slots + 8 * k, cursor);
      }
      return cursor;
    }
    for (int64_t k = 0; k < n; ++k) {
      cursor = NestedElement(element, value, first + k, 0 - Valid(validity, base + k), dst,
                             slots + 8 * k, cursor);
    }
    return cursor;
  }

  /// Nested element x of `element` (valid when `keep` is all ones) at
  /// `dst + cursor`, its offset and size in `slot`; returns the cursor past it.
  ROWBRIDGE_DF_INLINE static int64_t NestedElement(const DepthFirstNode& element,
                                                   DepthFirstValueFn value, int64_t x,
                                                   uint64_t keep, uint8_t* dst, uint8_t* slot,
                                                   int64_t cursor) {
    int64_t size = value(element, x, dst + cursor) & static_cast<int64_t>(keep);
    Store64(slot, OffsetAndSize(cursor, size) & keep);
    return cursor + size;
  }

  static void Rows(const DepthFirstPlan& plan, int64_t batch_offset, int64_t row, int64_t rows,
                   uint8_t* base, int64_t* offsets) {
    const int64_t fixed = plan.fixed_row_bytes;
    const DepthFirstColumn* columns = plan.columns.data();
    const int64_t num_columns = static_cast<int64_t>(plan.columns.size());
    const DepthFirstNode* nodes = plan.nodes.data();
    const DepthFirstFlatNode* flat_nodes = plan.flat_nodes.data();
    const int32_t* zero_words = plan.zero_words.data();
    const int64_t num_zero_words = static_cast<int64_t>(plan.zero_words.size());
    int64_t position = offsets[0];
    for (int64_t r = 0; r < rows; ++r) {
      uint8_t* out = base + position;
      for (int64_t w = 0; w < num_zero_words; ++w) Store64(out + zero_words[w], 0);
      int64_t cursor = fixed;
      const int64_t x = batch_offset + row + r;
      // The first bitset word is built in a register and stored once.
      uint64_t first_word = 0;
      for (int64_t c = 0; c < num_columns; ++c) {
        const DepthFirstColumn& column = columns[c];
        const DepthFirstCursor written =
            column.flat != nullptr
                ? column.flat(flat_nodes + c * kFlatNodesPerColumn, x, out,
                              out + column.slot_offset, cursor, column.null_mask)
                : column.field(nodes[column.node], x, out, out + column.slot_offset, cursor,
                               column.null_mask);
        cursor = written.cursor;
        if (column.null_word_offset == 0) {
          first_word |= written.nulls;
        } else {
          uint8_t* word = out + column.null_word_offset;
          Store64(word, Load<uint64_t>(word) | written.nulls);
        }
      }
      Store64(out, first_word);
      position += cursor;
      offsets[r + 1] = position;
    }
  }

  static DepthFirstArrayFn ArrayOf(const DepthFirstNode& element) {
    switch (element.kind) {
      case DepthFirstKind::kFixed:
        switch (element.width) {
          case 1: return FixedArray<1>;
          case 2: return FixedArray<2>;
          case 4: return FixedArray<4>;
          default: return FixedArray<8>;
        }
      case DepthFirstKind::kString32: return StringArray<int32_t>;
      case DepthFirstKind::kString64: return StringArray<int64_t>;
      case DepthFirstKind::kConverted:
      case DepthFirstKind::kLargeDecimal: return element.convert_array;
      default: return NestedArray;
    }
  }

  static DepthFirstValueFn ValueOf(const DepthFirstNode& node) {
    switch (node.kind) {
      case DepthFirstKind::kStruct: return Struct;
      case DepthFirstKind::kList32: return List<int32_t>;
      case DepthFirstKind::kList64: return List<int64_t>;
      case DepthFirstKind::kMap: return Map;
      default: return nullptr;
    }
  }

  static void Resolve(DepthFirstPlan* plan) {
    for (DepthFirstNode& node : plan->nodes) {
      node.children = node.first_child >= 0 ? plan->nodes.data() + node.first_child : nullptr;
      node.value = ValueOf(node);
      node.array = ArrayOf(node);
    }
    plan->write = Rows;
  }
};

}  // namespace
}  // namespace rowbridge::row
