// The batch driver: bind columns, size rows, then write them column by column.
#include "rowbridge/converter.hpp"

#include <algorithm>
#include <cstring>

#include "row/column_binding.hpp"
#include "row/column_plan.hpp"
#include "row/nested/depth_first/depth_first.hpp"
#include "row/nested/nested_column.hpp"
#include "row/nested/nested_plan.hpp"
#include "row/nested/nested_state.hpp"
#include "row/output_buffer.hpp"
#include "row/prefetch.hpp"
#include "row/registered_batch.hpp"
#include "row/variant_shadow.hpp"
#include "spark/memory_access.hpp"

namespace rowbridge {
namespace {

/// Rows per tile: rows are sized and written a tile at a time, small enough
/// that a tile's output stays in the L1 cache while every column writes its
/// part, so the column-at-a-time loops keep their tight per-type bodies
/// without re-reading the output from farther away.
inline constexpr int64_t kTileRows = 128;

/// The rows per tile for rows of `row_bytes` bytes on average: half as many
/// when kTileRows of them would not fit in 32 KiB, unless nested columns
/// write them, whose per-tile work (a pass per level) costs more than the
/// misses of a wider tile (measured: `rowbridge bench`, docs/BENCHMARKS.md).
inline int64_t TileRowsFor(int64_t row_bytes, bool nested) {
  return !nested && row_bytes * kTileRows > 32 * 1024 ? kTileRows / 2 : kTileRows;
}

}  // namespace

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
    const ArrowArray* array = nullptr;  // the batch's column, or its variant shadow
  };
  std::vector<BoundColumn> bound;
  int64_t fixed_row_bytes = 0;  // bitset + slots + constant variable bytes
  int64_t bitset_bytes = 0;
  bool has_variable_size = false;
  /// More than one column writes variable-region bytes, so rows need cursors;
  /// otherwise that one column (if any) uses its write_alone writers.
  bool needs_cursors = false;
  /// Scratch bytes past a tile's rows where nested columns put their null
  /// values (NestedNode::dead_bytes); 0 when there are no nested columns.
  int64_t dead_bytes = 0;

  row::OutputBuffer output;
  std::vector<int64_t> row_offsets;
  std::vector<int64_t> cursors;  // per row of a tile
  std::vector<int64_t> sizes;    // per row of a tile, when rows differ in size

  int64_t batch_rows = 0;
  int64_t next_row = 0;
  /// Rows per tile: kTileRows, fewer for wide rows (TileRowsFor), set from
  /// the rows of the last tile written.
  int64_t tile_target = kTileRows;
  std::unique_ptr<row::RegisteredBatch> registered;

  /// The depth-first path (nested/depth_first.hpp): the writer chosen when
  /// the converter was made, its plan, compiled with the layout (empty when
  /// the schema takes the level-by-level writer), and whether the current
  /// batch takes it.
  NestedWriter nested_writer = NestedWriter::kAuto;
  row::DepthFirstPlan depth_first;
  bool depth_first_batch = false;
  int64_t batch_offset = 0;

  Status Begin(const ArrowArray& batch, const ArrowSchema* batch_schema);
  Status Reencode(const ArrowSchema& batch_schema);
  Status WriteChunk(RowBatchView* out);
  /// Writes a tile with the depth-first writer and returns true, or returns
  /// false when its bound fails a check or does not fit below `cap`.
  bool TryWriteDepthFirstTile(int64_t batch_row, int64_t chunk_row, int64_t rows, int64_t cap,
                              int64_t slots_end, Status* status);
  /// Writes chunk rows [chunk_row, chunk_row + tile_rows), which are batch
  /// rows from `batch_row` on, whose offsets are known and whose bytes fit.
  Status WriteTile(int64_t batch_row, int64_t chunk_row, int64_t tile_rows, int64_t slots_end,
                   const BoundColumn* bound_columns, const BoundColumn* bound_end);
  void UpdateLayout();
  void Abandon() { next_row = batch_rows; }
};

