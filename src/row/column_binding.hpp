// Binding: resolving one column of a batch to a ColumnInput, per batch.
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "row/column_plan.hpp"

namespace rowbridge::row {

class VariantShadow;

/// Per-column buffers reused across batches by gathered (dictionary and
/// run-end encoded) columns.
struct ColumnScratch {
  std::vector<int64_t> gather;
  std::vector<uint8_t> validity;
  /// A struct, list or map column's state (see nested/nested_state.hpp).
  std::shared_ptr<NestedColumnState> nested;
  /// The batch's shadow of a column with variants (variant_shadow.hpp).
  std::shared_ptr<VariantShadow> variant;
};

/// Resolves the buffers of a plain node of `type` (its validity, values,
/// string data, view buffers) into `*input`, with `input->offset` the node's
/// offset: value index i of the node is element `offset + i` of its buffers.
/// Requires a node that passed CheckArrayNode.
void BindValues(const ArrowArray& array, const ArrowType& type, ColumnInput* input);

/// Resolves `array`, the column `plan` of a batch whose rows start at logical
/// index `batch_offset` and number `num_rows`, into `*input`. Checks the
/// structure always, and every value conversion reads when `validation` is
/// kFull; dictionary indices and run ends are bounds-checked always, as they
/// are read anyway. Borrows `array` for as long as `*input` is used. Sets
/// `*all_valid` when no row of the batch is null.
Status BindColumn(const ColumnPlan& plan, const ArrowArray& array, int64_t batch_offset,
                  int64_t num_rows, Validation validation, ColumnScratch* scratch,
                  ColumnInput* input, bool* all_valid);

/// Binds a plain fixed-width or offset-based column of a well-formed array in
/// a few instructions and returns true, or returns false without side effects
/// so that the caller falls back to BindColumn (which reports any problem).
inline bool TryBindPlainFast(const ColumnPlan& plan, const ArrowArray& array, int64_t batch_offset,
                             int64_t num_rows, ColumnInput* input, bool* all_valid) {
  if (plan.encoding != Encoding::kPlain || plan.plain_is_view || plan.plain_data_buffers == 0) {
    return false;
  }
  int64_t needed = batch_offset + num_rows;
  bool well_formed = (array.release != nullptr) & (array.dictionary == nullptr) &
                     (array.n_children == 0) & (array.n_buffers == plan.plain_buffers) &
                     (array.buffers != nullptr) & (array.offset >= 0) & (array.length >= needed) &
                     (array.length <= INT64_MAX - std::max<int64_t>(array.offset, 0)) &
                     (array.null_count >= -1) & (array.null_count <= array.length);
  if (!well_formed) return false;
  const auto* const* buffers = reinterpret_cast<const uint8_t* const*>(array.buffers);
  bool has_validity = buffers[0] != nullptr;
  if ((array.null_count > 0) & !has_validity) return false;
  for (int64_t i = 1; i <= plan.plain_data_buffers; ++i) {
    if (buffers[i] == nullptr && array.length > 0) return false;
  }
  bool may_have_nulls = (array.null_count != 0) & has_validity;
  input->offset = array.offset + batch_offset;
  input->validity = may_have_nulls ? buffers[0] : nullptr;
  input->validity_offset = input->offset;
  input->gather = nullptr;
  input->values = buffers[1];
  input->data = plan.plain_buffers > 2 ? buffers[2] : nullptr;
  input->fixed_size = plan.value_type.fixed_size;
  *all_valid = !may_have_nulls;
  return true;
}

}  // namespace rowbridge::row
