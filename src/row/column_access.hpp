// Per-row access to a ColumnInput, specialised at compile time on the
// encoding (plain or gathered) and on whether every value is valid.
#pragma once

#include <cstdint>

#include "row/column_writer.hpp"
#include "row/memory_access.hpp"

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
