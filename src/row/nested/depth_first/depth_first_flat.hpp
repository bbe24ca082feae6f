// The depth-first writer's leaf and array writers over flat nodes
// (DepthFirstFlatNode: offsets folded in, validity never absent). The
// shaped writers of depth_first_shapes.hpp call them with the flat nodes
// bound per batch, so that nothing of a node is re-derived per value (no
// offset added, no branch on an absent bitmap); the generic writers of
// depth_first_writer.hpp call them with a node flattened on the spot
// (FlatOf). A template on how bytes are moved (`Ops`, see
// depth_first_writer.hpp); internal linkage, included by the per-ISA files.
#pragma once

#include <climits>
#include <cstdint>
#include <cstring>

#include "row/column_writer.hpp"
#include "row/nested/depth_first/depth_first.hpp"
#include "row/nested/element_writer.hpp"
#include "spark/memory_access.hpp"

namespace rowbridge::row {
namespace {

#define ROWBRIDGE_DF_INLINE inline __attribute__((always_inline))

/// A value longer than one vector move of the per-ISA copies: its bytes,
/// zeros up to round8(length).
__attribute__((noinline, cold)) inline void LongCopyPadded(uint8_t* dst, const uint8_t* src,
                                                           int64_t length) {
  Store64(dst + spark::RoundUp8(length) - 8, 0);
  std::memcpy(dst, src, static_cast<size_t>(length));
}

/// Leaf kinds as types.
template <int kBytes>
struct FixedLeaf {
  static constexpr bool kString = false;
  static constexpr int kWidth = kBytes;
};
template <typename OffsetType>
struct StringLeaf {
  static constexpr bool kString = true;
  using Offset = OffsetType;
};

/// `node` as a flat node, with `parent_offset` (the offsets of the structs
/// above it) folded in.
ROWBRIDGE_DF_INLINE DepthFirstFlatNode FlatOf(const DepthFirstNode& node, int64_t parent_offset) {
  DepthFirstFlatNode flat;
  const int64_t first = node.offset + parent_offset;
  if (node.validity != nullptr) {
    flat.validity = node.validity;
    flat.bit = first;
    flat.bit_mask = ~int64_t{0};
    flat.fast_bits_end = node.fast_bits_end;
    flat.validity_bytes = node.validity_bytes;
  } else {
    flat.validity = kDepthFirstAllValid;
    flat.fast_bits_end = INT64_MAX;
    flat.validity_bytes = sizeof(kDepthFirstAllValid);
  }
  int64_t element = 0;
  switch (node.kind) {
    case DepthFirstKind::kFixed: element = node.width; break;
    case DepthFirstKind::kString32:
    case DepthFirstKind::kList32:
    case DepthFirstKind::kMap: element = 4; break;
    case DepthFirstKind::kString64:
    case DepthFirstKind::kList64: element = 8; break;
    case DepthFirstKind::kStruct:
    case DepthFirstKind::kConverted:
    case DepthFirstKind::kLargeDecimal:
      break;  // values read by the node's convert_* / encode_* functions
  }
  // Integer arithmetic: a NULL buffer of an empty array stays NULL-based.
  flat.values = reinterpret_cast<const uint8_t*>(reinterpret_cast<uintptr_t>(node.values) +
                                                 static_cast<uintptr_t>(first * element));
  flat.data = node.data;
  return flat;
}

/// The flat nodes of a shaped value of `node` into `flat`
/// (kFlatNodesPerColumn): the node, then a struct's fields, or a list's
/// element and that element's fields when it is a struct, or a map's key
/// and value. Children beyond the shapes' (two fields) are left out.
ROWBRIDGE_DF_INLINE void FlattenShape(const DepthFirstNode& node, DepthFirstFlatNode* flat) {
  flat[0] = FlatOf(node, 0);
  const DepthFirstNode* children = node.children;
  switch (node.kind) {
    case DepthFirstKind::kStruct:
      for (int32_t i = 0; i < node.num_children && i + 1 < kFlatNodesPerColumn; ++i) {
        flat[1 + i] = FlatOf(children[i], node.offset);
      }
      break;
    case DepthFirstKind::kList32:
    case DepthFirstKind::kList64: {
      const DepthFirstNode& element = children[0];
      flat[1] = FlatOf(element, 0);
      if (element.kind != DepthFirstKind::kStruct) break;
      for (int32_t i = 0; i < element.num_children && i + 2 < kFlatNodesPerColumn; ++i) {
        flat[2 + i] = FlatOf(element.children[i], element.offset);
      }
      break;
    }
    case DepthFirstKind::kMap:
      flat[1] = FlatOf(children[0], 0);
      flat[2] = FlatOf(children[1], 0);
      break;
    default: break;
  }
}

template <typename Ops>
struct DepthFirstFlat {
  using Flat = DepthFirstFlatNode;

