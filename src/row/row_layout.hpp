// RowLayout: a schema in one encoding, compiled into column plans and the
// shape of the rows they write; and RowPlan::Impl, which holds the layout of
// the registered schema.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "row/column_plan.hpp"

namespace rowbridge::row {

/// How batches of one encoding layout (each column plain, dictionary or
/// run-end encoded as its field says) are read and written. Immutable once
/// built, so any number of converters and threads may share one.
struct RowLayout {
  std::vector<ColumnPlan> columns;
  /// Bytes of the null bitset plus one 8-byte slot per column: where a row's
  /// variable region starts.
  int64_t slots_end = 0;
  /// slots_end plus the constant variable bytes (16 per large decimal and
  /// calendar interval): the size of every row when no column has a
  /// variable size, the least size otherwise (RowPlan::fixed_row_bytes).
  int64_t fixed_row_bytes = 0;
  /// Some column adds a per-row number of variable bytes (strings, nested).
  bool has_variable_size = false;
  /// More than one column writes variable-region bytes, so rows need
  /// cursors; otherwise that one column (if any) uses its write_alone writers.
  bool needs_cursors = false;
  /// Scratch bytes past a tile's rows where nested columns put their null
  /// values (NestedNode::dead_bytes); 0 when no column is nested.
  int64_t dead_bytes = 0;
};

/// Builds the layout of `columns`, compiled for a row of columns.size() columns.
std::shared_ptr<const RowLayout> MakeLayout(std::vector<ColumnPlan> columns);

/// True when every column of `batch_schema` (a struct of the layout's
/// columns) is encoded as the layout's is. Borrows `batch_schema`.
bool MatchesLayout(const RowLayout& layout, const ArrowSchema& batch_schema);

/// Builds the layout of batches of `batch_schema`: the columns of `layout`
/// whose encoding differs are compiled again from the batch's fields, keeping
/// their Spark types (`variants`: ConverterOptions::variants) and the
/// kernels of `isa`. Borrows `batch_schema`; errors name the column that
/// cannot be read so.
Status ReencodeLayout(const RowLayout& layout, const ArrowSchema& batch_schema, bool variants,
                      KernelIsa isa, std::shared_ptr<const RowLayout>* out);

}  // namespace rowbridge::row

namespace rowbridge {

struct RowPlan::Impl {
  ArrowField schema;
  SparkType spark_schema;
  /// The layout of batches encoded as the registered schema.
  std::shared_ptr<const row::RowLayout> layout;
  bool variants = true;  // ConverterOptions::variants it was compiled with
  row::KernelIsa isa = row::KernelIsa::kPortable;  // ConverterOptions::kernels, resolved
};

}  // namespace rowbridge
