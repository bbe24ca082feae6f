// The row decoder's per-value checks, for any node: checking and counting a
// value (ValueMeasure, the measure pass; the fill pass is fill_tile.hpp's).
// The column drivers (decode_columns.cpp) call it for the values their fast
// paths do not cover, and to name the value a fast path found failing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "decoder/decode_passes.hpp"
#include "decoder/unsafe_layout.hpp"
#include "spark/memory_access.hpp"

namespace rowbridge::decoder {

/// Bytes a short string's copy moves whatever its length (4 SSE moves): the
/// value and what follows it in the rows, when that is before the end of
/// the rows; the next value overwrites the excess (string data buffers have
/// this much slack).
inline constexpr int64_t kShortCopy = 64;

/// The last address a short copy may start at, for rows ending at
/// `rows_end`; an integer, since it may lie before the rows.
inline uintptr_t ShortCopyEnd(const uint8_t* rows_end) {
  return reinterpret_cast<uintptr_t>(rows_end) - kShortCopy;
}

/// Copies a string value of `size` bytes from `src` (in rows whose
/// ShortCopyEnd is `short_end`) to `dst`.
inline __attribute__((always_inline)) void CopyString(uint8_t* dst, const uint8_t* src,
                                                      int64_t size, uintptr_t short_end) {
  if (__builtin_expect(size <= kShortCopy && reinterpret_cast<uintptr_t>(src) <= short_end, 1)) {
    __builtin_memcpy(dst, src, kShortCopy);
  } else {
    __builtin_memcpy(dst, src, static_cast<size_t>(size));
  }
}

/// Checks a struct-of-leaves value (DecodeNode::leaf_fields) of `size`
/// bytes at `base`, already known to lie inside its row: its size, its
/// non-nullable fields and its strings' bounds. Adds each valid string's
/// bytes to `bytes[i]` (i: the field). Returns nonzero when anything fails,
/// without naming it (ValueMeasure does).
inline __attribute__((always_inline)) uint64_t CheckLeafStruct(const DecodeNode& node,
                                                               const uint8_t* base, int64_t size,
                                                               int64_t* bytes) {
  if (size < node.fixed_bytes) return 1;
  const int64_t num_fields = static_cast<int64_t>(node.children.size());
  const uint64_t field_nulls =
      Load<uint64_t>(base) & ((uint64_t{1} << num_fields) - 1);  // <= 16 fields
  uint64_t bad = field_nulls & node.leaf_required;
  const int64_t slots_at = spark::BitsetBytes(num_fields);
  for (uint64_t valid = node.leaf_strings & ~field_nulls; valid != 0; valid &= valid - 1) {
    const int64_t i = __builtin_ctzll(valid);
    const VariableSlot value = SplitSlot(Load<uint64_t>(base + slots_at + 8 * i));
    bad |= static_cast<uint64_t>(size - value.offset - value.size) >> 63;
    bytes[i] += value.size;
  }
  return bad;
}

class ValueMeasure {
 public:
  ValueMeasure(const DecodePlan& plan, std::vector<DecodeCounts>* counts)
      : plan_(plan), counts_(*counts) {}

  // Each check returns false on the first failure, whose error() names it:
  // building a Status per value would cost more than the checks.

  /// The fields `fields` of a row or nested row `region` of top-level row `row`.
  bool Fields(const std::vector<int32_t>& fields, RowRegion region, int64_t row);

  /// Valid value of node `index` whose slot or array element is at `at`, in `region`.
  bool Value(int32_t index, RowRegion region, const uint8_t* at, int64_t row);

  /// The failure of the last check that returned false.
  const Status& error() const { return error_; }

  /// An error naming `node`'s field and top-level row `row`.
  static Status Error(const DecodeNode& node, int64_t row, const std::string& message);
  /// A well-formed value its Arrow type cannot hold.
  static Status Overflow(const DecodeNode& node, int64_t row, const std::string& message);

 private:
  const DecodeNode& Node(int32_t index) const { return plan_.nodes[static_cast<size_t>(index)]; }
  bool Variable(const DecodeNode& node, int32_t index, RowRegion value, int64_t row);
  bool Array(const DecodeNode& parent, int32_t index, RowRegion region, bool keys, int64_t row,
             int64_t* n);
  /// The fast path of an array of structs of leaves: true when every
  /// element is valid (and counted); false leaves the naming to Array.
  bool LeafStructs(const DecodeNode& element, RowRegion region, const ArrayLayout& layout,
                   bool keys);
  __attribute__((noinline, cold)) bool Fail(Status status) {
    error_ = std::move(status);
    return false;
  }

  const DecodePlan& plan_;
  std::vector<DecodeCounts>& counts_;
  Status error_;
};

}  // namespace rowbridge::decoder