  ROWBRIDGE_DF_INLINE static uint64_t Valid(const Flat& node, int64_t x) {
    const int64_t bit = (node.bit + x) & node.bit_mask;
    return (node.validity[bit >> 3] >> (bit & 7)) & 1;
  }

  /// The null bits of values [first, first + n) of `node`, n <= 56.
  ROWBRIDGE_DF_INLINE static uint64_t NullWord(const Flat& node, int64_t first, int64_t n) {
    const int64_t bit = (node.bit + first) & node.bit_mask;
    const uint64_t mask = (uint64_t{1} << n) - 1;
    if (__builtin_expect(bit < node.fast_bits_end, 1)) {
      return ~(Load<uint64_t>(node.validity + (bit >> 3)) >> (bit & 7)) & mask;
    }
    return SlowNullWord(node, first, n);
  }

  /// The null bits of up to 64 values, read bit by bit within the bitmap.
  __attribute__((noinline, cold)) static uint64_t SlowNullWord(const Flat& node, int64_t first,
                                                               int64_t n) {
    if (node.bit_mask == 0) return 0;  // no bitmap
    const uint64_t mask = n < 64 ? (uint64_t{1} << n) - 1 : ~uint64_t{0};
    return ~ReadBits(node.validity, node.bit + first, n, node.validity_bytes) & mask;
  }

  template <typename Offset>
  ROWBRIDGE_DF_INLINE static int64_t OffsetAt(const uint8_t* offsets, int64_t i) {
    return static_cast<int64_t>(Load<Offset>(offsets + i * int64_t{sizeof(Offset)}));
  }

  /// Writes value `x` of a leaf `node` of type `Leaf` as a field of a row or
  /// nested row at `base`: its slot, its null bit (into `nulls` as `mask`)
  /// and its variable bytes at `base + cursor`; returns the cursor past them.
  template <typename Leaf>
  ROWBRIDGE_DF_INLINE static int64_t LeafField(const Flat& node, int64_t x, uint8_t* base,
                                               uint8_t* slot, int64_t cursor, uint64_t& nulls,
                                               uint64_t mask) {
    return KnownLeafField<Leaf>(node, x, 0 - Valid(node, x), base, slot, cursor, nulls, mask);
  }

  /// LeafField of a value whose validity is known: `keep` all ones when it
  /// is valid, 0 when it is null.
  template <typename Leaf>
  ROWBRIDGE_DF_INLINE static int64_t KnownLeafField(const Flat& node, int64_t x, uint64_t keep,
                                                    uint8_t* base, uint8_t* slot, int64_t cursor,
                                                    uint64_t& nulls, uint64_t mask) {
    nulls |= mask & ~keep;
    if constexpr (Leaf::kString) {
      return StringElement<typename Leaf::Offset>(node, x, keep, base, slot, cursor);
    } else {
      const uint8_t* p = node.values + x * Leaf::kWidth;
      uint64_t value;
      if constexpr (Leaf::kWidth == 1) value = *p;
      else if constexpr (Leaf::kWidth == 2) value = Load<uint16_t>(p);
      else if constexpr (Leaf::kWidth == 4) value = Load<uint32_t>(p);
      else value = Load<uint64_t>(p);
      Store64(slot, value & keep);
      return cursor;
    }
  }

  /// An array's count and null words; returns the header's size. An array
  /// of up to 64 values stores one null word even when empty (past the
  /// empty array, later stores overwrite it) and returns its nulls.
  ROWBRIDGE_DF_INLINE static int64_t Header(const Flat& element, int64_t first, int64_t n,
                                            uint8_t* dst, uint64_t* nulls) {
    Store64(dst, static_cast<uint64_t>(n));
    if (__builtin_expect(n <= 56, 1)) {
      *nulls = NullWord(element, first, n);
      Store64(dst + 8, *nulls);
      return 8 + 8 * (n > 0);
    }
    return LongHeader(element, first, n, dst, nulls);
  }

