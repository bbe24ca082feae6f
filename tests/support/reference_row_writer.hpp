// A deliberately simple reference for the columnar -> row conversion: reads a
// TestArray record batch (the test's own description of the data, not the
// library's parsed form) one row and one value at a time and writes the Spark
// UnsafeRow bytes that CONTRACTS.md §2 and §3 prescribe. It shares no code with
// src/row and favours obviousness over speed: differential tests compare the
// library against it byte for byte.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "support/test_arrow.hpp"

namespace rowbridge::testing {

/// A value the row cannot hold (precision or unit-conversion overflow): the
/// library must fail with Overflow naming this column and row.
struct ReferenceCell {
  int64_t column = 0;
  int64_t row = 0;
};

struct ReferenceRows {
  std::vector<Bytes> rows;               // one UnsafeRow per batch row
  std::vector<ReferenceCell> overflows;  // in row-major order
  std::string error;                     // non-empty: the description is outside the reference
};

/// Converts `batch` (a "+s" TestArray whose children are flat columns, plain,
/// dictionary-encoded or run-end encoded, any of them sliced) into rows.
ReferenceRows ReferenceConvert(const TestArray& batch);

/// A one-line description of `batch` for failure messages: per column its
/// format, encoding, offset, length and null count.
std::string DescribeBatch(const TestArray& batch);

}  // namespace rowbridge::testing
