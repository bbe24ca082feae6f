#include "row/row_layout.hpp"

#include <algorithm>
#include <string>

#include "row/nested/nested_plan.hpp"
#include "spark/memory_access.hpp"

namespace rowbridge::row {

std::shared_ptr<const RowLayout> MakeLayout(std::vector<ColumnPlan> columns) {
  auto layout = std::make_shared<RowLayout>();
  const auto num_columns = static_cast<int64_t>(columns.size());
  layout->slots_end = spark::BitsetBytes(num_columns) + 8 * num_columns;
  layout->fixed_row_bytes = layout->slots_end;
  int64_t variable_writers = 0;
  for (const ColumnPlan& column : columns) {
    layout->fixed_row_bytes += column.writers.constant_variable_bytes;
    layout->has_variable_size |= column.variable_size;
    variable_writers += column.writers.write_alone[0][0] != nullptr;
    if (column.nested != nullptr) {
      layout->dead_bytes = std::max(layout->dead_bytes, column.nested->dead_bytes);
    }
  }
  layout->needs_cursors = variable_writers > 1;
  layout->columns = std::move(columns);
  return layout;
}

bool MatchesLayout(const RowLayout& layout, const ArrowSchema& batch_schema) {
  if (batch_schema.n_children != static_cast<int64_t>(layout.columns.size()) ||
      (batch_schema.n_children > 0 && batch_schema.children == nullptr)) {
    return false;
  }
  for (size_t i = 0; i < layout.columns.size(); ++i) {
    const ArrowSchema* child = batch_schema.children[i];
    if (child == nullptr || !SameLayout(layout.columns[i].field, *child)) return false;
  }
  return true;
}

Status ReencodeLayout(const RowLayout& layout, const ArrowSchema& batch_schema, bool variants,
                      KernelIsa isa, std::shared_ptr<const RowLayout>* out) {
  const auto num_columns = static_cast<int32_t>(layout.columns.size());
  if (batch_schema.n_children != num_columns ||
      (batch_schema.n_children > 0 && batch_schema.children == nullptr)) {
    return Status::Invalid("the batch schema has " + std::to_string(batch_schema.n_children) +
                           " columns, the converter's " + std::to_string(num_columns));
  }
  std::vector<ColumnPlan> columns = layout.columns;
  for (int32_t i = 0; i < num_columns; ++i) {
    const ArrowSchema* child = batch_schema.children[i];
    if (child == nullptr)
      return Status::Invalid("batch schema column " + std::to_string(i) + " is NULL");
    ColumnPlan& column = columns[static_cast<size_t>(i)];
    if (SameLayout(column.field, *child)) continue;
    ArrowField field;
    ROWBRIDGE_RETURN_NOT_OK(ImportSchema(*child, &field));
    ColumnPlan replacement;
    ROWBRIDGE_RETURN_NOT_OK(
        CompileColumn(field, i, num_columns, &column.spark, variants, isa, &replacement));
    if (replacement.writers.constant_variable_bytes != column.writers.constant_variable_bytes) {
      return Status::Internal("column '" + field.name + "' changed its reserved bytes");
    }
    column = std::move(replacement);
  }
  *out = MakeLayout(std::move(columns));
  return Status::Ok();
}

}  // namespace rowbridge::row
