// The nested columns of CONTRACTS.md §6's "nested" dataset, generated row by row
// from (seed, stream, row) like every other benchmark column.
#pragma once

#include <cstdint>
#include <string>

#include "support/owned_arrow/array_node.hpp"

namespace rowbridge::bench {

enum class NestedKind {
  kStructInt64Utf8,        // struct<a int64, b utf8>
  kListInt32,              // list<int32>
  kMapUtf8Int64,           // map<utf8, int64>
  kListStructFloat64Utf8,  // list<struct<x float64, y utf8>>
  /// Not in CONTRACTS.md §6: map<utf8, timestamp[ms]>, values that need a
  /// conversion (milliseconds within about 139 years of the epoch).
  kMapUtf8TimestampMillis,
  /// Not in CONTRACTS.md §6: list<bool>, values that are bits in Arrow.
  kListBool,
  /// Not in CONTRACTS.md §6: list<decimal(38, 4)>, values of 1 to 16 big-endian
  /// bytes in the row.
  kListLargeDecimal,
};

/// Rows [first_row, first_row + num_rows) of a nested column: arrays and maps
/// of 0-8 entries (uniform), strings of 5-30 printable bytes, and each value
/// at every level (the column's, the fields', the elements') null with
/// probability `null_probability`; map keys are never null.
owned_arrow::ArrayNode MakeNestedColumn(NestedKind kind, const std::string& name, uint64_t seed,
                                        uint64_t stream, int64_t first_row, int64_t num_rows,
                                        double null_probability);

}  // namespace rowbridge::bench
