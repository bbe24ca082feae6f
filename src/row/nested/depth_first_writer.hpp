// The depth-first writer's body, a template on how bytes are moved (`Ops`),
// compiled once per kernel ISA: nested/depth_first_portable.cpp and
// simd/depth_first_avx512.cpp. Everything here has internal linkage, so that
// the per-ISA copies never replace one another at link time.
//
// `Ops` provides:
//   CopyPadded(dst, src, length): `length` bytes, zeros up to round8(length);
//   FixedElements(dst, node, first, n): the n values of `node` from value
//     `first` on, null ones zero, then zeros up to round8(n * width).
//
// Invariant that makes dead (null) values safe to write: every store lands
// either in the fixed part of a value already laid out (a bitset, a slot, an
// array header) or at the cursor and beyond, which later stores overwrite
// (see depth_first.hpp).
#pragma once

#include <cstdint>

#include "row/column_writer.hpp"
#include "row/memory_access.hpp"
#include "row/nested/depth_first.hpp"
#include "row/nested/element_writer.hpp"

namespace rowbridge::row {
namespace {

#define ROWBRIDGE_DF_INLINE inline __attribute__((always_inline))

template <typename Ops>
class DepthFirstRows {
 public:
  explicit DepthFirstRows(const DepthFirstNode* nodes) : nodes_(nodes) {}

  /// Writes rows [row, row + rows) (see WriteDepthFirstPortable).
  void Write(const DepthFirstPlan& plan, int64_t batch_offset, int64_t row, int64_t rows,
             uint8_t* base, int64_t* offsets) const {
    const int64_t fixed = plan.fixed_row_bytes;
    const DepthFirstColumn* columns = plan.columns.data();
    const int64_t num_columns = static_cast<int64_t>(plan.columns.size());
    int64_t position = offsets[0];
    for (int64_t r = 0; r < rows; ++r) {
      uint8_t* out = base + position;
      for (int64_t b = 0; b < fixed; b += 8) Store64(out + b, 0);
      int64_t cursor = fixed;
      const int64_t x = batch_offset + row + r;
      for (int64_t c = 0; c < num_columns; ++c) {
        const DepthFirstColumn& column = columns[c];
        uint64_t nulls = 0;
        cursor = Field(nodes_[column.node], x, out, out + column.slot_offset, cursor, &nulls,
                       column.null_mask);
        uint8_t* word = out + column.null_word_offset;
        Store64(word, Load<uint64_t>(word) | nulls);
      }
      position += cursor;
      offsets[r + 1] = position;
    }
  }

 private:
  ROWBRIDGE_DF_INLINE static uint64_t IsValid(const DepthFirstNode& node, int64_t x) {
    if (node.validity == nullptr) return 1;
    return GetBit(node.validity, node.offset + x) ? 1 : 0;
  }

  template <typename Offset>
  ROWBRIDGE_DF_INLINE static int64_t OffsetAt(const DepthFirstNode& node, int64_t x) {
    return static_cast<int64_t>(Load<Offset>(node.values + (node.offset + x) * int64_t{sizeof(Offset)}));
  }

  /// Writes the string `x` of `node` at `dst` unless `keep` is 0; returns its length.
  template <typename Offset>
  ROWBRIDGE_DF_INLINE static int64_t String(const DepthFirstNode& node, int64_t x, uint8_t* dst, uint64_t keep) {
    int64_t begin = OffsetAt<Offset>(node, x);
    int64_t length = (OffsetAt<Offset>(node, x + 1) - begin) & static_cast<int64_t>(keep);
    Ops::CopyPadded(dst, node.data + begin, length);
    return length;
  }

  /// Writes value `x` of `node` as a field: its slot, its null bit (into
  /// `*nulls` as `mask`) and its variable bytes at `row + cursor`; returns
  /// the cursor past them.
  ROWBRIDGE_DF_INLINE int64_t Field(const DepthFirstNode& node, int64_t x, uint8_t* row, uint8_t* slot, int64_t cursor,
                uint64_t* nulls, uint64_t mask) const {
    uint64_t valid = IsValid(node, x);
    uint64_t keep = 0 - valid;
    *nulls |= mask & ~keep;
    switch (node.kind) {
      case DepthFirstKind::kFixed: {
        uint64_t value = 0;
        const uint8_t* p = node.values + (node.offset + x) * node.width;
        switch (node.width) {
          case 1: value = *p; break;
          case 2: value = Load<uint16_t>(p); break;
          case 4: value = Load<uint32_t>(p); break;
          default: value = Load<uint64_t>(p); break;
        }
        Store64(slot, value & keep);
        return cursor;
      }
      case DepthFirstKind::kString32: {
        int64_t length = String<int32_t>(node, x, row + cursor, keep);
        Store64(slot, OffsetAndSize(cursor, length) & keep);
        return cursor + RoundUp8(length);
      }
      case DepthFirstKind::kString64: {
        int64_t length = String<int64_t>(node, x, row + cursor, keep);
        Store64(slot, OffsetAndSize(cursor, length) & keep);
        return cursor + RoundUp8(length);
      }
      default: {
        int64_t size = Nested(node, x, row + cursor) & static_cast<int64_t>(keep);
        Store64(slot, OffsetAndSize(cursor, size) & keep);
        return cursor + size;
      }
    }
  }