namespace {

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
  // A struct has one buffer, its validity (unused here: a record batch has no nulls).
  if (batch.n_buffers != 1 || batch.buffers == nullptr) {
    return Status::Invalid(
        "the batch struct has " + std::to_string(batch.n_buffers) +
        (batch.buffers == nullptr ? " buffers and a NULL buffer list" : " buffers") +
        "; a struct has 1");
  }
  if (batch.null_count < -1 || batch.null_count > batch.length) {
    return Status::Invalid("the batch struct's null_count " + std::to_string(batch.null_count) +
                           " is outside [-1, length " + std::to_string(batch.length) + "]");
  }
  if (batch.null_count > 0) {
    return Status::Invalid("the batch struct has " + std::to_string(batch.null_count) +
                           " null rows; a record batch has none");
  }
  return Status::Ok();
}

}  // namespace

Status Converter::State::Reencode(const ArrowSchema& batch_schema) {
  if (batch_schema.n_children != static_cast<int64_t>(columns.size()) ||
      (batch_schema.n_children > 0 && batch_schema.children == nullptr)) {
    return Status::Invalid("the batch schema has " + std::to_string(batch_schema.n_children) +
                           " columns, the converter's " + std::to_string(columns.size()));
  }
  int32_t num_columns = static_cast<int32_t>(columns.size());
  row::ScopedKernelIsa kernels(plan->impl().isa);
  bool changed = false;
  for (int32_t i = 0; i < num_columns; ++i) {
    const ArrowSchema* child = batch_schema.children[i];
    if (child == nullptr)
      return Status::Invalid("batch schema column " + std::to_string(i) + " is NULL");
    row::ColumnPlan& column = columns[static_cast<size_t>(i)];
    if (SameLayout(column.field, *child)) continue;
    ArrowField field;
    ROWBRIDGE_RETURN_NOT_OK(ImportSchema(*child, &field));
    row::ColumnPlan replacement;
    ROWBRIDGE_RETURN_NOT_OK(row::CompileColumn(field, i, num_columns, &column.spark,
                                               plan->impl().variants, &replacement));
    if (replacement.writers.constant_variable_bytes != column.writers.constant_variable_bytes) {
      return Status::Internal("column '" + field.name + "' changed its reserved bytes");
    }
    column = std::move(replacement);
    changed = true;
  }
  if (changed) UpdateLayout();
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
  dead_bytes = 0;
  for (const row::ColumnPlan& column : columns) {
    if (column.nested != nullptr) dead_bytes = std::max(dead_bytes, column.nested->dead_bytes);
  }
  depth_first = row::CompileDepthFirst(columns, fixed_row_bytes, plan->impl().isa);
  if (!row::UseDepthFirst(depth_first, nested_writer)) depth_first = row::DepthFirstPlan();
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
    if (column_plan.has_variants) {
      auto& shadow = scratch[i].variant;
      if (shadow == nullptr) shadow = std::make_shared<row::VariantShadow>();
      ROWBRIDGE_RETURN_NOT_OK(shadow->Build(column_plan.field, column_plan.field.name, *child));
      child = shadow->array();
    }
    column.array = child;
    bool all_valid = false;
    if (options.validation == Validation::kFull ||
        !row::TryBindPlainFast(column_plan, *child, batch.offset, num_rows, &column.input,
                               &all_valid)) {
      ROWBRIDGE_RETURN_NOT_OK(row::BindColumn(column_plan, *child, batch.offset, num_rows,
                                              options.validation, &scratch[i], &column.input,
                                              &all_valid));
    }
    bool gathered = column.input.gather != nullptr;
    bool alone = !needs_cursors && column_plan.writers.write_alone[0][0] != nullptr;
    column.write =
        (alone ? column_plan.writers.write_alone : column_plan.writers.write)[gathered][all_valid];
    const row::WriterSet& writers = column_plan.writers;
    if (!gathered && writers.lengths_predictable != nullptr &&
        writers.lengths_predictable(column.input, num_rows)) {
      column.write =
          (alone ? writers.predictable_write_alone : writers.predictable_write)[all_valid];
    }
    column.size = column_plan.writers.size[gathered][all_valid];
    column.plan = &column_plan;
    // A batch's buffers are often cold and scattered: start loading every
    // column's first lines at once rather than stalling on each in turn.
    row::PrefetchValues(column.input, column_plan, 0, num_rows, 16);
  }
  batch_rows = num_rows;
  batch_offset = batch.offset;
  depth_first_batch = depth_first.eligible;
  for (size_t c = 0; c < depth_first.columns.size() && depth_first_batch; ++c) {
    size_t i = static_cast<size_t>(depth_first.columns[c].column);
    depth_first_batch = row::BindDepthFirstColumn(*bound_columns[i].array, bound_columns[i].input,
                                                  options.validation, c, &depth_first);
  }
  return Status::Ok();
}

