// Software prefetches of column input. The column-at-a-time write loops read
// several input streams in short bursts per tile, which hardware prefetchers
// follow poorly; asking for the next tiles' lines early hides memory latency.
#pragma once

#include <algorithm>
#include <cstdint>

#include "row/column_plan.hpp"
#include "row/memory_access.hpp"

namespace rowbridge::row {

/// Starts loading the validity and values of plain rows [row_begin,
/// row_begin + num_rows) of a bound column, at most `max_lines` lines each.
inline void PrefetchValues(const ColumnInput& input, const ColumnPlan& column, int64_t row_begin,
                           int64_t num_rows, int64_t max_lines) {
  if (input.gather != nullptr || num_rows <= 0) return;
  int64_t index = input.offset + row_begin;
  if (input.validity != nullptr) __builtin_prefetch(input.validity + ((input.validity_offset + row_begin) >> 3));
  if (input.values == nullptr) return;
  int64_t width = column.prefetch_bytes_per_value;
  const uint8_t* first = input.values + index * width;
  int64_t lines = std::min(max_lines, (num_rows * width + 63) / 64 + 1);
  for (int64_t line = 0; line < lines; ++line) __builtin_prefetch(first + line * 64);
}

/// Starts loading the string bytes of plain rows [row_begin, row_begin +
/// num_rows) of an offset-based string or binary column (reading two of its
/// offsets, which should already be cached), at most `max_lines` lines.
inline void PrefetchStringData(const ColumnInput& input, const ColumnPlan& column,
                               int64_t row_begin, int64_t num_rows, int64_t max_lines) {
  if (input.gather != nullptr || input.data == nullptr || num_rows <= 0) return;
  int64_t index = input.offset + row_begin;
  int64_t begin;
  int64_t end;
  if (column.prefetch_bytes_per_value == 4) {
    begin = Load<int32_t>(input.values + index * 4);
    end = Load<int32_t>(input.values + (index + num_rows) * 4);
  } else {
    begin = Load<int64_t>(input.values + index * 8);
    end = Load<int64_t>(input.values + (index + num_rows) * 8);
  }
  int64_t lines = std::min(max_lines, (end - begin) / 64 + 1);
  for (int64_t line = 0; line < lines; ++line) __builtin_prefetch(input.data + begin + line * 64);
}

}  // namespace rowbridge::row
