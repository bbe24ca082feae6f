// Per-row access to a ColumnInput, specialised at compile time on the
// encoding (plain or gathered) and on whether every value is valid.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "row/column_writer.hpp"
#include "spark/memory_access.hpp"

namespace rowbridge::row {

template <bool kGathered>
inline int64_t ValueIndex(const ColumnInput& input, int64_t row) {
  if constexpr (kGathered) {
    return input.gather[row];
  } else {
    return input.offset + row;
  }
}

template <bool kAllValid>
inline bool IsValid(const ColumnInput& input, int64_t row) {
  if constexpr (kAllValid) {
    return true;
  } else {
    return GetBit(input.validity, input.validity_offset + row);
  }
}

/// Returns `count` (at most 64) bits of `bitmap` from bit `bit` on, as the low
/// bits of a word, reading only the bytes that hold them.
inline uint64_t LoadBits(const uint8_t* bitmap, int64_t bit, int64_t count) {
  const uint8_t* first = bitmap + (bit >> 3);
  int64_t shift = bit & 7;
  int64_t bytes = (shift + count + 7) >> 3;
  uint64_t low = 0;
  std::memcpy(&low, first, static_cast<size_t>(bytes < 8 ? bytes : 8));
  uint64_t word = low >> shift;
  if (bytes > 8) word |= static_cast<uint64_t>(first[8]) << (64 - shift);
  return count < 64 ? word & ((uint64_t{1} << count) - 1) : word;
}

/// Calls `visit(k, valid)` for output rows k in [0, num_rows) (batch rows
/// from `row_begin`), reading validity a 64-bit word at a time: the rows of
/// an all-valid word get `valid` as std::true_type, so their path has no
/// validity test at all; other words give a bool per row.
template <bool kAllValid, typename Visit>
inline void ForEachRow(const ColumnInput& input, int64_t row_begin, int64_t num_rows,
                       Visit&& visit) {
  if constexpr (kAllValid) {
    for (int64_t k = 0; k < num_rows; ++k) visit(k, std::true_type{});
  } else {
    for (int64_t block = 0; block < num_rows; block += 64) {
      int64_t count = num_rows - block < 64 ? num_rows - block : 64;
      uint64_t word = LoadBits(input.validity, input.validity_offset + row_begin + block, count);
      uint64_t all = count < 64 ? (uint64_t{1} << count) - 1 : ~uint64_t{0};
      if (word == all) {
        for (int64_t j = 0; j < count; ++j) visit(block + j, std::true_type{});
      } else {
        for (int64_t j = 0; j < count; ++j) visit(block + j, ((word >> j) & 1) != 0);
      }
    }
  }
}

/// Sets the null bit `bit` of the output rows (batch rows from `row_begin`)
/// whose value is null, a 64-row word of validity at a time.
inline void SetNullBits(const ColumnInput& input, int64_t row_begin, int64_t num_rows,
                        const RowSink& sink, NullBit bit) {
  for (int64_t block = 0; block < num_rows; block += 64) {
    int64_t count = num_rows - block < 64 ? num_rows - block : 64;
    uint64_t all = count < 64 ? (uint64_t{1} << count) - 1 : ~uint64_t{0};
    uint64_t nulls =
        ~LoadBits(input.validity, input.validity_offset + row_begin + block, count) & all;
    for (; nulls != 0; nulls &= nulls - 1) {
      SetNull(sink.base + sink.row_offsets[block + __builtin_ctzll(nulls)], bit);
    }
  }
}

/// Returns the variable-region cursor of output row `k`.
template <bool kAlone>
inline int64_t CursorOf(const RowSink& sink, int64_t k) {
  if constexpr (kAlone) {
    return sink.fixed_cursor;
  } else {
    return sink.cursors[k];
  }
}

/// Records that output row `k`'s variable region now ends at `next`.
template <bool kAlone>
inline void AdvanceCursor(const RowSink& sink, int64_t k, int64_t next) {
  if constexpr (!kAlone) sink.cursors[k] = next;
}

/// Builds a WriterSet from a kernel class with static member templates
/// `Write<kGathered, kAllValid>` (plus `Write<kGathered, kAllValid, kAlone>`
/// when `kVariable`) and, when `kHasSize`, `Size<kGathered, kAllValid>`.
template <typename Kernel, bool kHasSize, bool kVariable = kHasSize>
WriterSet MakeWriterSet(int32_t constant_variable_bytes = 0) {
  WriterSet set;
  set.write[0][0] = &Kernel::template Write<false, false>;
  set.write[0][1] = &Kernel::template Write<false, true>;
  set.write[1][0] = &Kernel::template Write<true, false>;
  set.write[1][1] = &Kernel::template Write<true, true>;
  if constexpr (kVariable) {
    set.write_alone[0][0] = &Kernel::template Write<false, false, true>;
    set.write_alone[0][1] = &Kernel::template Write<false, true, true>;
    set.write_alone[1][0] = &Kernel::template Write<true, false, true>;
    set.write_alone[1][1] = &Kernel::template Write<true, true, true>;
  }
  if constexpr (kHasSize) {
    set.size[0][0] = &Kernel::template Size<false, false>;
    set.size[0][1] = &Kernel::template Size<false, true>;
    set.size[1][0] = &Kernel::template Size<true, false>;
    set.size[1][1] = &Kernel::template Size<true, true>;
  }
  set.constant_variable_bytes = constant_variable_bytes;
  return set;
}

}  // namespace rowbridge::row
