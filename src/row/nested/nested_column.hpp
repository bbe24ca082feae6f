// A top-level struct, list or map column: binding and its size errors (see
// nested_column.cpp; its writers come from NestedColumnWriters()).
#pragma once

#include "row/column_binding.hpp"

namespace rowbridge::row {

/// Binds nested column `plan` of a batch (see BindColumn): checks every node
/// of the array tree and points `input->nested` at the column's state in
/// `scratch`, which the nested writers use. Borrows `array` for as long as
/// `*input` is used.
Status BindNestedColumn(const ColumnPlan& plan, const ArrowArray& array, int64_t batch_offset,
                        int64_t num_rows, Validation validation, ColumnScratch* scratch,
                        ColumnInput* input, bool* all_valid);

/// The error behind a nested column's failed size function.
Status NestedSizeError(const ColumnInput& input);

}  // namespace rowbridge::row