Status Converter::State::WriteChunk(RowBatchView* out) {
  const int64_t first = next_row;
  const int64_t remaining = batch_rows - first;
  const int64_t cap = options.max_chunk_bytes;
  if (static_cast<int64_t>(row_offsets.size()) < remaining + 1) {
    row_offsets.resize(static_cast<size_t>(remaining + 1));
  }
  if (static_cast<int64_t>(cursors.size()) < kTileRows) {
    cursors.resize(static_cast<size_t>(kTileRows));
    sizes.resize(static_cast<size_t>(kTileRows));
  }
  int64_t* offsets = row_offsets.data();
  offsets[0] = 0;
  auto too_large = [&](int64_t row, int64_t bytes) {
    return Status::Capacity(
        "row " + std::to_string(row) + " needs " + std::to_string(bytes) + " bytes, more than " +
        (bytes > kMaxRowBytes ? "Spark's row size limit of " + std::to_string(kMaxRowBytes)
                              : "the chunk cap of " + std::to_string(cap)));
  };
  const BoundColumn* bound_columns = bound.data();
  const BoundColumn* bound_end = bound_columns + bound.size();
  const int64_t slots_end = bitset_bytes + 8 * static_cast<int64_t>(columns.size());
  int64_t count = 0;  // rows of this chunk sized and written so far
  if (!has_variable_size) {
    int64_t row_bytes = fixed_row_bytes;
    if (remaining > 0 && (row_bytes > cap || row_bytes > kMaxRowBytes))
      return too_large(first, row_bytes);
    int64_t chunk_rows = row_bytes == 0 ? remaining : std::min(remaining, cap / row_bytes);
    tile_target = TileRowsFor(row_bytes, dead_bytes > 0);
    for (int64_t k = 1; k <= chunk_rows; ++k) offsets[k] = k * row_bytes;
    if (!output.Reserve(std::max<int64_t>(offsets[chunk_rows], 8) + dead_bytes, 0)) {
      return Status::OutOfMemory("cannot allocate " + std::to_string(offsets[chunk_rows]) +
                                 " bytes of rows");
    }
    for (; count < chunk_rows; count += tile_target) {
      ROWBRIDGE_RETURN_NOT_OK(WriteTile(first + count, count,
                                        std::min(tile_target, chunk_rows - count), slots_end,
                                        bound_columns, bound_end));
    }
    count = chunk_rows;
  } else {
    // One tile at a time: size its rows, extend the offsets, then write it, so
    // that the tile's input and output stay in cache between the two passes.
    int64_t* tile_sizes = sizes.data();
    bool chunk_full = false;
    while (count < remaining && !chunk_full) {
      int64_t rows = std::min(tile_target, remaining - count);
      int64_t tile_first = first + count;
      if (depth_first_batch) {
        Status status;
        if (TryWriteDepthFirstTile(tile_first, count, rows, cap, slots_end, &status)) {
          ROWBRIDGE_RETURN_NOT_OK(status);
          count += rows;
          continue;
        }
      }
      std::fill(tile_sizes, tile_sizes + rows, fixed_row_bytes);
      for (const BoundColumn* column = bound_columns; column != bound_end; ++column) {
        if (column->size == nullptr) continue;
        int64_t bad_row = column->size(column->input, tile_first, rows, tile_sizes);
        if (bad_row >= 0) {
          if (column->input.nested != nullptr) return row::NestedSizeError(column->input);
          return Status::Invalid("column '" + column->plan->field.name + "' row " +
                                 std::to_string(bad_row) +
                                 ": offsets decrease (negative value length)");
        }
      }
      int64_t start = offsets[count];
      for (int64_t k = 0; k < rows; ++k)
        offsets[count + k + 1] = offsets[count + k] + tile_sizes[k];
      int64_t end = offsets[count + rows];
      if (end > cap || end - start > kMaxRowBytes) {
        // Rare: the chunk fills up in this tile, or a row may be too large.
        int64_t fit = 0;
        while (fit < rows) {
          int64_t size = tile_sizes[fit];
          if (size > kMaxRowBytes || (count + fit == 0 && size > cap)) {
            return too_large(tile_first + fit, size);
          }
          if (offsets[count + fit] + size > cap) break;
          ++fit;
        }
        chunk_full = fit < rows;
        rows = fit;
        end = offsets[count + rows];
      }
      if (!output.Reserve(std::max<int64_t>(end, 8) + dead_bytes, start)) {
        return Status::OutOfMemory("cannot allocate " + std::to_string(end) + " bytes of rows");
      }
      ROWBRIDGE_RETURN_NOT_OK(
          WriteTile(tile_first, count, rows, slots_end, bound_columns, bound_end));
      if (rows > 0) tile_target = TileRowsFor((end - start) / rows, dead_bytes > 0);
      count += rows;
    }
  }
  next_row = first + count;
  out->data = output.data();
  out->row_offsets = offsets;
  out->num_rows = count;
  out->first_row = first;
  out->data_size = offsets[count];
  return Status::Ok();
}

