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

/// Builds a WriterSet from a kernel class with static member templates
/// `Write<kGathered, kAllValid>` and, when `kHasSize`, `Size<kGathered, kAllValid>`.
template <typename Kernel, bool kHasSize>
WriterSet MakeWriterSet(int32_t constant_variable_bytes = 0) {
  WriterSet set;
  set.write[0][0] = &Kernel::template Write<false, false>;
  set.write[0][1] = &Kernel::template Write<false, true>;
  set.write[1][0] = &Kernel::template Write<true, false>;
  set.write[1][1] = &Kernel::template Write<true, true>;
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