  /// Writes the struct, list or map `x` of `node` at `dst`; returns its size.
  int64_t Nested(const DepthFirstNode& node, int64_t x, uint8_t* dst) const {
    switch (node.kind) {
      case DepthFirstKind::kStruct: return Struct(node, x, dst);
      case DepthFirstKind::kList32: return List<int32_t>(node, x, dst);
      case DepthFirstKind::kList64: return List<int64_t>(node, x, dst);
      case DepthFirstKind::kMap: return Map(node, x, dst);
      default: return 0;
    }
  }

  int64_t Struct(const DepthFirstNode& node, int64_t x, uint8_t* dst) const {
    const int64_t fields_x = node.offset + x;
    const int64_t bitset = node.bitset_bytes;
    for (int64_t b = 8; b < bitset; b += 8) Store64(dst + b, 0);
    int64_t cursor = node.fixed_bytes;
    uint64_t nulls = 0;
    const DepthFirstNode* fields = nodes_ + node.first_child;
    for (int64_t i = 0; i < node.num_children; ++i) {
      uint8_t* slot = dst + bitset + 8 * i;
      if (i < 64) {
        cursor = Field(fields[i], fields_x, dst, slot, cursor, &nulls, uint64_t{1} << i);
      } else {
        uint64_t word_nulls = 0;
        cursor = Field(fields[i], fields_x, dst, slot, cursor, &word_nulls, uint64_t{1} << (i & 63));
        uint8_t* word = dst + 8 * (i >> 6);
        Store64(word, Load<uint64_t>(word) | word_nulls);
      }
      if (i == 63 || i + 1 == node.num_children) Store64(dst, nulls);
    }
    return cursor;
  }

  template <typename Offset>
  int64_t List(const DepthFirstNode& node, int64_t x, uint8_t* dst) const {
    int64_t first = OffsetAt<Offset>(node, x);
    int64_t n = OffsetAt<Offset>(node, x + 1) - first;
    return Array(nodes_[node.first_child], first, n, dst);
  }

  int64_t Map(const DepthFirstNode& node, int64_t x, uint8_t* dst) const {
    int64_t first = OffsetAt<int32_t>(node, x);
    int64_t n = OffsetAt<int32_t>(node, x + 1) - first;
    const DepthFirstNode* children = nodes_ + node.first_child;
    int64_t keys = Array(children[0], first, n, dst + 8);
    Store64(dst, static_cast<uint64_t>(keys));
    return 8 + keys + Array(children[1], first, n, dst + 8 + keys);
  }

  /// The null bits of elements [first, first + n) of `node`, n <= 64.
  static uint64_t NullWord(const DepthFirstNode& node, int64_t first, int64_t n) {
    if (node.validity == nullptr || n == 0) return 0;
    uint64_t mask = n < 64 ? (uint64_t{1} << n) - 1 : ~uint64_t{0};
    return ~ReadBits(node.validity, node.offset + first, n, node.validity_bytes) & mask;
  }

  /// Writes an UnsafeArrayData of elements [first, first + n) of `element`.
  int64_t Array(const DepthFirstNode& element, int64_t first, int64_t n, uint8_t* dst) const {
    Store64(dst, static_cast<uint64_t>(n));
    int64_t header = 8 + 8 * ((n + 63) >> 6);
    if (n <= 64) {
      // Stored even for n == 0: past the empty array, later stores overwrite it.
      Store64(dst + 8, NullWord(element, first, n));
    } else {
      for (int64_t k = 0; k < n; k += 64) {
        Store64(dst + 8 + k / 8, NullWord(element, first + k, n - k < 64 ? n - k : 64));
      }
    }
    uint8_t* slots = dst + header;
    switch (element.kind) {
      case DepthFirstKind::kFixed:
        Ops::FixedElements(slots, element, first, n);
        return header + RoundUp8(n * element.width);
      case DepthFirstKind::kString32: return StringElements<int32_t>(element, first, n, dst, header);
      case DepthFirstKind::kString64: return StringElements<int64_t>(element, first, n, dst, header);
      default: break;
    }
    int64_t cursor = header + 8 * n;
    for (int64_t k = 0; k < n; ++k) {
      uint64_t keep = 0 - IsValid(element, first + k);
      int64_t size = Nested(element, first + k, dst + cursor) & static_cast<int64_t>(keep);
      Store64(slots + 8 * k, OffsetAndSize(cursor, size) & keep);
      cursor += size;
    }
    return cursor;
  }

  template <typename Offset>
  static int64_t StringElements(const DepthFirstNode& element, int64_t first, int64_t n,
                                uint8_t* dst, int64_t header) {
    uint8_t* slots = dst + header;
    int64_t cursor = header + 8 * n;
    for (int64_t k = 0; k < n; ++k) {
      uint64_t keep = 0 - IsValid(element, first + k);
      int64_t length = String<Offset>(element, first + k, dst + cursor, keep);
      Store64(slots + 8 * k, OffsetAndSize(cursor, length) & keep);
      cursor += RoundUp8(length);
    }
    return cursor;
  }

  const DepthFirstNode* nodes_;
};

}  // namespace
}  // namespace rowbridge::row