Status Converter::State::WriteTile(int64_t batch_row, int64_t chunk_row, int64_t tile_rows,
                                   int64_t slots_end, const BoundColumn* bound_columns,
                                   const BoundColumn* bound_end) {
  // Ask for the input of the tiles ahead: values two tiles ahead, string
  // bytes one tile ahead (their offsets were asked for a tile earlier).
  int64_t values_ahead = batch_row + 2 * tile_target;
  int64_t data_ahead = batch_row + tile_target;
  for (const BoundColumn* column = bound_columns; column != bound_end; ++column) {
    row::PrefetchValues(column->input, *column->plan, values_ahead,
                        std::min(tile_target, batch_rows - values_ahead), 32);
    if (column->size != nullptr) {
      row::PrefetchStringData(column->input, *column->plan, data_ahead,
                              std::min(tile_target, batch_rows - data_ahead), 64);
    }
  }
  uint8_t* base = output.data();
  const int64_t* tile_offsets = row_offsets.data() + chunk_row;
  // Zero the tile's rows with one wide fill: it clears every null bitset and
  // brings the output lines into the cache in bulk (string instructions write
  // whole lines without first reading them), ahead of the 8-byte stores of
  // the column writers.
  std::memset(base + tile_offsets[0], 0,
              static_cast<size_t>(tile_offsets[tile_rows] - tile_offsets[0]));
  int64_t* tile_cursors = cursors.data();
  if (needs_cursors) std::fill(tile_cursors, tile_cursors + tile_rows, slots_end);
  row::RowSink sink{base, tile_offsets, tile_cursors, slots_end};
  for (const BoundColumn* column = bound_columns; column != bound_end; ++column) {
    ROWBRIDGE_RETURN_NOT_OK(
        column->write(column->plan->target, column->input, batch_row, tile_rows, sink));
  }
  return Status::Ok();
}

