// Binding: resolving one column of a batch to a ColumnInput, per batch.
#pragma once

#include <string>
#include <vector>

#include "row/column_plan.hpp"

namespace rowbridge::row {

/// Per-column buffers reused across batches by gathered (dictionary and
/// run-end encoded) columns.
struct ColumnScratch {
  std::vector<int64_t> gather;
  std::vector<uint8_t> validity;
};

/// Resolves `array`, the column `plan` of a batch whose rows start at logical
/// index `batch_offset` and number `num_rows`, into `*input`. Checks the
/// structure always, and every value conversion reads when `validation` is
/// kFull; dictionary indices and run ends are bounds-checked always, as they
/// are read anyway. Borrows `array` for as long as `*input` is used. Sets
/// `*all_valid` when no row of the batch is null.
Status BindColumn(const ColumnPlan& plan, const ArrowArray& array, int64_t batch_offset,
                  int64_t num_rows, Validation validation, ColumnScratch* scratch,
                  ColumnInput* input, bool* all_valid);

}  // namespace rowbridge::row
