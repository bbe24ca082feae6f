// The batch driver: bind columns, size rows, then write them column by column.
#include "rowbridge/converter.hpp"

#include <algorithm>
#include <cstring>

#include "row/column_binding.hpp"
#include "row/column_plan.hpp"
#include "row/memory_access.hpp"
#include "row/output_buffer.hpp"
#include "row/registered_batch.hpp"

namespace rowbridge {

struct Converter::State {
  std::shared_ptr<const RowPlan> plan;
  ConverterOptions options;
  /// The plan's columns, replaced individually when a batch re-encodes one.
  std::vector<row::ColumnPlan> columns;
  std::vector<row::ColumnScratch> scratch;
  /// The current batch's columns, resolved by Begin.
  struct BoundColumn {
    row::ColumnInput input;
    row::WriteFn write = nullptr;
    row::SizeFn size = nullptr;  // null when the column adds no per-row bytes
    const row::ColumnPlan* plan = nullptr;
  };
  std::vector<BoundColumn> bound;
  int64_t fixed_row_bytes = 0;     // bitset + slots + constant variable bytes
  int64_t bitset_bytes = 0;
  bool has_variable_size = false;
  /// More than one column writes variable-region bytes, so rows need cursors;
  /// otherwise that one column (if any) uses its write_alone writers.
  bool needs_cursors = false;

  row::OutputBuffer rows;
  std::vector<int64_t> row_offsets;
  std::vector<int64_t> cursors;
  std::vector<int64_t> sizes;  // per batch row, when rows differ in size

  int64_t batch_rows = 0;
  int64_t next_row = 0;
  std::unique_ptr<row::RegisteredBatch> registered;