bool Converter::State::TryWriteDepthFirstTile(int64_t batch_row, int64_t chunk_row, int64_t rows,
                                              int64_t cap, int64_t slots_end, Status* status) {
  int64_t* offsets = row_offsets.data() + chunk_row;
  const int64_t start = offsets[0];
  int64_t most =
      row::DepthFirstTileBound(depth_first, batch_offset, batch_row, rows, options.validation);
  if (most < 0 || most > cap - start || most > kMaxRowBytes) return false;
  if (!output.Reserve(start + most + row::kDepthFirstStoreSlack, start)) {
    *status =
        Status::OutOfMemory("cannot allocate " + std::to_string(start + most) + " bytes of rows");
    return true;
  }
  row::CountDepthFirstTile();
  uint8_t* base = output.data();
  depth_first.write(depth_first, batch_offset, batch_row, rows, base, offsets);
  // The flat columns without variable-region bytes: their slots and null bits.
  row::RowSink sink{base, offsets, cursors.data(), slots_end};
  for (const BoundColumn& column : bound) {
    if (column.plan->nested != nullptr || column.plan->variable_size) continue;
    *status = column.write(column.plan->target, column.input, batch_row, rows, sink);
    if (!status->ok()) return true;
  }
  return true;
}

Converter::Converter(std::unique_ptr<State> state) : state_(std::move(state)) {}
Converter::~Converter() = default;

Status Converter::Make(const ArrowSchema& schema, const ConverterOptions& options,
                       std::unique_ptr<Converter>* out) {
  std::shared_ptr<const RowPlan> plan;
  ROWBRIDGE_RETURN_NOT_OK(RowPlan::Compile(schema, options, &plan));
  return Make(std::move(plan), options, out);
}

Status Converter::Make(std::shared_ptr<const RowPlan> plan, const ConverterOptions& options,
                       std::unique_ptr<Converter>* out) {
  if (plan == nullptr) return Status::Invalid("the plan is null");
  if (options.max_chunk_bytes <= 0) return Status::Invalid("max_chunk_bytes must be positive");
  if (options.validation != Validation::kCheap && options.validation != Validation::kFull) {
    return Status::Invalid("unknown validation level " +
                           std::to_string(static_cast<int>(options.validation)));
  }
  auto state = std::make_unique<State>();
  const RowPlan::Impl& impl = plan->impl();
  state->options = options;
  state->columns = impl.columns;
  state->scratch.resize(impl.columns.size());
  state->bound.resize(impl.columns.size());
  state->bitset_bytes = row::BitsetBytes(static_cast<int64_t>(impl.columns.size()));
  state->fixed_row_bytes = impl.fixed_row_bytes + impl.constant_var_bytes;
  ROWBRIDGE_RETURN_NOT_OK(row::ResolveNestedWriter(options.nested_writer, &state->nested_writer));
  state->plan = std::move(plan);
  state->UpdateLayout();
  out->reset(new Converter(std::move(state)));
  return Status::Ok();
}

Status Converter::Convert(const ArrowArray& batch, const ArrowSchema* batch_schema,
                          RowBatchView* out) {
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

int64_t Converter::buffer_bytes() const {
  const State& s = *state_;
  auto bytes = [](const auto& v) { return static_cast<int64_t>(v.capacity() * sizeof(v[0])); };
  int64_t total = s.output.capacity() + bytes(s.row_offsets) + bytes(s.cursors) + bytes(s.sizes);
  for (const row::ColumnScratch& scratch : s.scratch) {
    total += bytes(scratch.gather) + bytes(scratch.validity);
    if (scratch.nested != nullptr) total += row::NodeStateBytes(scratch.nested->root);
    if (scratch.variant != nullptr) total += scratch.variant->bytes();
  }
  return total;
}

}  // namespace rowbridge
