// Software prefetches of column input. The column-at-a-time write loops read
// several input streams in short bursts per tile, which hardware prefetchers
// follow poorly; asking for the next tiles' lines early hides memory latency.
#pragma once

#include <algorithm>
#include <cstdint>

#include "row/column_plan.hpp"
#include "spark/memory_access.hpp"

namespace rowbridge::row {

/// Starts loading the validity and values of plain rows [row_begin,
/// row_begin + num_rows) of a bound column, at most `max_lines` lines each.
inline void PrefetchValues(const ColumnInput& input, const ColumnPlan& column, int64_t row_begin,
                           int64_t num_rows, int64_t max_lines) {
  if (input.gather != nullptr || num_rows <= 0) return;
  int64_t index = input.offset + row_begin;
  if (input.validity != nullptr)
    __builtin_prefetch(input.validity + ((input.validity_offset + row_begin) >> 3));
  if (input.values == nullptr) return;
  int64_t width = column.prefetch_bytes_per_value;
  const uint8_t* first = input.values + index * width;
  int64_t lines = std::min(max_lines, (num_rows * width + 63) / 64 + 1);
  for (int64_t line = 0; line < lines; ++line) __builtin_prefetch(first + line * 64);
}

/// Starts loading the bytes of values [index, index + count) of an
/// offset-based string or binary input whose offsets are `offset_width` (4
/// or 8) bytes wide (reading two of them), at most `max_lines` lines.
/// Offsets need not be validated yet: only a sane range is prefetched, and
/// its address is computed on integers (a prefetch of any address is
/// harmless).
inline void PrefetchOffsetData(const uint8_t* offsets, const uint8_t* data, int64_t offset_width,
                               int64_t index, int64_t count, int64_t max_lines) {
  if (data == nullptr || count <= 0) return;
  int64_t begin;
  int64_t end;
  if (offset_width == 4) {
    begin = Load<int32_t>(offsets + index * 4);
    end = Load<int32_t>(offsets + (index + count) * 4);
  } else if (offset_width == 8) {
    begin = Load<int64_t>(offsets + index * 8);
    end = Load<int64_t>(offsets + (index + count) * 8);
  } else {
    return;
  }
  if (begin < 0 || end < begin) return;
  const int64_t lines = std::min(max_lines, (end - begin) / 64 + 1);
  const uintptr_t first = reinterpret_cast<uintptr_t>(data) + static_cast<uintptr_t>(begin);
  for (int64_t line = 0; line < lines; ++line)
    __builtin_prefetch(reinterpret_cast<const void*>(first + static_cast<uintptr_t>(line) * 64));
}

/// Starts loading the string bytes of plain rows [row_begin, row_begin +
/// num_rows) of an offset-based string or binary column (reading two of its
/// offsets, which should already be cached), at most `max_lines` lines.
inline void PrefetchStringData(const ColumnInput& input, const ColumnPlan& column,
                               int64_t row_begin, int64_t num_rows, int64_t max_lines) {
  if (input.gather != nullptr) return;
  PrefetchOffsetData(input.values, input.data, column.prefetch_bytes_per_value,
                     input.offset + row_begin, num_rows, max_lines);
}

}  // namespace rowbridge::row