  Status Begin(const ArrowArray& batch, const ArrowSchema* batch_schema);
  Status Reencode(const ArrowSchema& batch_schema);
  Status WriteChunk(RowBatchView* out);
  void UpdateLayout();
  void Abandon() { next_row = batch_rows; }
};

namespace {

/// Rows per tile of the write loops (see WriteChunk).
constexpr int64_t kTileRows = 128;

Status CheckBatch(const ArrowArray& batch, int64_t num_columns) {
  if (batch.release == nullptr) return Status::Invalid("the batch array is released");
  if (batch.length < 0 || batch.offset < 0 || batch.length > INT64_MAX - batch.offset) {
    return Status::Invalid("the batch has an invalid length " + std::to_string(batch.length) +
                           " or offset " + std::to_string(batch.offset));
  }
  if (batch.n_children != num_columns) {
    return Status::Invalid("the batch has " + std::to_string(batch.n_children) +
                           " columns, the schema " + std::to_string(num_columns));
  }
  if (num_columns > 0 && batch.children == nullptr) {
    return Status::Invalid("the batch's child list is NULL");
  }
  if (batch.null_count > 0) {
    return Status::Invalid("the batch struct has " + std::to_string(batch.null_count) +
                           " null rows; a record batch has none");
  }
  return Status::Ok();
}

/// Starts loading the first cache lines of every column's validity and
/// values at once. A small batch's buffers are usually cold and scattered;
/// without this each column's writer would stall on them in turn.
void PrefetchColumn(const row::ColumnInput& input, const row::ColumnPlan& column, int64_t num_rows) {
  constexpr int64_t kMaxLines = 16;
  if (input.gather != nullptr) return;
  if (input.validity != nullptr) __builtin_prefetch(input.validity + (input.validity_offset >> 3));
  if (input.values == nullptr) return;
  int64_t width = column.prefetch_bytes_per_value;
  const uint8_t* first = input.values + input.offset * width;
  int64_t lines = std::min(kMaxLines, (num_rows * width + 63) / 64 + 1);
  for (int64_t line = 0; line < lines; ++line) __builtin_prefetch(first + line * 64);
}

}  // namespace

Status Converter::State::Reencode(const ArrowSchema& batch_schema) {
  if (batch_schema.n_children != static_cast<int64_t>(columns.size()) ||
      (batch_schema.n_children > 0 && batch_schema.children == nullptr)) {
    return Status::Invalid("the batch schema has " + std::to_string(batch_schema.n_children) +
                           " columns, the converter's " + std::to_string(columns.size()));
  }
  int32_t num_columns = static_cast<int32_t>(columns.size());
  for (int32_t i = 0; i < num_columns; ++i) {
    const ArrowSchema* child = batch_schema.children[i];
    if (child == nullptr) return Status::Invalid("batch schema column " + std::to_string(i) + " is NULL");
    row::ColumnPlan& column = columns[static_cast<size_t>(i)];
    if (SameLayout(column.field, *child)) continue;
    ArrowField field;
    ROWBRIDGE_RETURN_NOT_OK(ImportSchema(*child, &field));
    row::ColumnPlan replacement;
    ROWBRIDGE_RETURN_NOT_OK(row::CompileColumn(field, i, num_columns, &column.spark, &replacement));
    if (replacement.writers.constant_variable_bytes != column.writers.constant_variable_bytes) {
      return Status::Internal("column '" + field.name + "' changed its reserved bytes");
    }
    column = std::move(replacement);
  }
  UpdateLayout();
  return Status::Ok();
}

void Converter::State::UpdateLayout() {
  has_variable_size = false;
  int64_t variable_writers = 0;
  for (const row::ColumnPlan& column : columns) {
    has_variable_size |= column.variable_size;
    variable_writers += column.writers.write_alone[0][0] != nullptr;
  }
  needs_cursors = variable_writers > 1;
}

Status Converter::State::Begin(const ArrowArray& batch, const ArrowSchema* batch_schema) {
  batch_rows = 0;
  next_row = 0;
  size_t num_columns = columns.size();
  ROWBRIDGE_RETURN_NOT_OK(CheckBatch(batch, static_cast<int64_t>(num_columns)));
  if (batch_schema != nullptr) ROWBRIDGE_RETURN_NOT_OK(Reencode(*batch_schema));
  int64_t num_rows = batch.length;
  // Column metadata is reached through chains of pointers that are often cold;
  // start the loads of every column's struct and buffer list in parallel.
  for (size_t i = 0; i < num_columns; ++i) __builtin_prefetch(batch.children[i]);
  for (size_t i = 0; i < num_columns; ++i) {
    if (batch.children[i] != nullptr) __builtin_prefetch(batch.children[i]->buffers);
  }
  BoundColumn* bound_columns = bound.data();
  for (size_t i = 0; i < num_columns; ++i) {
    const ArrowArray* child = batch.children[i];
    if (child == nullptr) return Status::Invalid("batch column " + std::to_string(i) + " is NULL");
    BoundColumn& column = bound_columns[i];
    const row::ColumnPlan& column_plan = columns[i];
    bool all_valid = false;
    if (options.validation == Validation::kFull ||
        !row::TryBindPlainFast(column_plan, *child, batch.offset, num_rows, &column.input, &all_valid)) {
      ROWBRIDGE_RETURN_NOT_OK(row::BindColumn(column_plan, *child, batch.offset, num_rows,
                                              options.validation, &scratch[i], &column.input,
                                              &all_valid));
    }
    bool gathered = column.input.gather != nullptr;
    bool alone = !needs_cursors && column_plan.writers.write_alone[0][0] != nullptr;
    column.write = (alone ? column_plan.writers.write_alone : column_plan.writers.write)[gathered][all_valid];
    column.size = column_plan.writers.size[gathered][all_valid];
    column.plan = &column_plan;
    PrefetchColumn(column.input, column_plan, num_rows);
  }
  if (has_variable_size) {
    if (sizes.size() < static_cast<size_t>(num_rows)) sizes.resize(static_cast<size_t>(num_rows));
    int64_t* row_sizes = sizes.data();
    std::fill(row_sizes, row_sizes + num_rows, fixed_row_bytes);
    for (size_t i = 0; i < num_columns; ++i) {
      const BoundColumn& column = bound_columns[i];
      if (column.size == nullptr) continue;
      int64_t bad_row = column.size(column.input, num_rows, row_sizes);
      if (bad_row >= 0) {
        return Status::Invalid("column '" + column.plan->field.name + "' row " +
                               std::to_string(bad_row) + ": offsets decrease (negative value length)");
      }
    }
  }
  batch_rows = num_rows;
  return Status::Ok();
}

Status Converter::State::WriteChunk(RowBatchView* out) {
  int64_t first = next_row;
  int64_t remaining = batch_rows - first;
  int64_t cap = options.max_chunk_bytes;
  int64_t count = 0;
  int64_t total = 0;
  if (static_cast<int64_t>(row_offsets.size()) < remaining + 1) {
    row_offsets.resize(static_cast<size_t>(remaining + 1));
  }
  int64_t* offsets = row_offsets.data();
  auto too_large = [&](int64_t row, int64_t bytes) {
    return Status::Capacity("row " + std::to_string(row) + " needs " + std::to_string(bytes) +
                            " bytes, more than " +
                            (bytes > kMaxRowBytes ? "Spark's row size limit of " + std::to_string(kMaxRowBytes)
                                                  : "the chunk cap of " + std::to_string(cap)));
  };
  if (!has_variable_size) {
    int64_t row_bytes = fixed_row_bytes;
    if (remaining > 0 && (row_bytes > cap || row_bytes > kMaxRowBytes)) return too_large(first, row_bytes);
    count = row_bytes == 0 ? remaining : std::min(remaining, cap / row_bytes);
    for (int64_t k = 0; k <= count; ++k) offsets[k] = k * row_bytes;
    total = count * row_bytes;
  } else {
    const int64_t* row_sizes = sizes.data() + first;
    offsets[0] = 0;
    for (int64_t k = 0; k < remaining; ++k) offsets[k + 1] = offsets[k] + row_sizes[k];
    if (offsets[remaining] <= cap && offsets[remaining] <= kMaxRowBytes) {
      // The common case: the rest of the batch is one chunk and no row can
      // exceed Spark's limit.
      count = remaining;
      total = offsets[remaining];
    }
    while (count < remaining) {
      int64_t size = row_sizes[count];
      if (total + size > cap) {
        if (count == 0) return too_large(first, size);
        break;
      }
      if (size > kMaxRowBytes) return too_large(first + count, size);
      total += size;
      offsets[++count] = total;
    }
  }
  if (!rows.Reserve(std::max<int64_t>(total, 8))) {
    return Status::OutOfMemory("cannot allocate " + std::to_string(total) + " bytes of rows");
  }
  if (static_cast<int64_t>(cursors.size()) < count) cursors.resize(static_cast<size_t>(count));
  uint8_t* base = rows.data();
  int64_t slots_end = bitset_bytes + 8 * static_cast<int64_t>(columns.size());
  const BoundColumn* bound_columns = bound.data();
  const BoundColumn* bound_end = bound_columns + bound.size();
  // Rows are written in tiles small enough to stay in the L1 cache while
  // every column writes its part: the column-at-a-time loops keep their
  // tight per-type bodies without re-reading the output from farther away.
  for (int64_t tile = 0; tile < count; tile += kTileRows) {
    int64_t tile_rows = std::min(kTileRows, count - tile);
    const int64_t* tile_offsets = offsets + tile;
    if (bitset_bytes == 8) {
      for (int64_t k = 0; k < tile_rows; ++k) row::Store64(base + tile_offsets[k], 0);
    } else {
      for (int64_t k = 0; k < tile_rows; ++k) {
        for (int64_t word = 0; word < bitset_bytes; word += 8) {
          row::Store64(base + tile_offsets[k] + word, 0);
        }
      }
    }
    int64_t* tile_cursors = cursors.data() + tile;
    if (needs_cursors) std::fill(tile_cursors, tile_cursors + tile_rows, slots_end);
    row::RowSink sink{base, tile_offsets, tile_cursors, slots_end};
    for (const BoundColumn* column = bound_columns; column != bound_end; ++column) {
      ROWBRIDGE_RETURN_NOT_OK(
          column->write(column->plan->target, column->input, first + tile, tile_rows, sink));
    }
  }
  next_row = first + count;
  out->data = base;
  out->row_offsets = offsets;
  out->num_rows = count;
  out->first_row = first;
  out->data_size = total;
  return Status::Ok();
}

Converter::Converter(std::unique_ptr<State> state) : state_(std::move(state)) {}
Converter::~Converter() = default;

Status Converter::Make(const ArrowSchema& schema, const ConverterOptions& options,
                       std::unique_ptr<Converter>* out) {
  std::shared_ptr<const RowPlan> plan;
  ROWBRIDGE_RETURN_NOT_OK(RowPlan::Compile(schema, &plan));
  return Make(std::move(plan), options, out);
}

Status Converter::Make(std::shared_ptr<const RowPlan> plan, const ConverterOptions& options,
                       std::unique_ptr<Converter>* out) {
  if (plan == nullptr) return Status::Invalid("the plan is null");
  if (options.max_chunk_bytes <= 0) return Status::Invalid("max_chunk_bytes must be positive");
  if (options.validation != Validation::kCheap && options.validation != Validation::kFull) {
    return Status::Invalid("unknown validation level " + std::to_string(static_cast<int>(options.validation)));
  }
  auto state = std::make_unique<State>();
  const RowPlan::Impl& impl = plan->impl();
  state->options = options;
  state->columns = impl.columns;
  state->scratch.resize(impl.columns.size());
  state->bound.resize(impl.columns.size());
  state->bitset_bytes = row::BitsetBytes(static_cast<int64_t>(impl.columns.size()));
  state->fixed_row_bytes = impl.fixed_row_bytes + impl.constant_var_bytes;
  state->UpdateLayout();
  state->plan = std::move(plan);
  out->reset(new Converter(std::move(state)));
  return Status::Ok();
}

Status Converter::Convert(const ArrowArray& batch, const ArrowSchema* batch_schema, RowBatchView* out) {
  *out = RowBatchView();
  try {
    Status status = state_->Begin(batch, batch_schema);
    if (status.ok()) status = state_->WriteChunk(out);
    if (!status.ok()) state_->Abandon();
    return status;
  } catch (const std::bad_alloc&) {
    state_->Abandon();
    return Status::OutOfMemory("out of memory while converting a batch");
  }
}

bool Converter::HasMoreChunks() const { return state_->next_row < state_->batch_rows; }

Status Converter::NextChunk(RowBatchView* out) {
  *out = RowBatchView();
  if (!HasMoreChunks()) {
    out->first_row = state_->batch_rows;
    return Status::Ok();
  }
  try {
    Status status = state_->WriteChunk(out);
    if (!status.ok()) state_->Abandon();
    return status;
  } catch (const std::bad_alloc&) {
    state_->Abandon();
    return Status::OutOfMemory("out of memory while converting a batch");
  }
}

ArrowArray* Converter::registered_batch() {
  if (!state_->registered) {
    state_->registered = std::make_unique<row::RegisteredBatch>(state_->plan->impl().schema);
  }
  return state_->registered->array();
}

const RowPlan& Converter::plan() const { return *state_->plan; }

}  // namespace rowbridge