  __attribute__((noinline)) static int64_t LongHeader(const Flat& element, int64_t first, int64_t n,
                                                      uint8_t* dst, uint64_t* nulls) {
    *nulls = 0;
    for (int64_t k = 0; k < n; k += 64) {
      const uint64_t word = SlowNullWord(element, first + k, n - k < 64 ? n - k : 64);
      if (k == 0) *nulls = word;
      Store64(dst + 8 + k / 8, word);
    }
    return 8 + 8 * ((n + 63) >> 6);
  }

  template <int kWidth>
  ROWBRIDGE_DF_INLINE static int64_t FixedArray(const Flat& element, int64_t first, int64_t n,
                                                uint8_t* dst) {
    uint64_t nulls;
    const int64_t header = Header(element, first, n, dst, &nulls);
    const uint8_t* src = element.values + first * kWidth;
    uint8_t* out = dst + header;
    if (__builtin_expect(n * kWidth <= 64 && n <= 56, 1)) {
      Ops::template SmallFixed<kWidth>(out, src, n, nulls);
    } else {
      LongFixed<kWidth>(element, first, n, out);
    }
    return header + spark::RoundUp8(n * kWidth);
  }

  /// More elements than one masked move holds: copied, then nulls zeroed.
  template <int kWidth>
  __attribute__((noinline)) static void LongFixed(const Flat& element, int64_t first, int64_t n,
                                                  uint8_t* out) {
    const int64_t bytes = n * kWidth;
    Store64(out + spark::RoundUp8(bytes) - 8, 0);
    std::memcpy(out, element.values + first * kWidth, static_cast<size_t>(bytes));
    for (int64_t k = 0; element.bit_mask != 0 && k < n; k += 64) {
      uint64_t word = SlowNullWord(element, first + k, n - k < 64 ? n - k : 64);
      for (; word != 0; word &= word - 1)
        std::memset(out + (k + __builtin_ctzll(word)) * kWidth, 0, kWidth);
    }
  }

  template <typename Offset>
  ROWBRIDGE_DF_INLINE static int64_t StringArray(const Flat& element, int64_t first, int64_t n,
                                                 uint8_t* dst) {
    uint64_t nulls;
    const int64_t header = Header(element, first, n, dst, &nulls);
    uint8_t* slots = dst + header;
    int64_t cursor = header + 8 * n;
    if (__builtin_expect(n <= 56, 1)) {
      // The header's null word holds every element's validity.
      for (int64_t k = 0; k < n; ++k) {
        cursor = StringElement<Offset>(element, first + k, ((nulls >> k) & 1) - 1, dst,
                                       slots + 8 * k, cursor);
      }
      return cursor;
    }
    for (int64_t k = 0; k < n; ++k) {
      cursor = StringElement<Offset>(element, first + k, 0 - Valid(element, first + k), dst,
                                     slots + 8 * k, cursor);
    }
    return cursor;
  }

  /// String x of `element` (valid when `keep` is all ones) at `dst +
  /// cursor`, its offset and size in `slot`; returns the cursor past it.
  template <typename Offset>
  ROWBRIDGE_DF_INLINE static int64_t StringElement(const Flat& element, int64_t x, uint64_t keep,
                                                   uint8_t* dst, uint8_t* slot, int64_t cursor) {
    const int64_t begin = OffsetAt<Offset>(element.values, x);
    const int64_t length =
        (OffsetAt<Offset>(element.values, x + 1) - begin) & static_cast<int64_t>(keep);
    Ops::CopyPadded(dst + cursor, element.data + begin, length);
    Store64(slot, OffsetAndSize(cursor, length) & keep);
    return cursor + spark::RoundUp8(length);
  }

  /// An array of leaves [first, first + n) of `element`.
  template <typename Leaf>
  ROWBRIDGE_DF_INLINE static int64_t LeafArray(const Flat& element, int64_t first, int64_t n,
                                               uint8_t* dst) {
    if constexpr (Leaf::kString) {
      return StringArray<typename Leaf::Offset>(element, first, n, dst);
    } else {
      return FixedArray<Leaf::kWidth>(element, first, n, dst);
    }
  }

  /// A string column's writer over its flat node.
  template <typename Leaf>
  static DepthFirstCursor LeafColumn(const Flat* nodes, int64_t x, uint8_t* row, uint8_t* slot,
                                     int64_t cursor, uint64_t mask) {
    uint64_t nulls = 0;
    cursor = LeafField<Leaf>(nodes[0], x, row, slot, cursor, nulls, mask);
    return DepthFirstCursor{cursor, nulls};
  }
};

}  // namespace
}  // namespace rowbridge::row
