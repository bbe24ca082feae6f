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
#include "row/row_layout.hpp"
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

/// Rows per tile of the depth-first writer, which visits each row once: its
/// per-tile work (the bound's walk over the plan, the reserve, the flat
/// columns' calls) spread over more rows. On the nested schema of SPEC §6,
/// tiles of 512 and 1024 rows took 2-4 % less time than tiles of 128.
inline constexpr int64_t kDepthFirstTileRows = 1024;

/// The most layouts a converter keeps compiled.
inline constexpr size_t kMaxLayouts = 8;

}  // namespace

namespace row {

/// A layout as one converter uses it: the shared layout, its depth-first plan
/// (compiled per converter, since each batch binds its nodes to the batch's
/// buffers; empty when the level-by-level writer writes the layout) and the
/// columns' scratch buffers, kept per layout so that batches alternating
/// between layouts reuse them.
struct ConverterLayout {
  std::shared_ptr<const RowLayout> layout;
  DepthFirstPlan depth_first;
  std::vector<ColumnScratch> scratch;
  uint64_t last_used = 0;
};

/// One column of the current batch, bound to its buffers.
struct BoundColumn {
  ColumnInput input;
  WriteFn write = nullptr;
  SizeFn size = nullptr;  // null when the column adds no per-row bytes
  const ColumnPlan* plan = nullptr;
  const ArrowArray* array = nullptr;  // the batch's column, or its variant shadow
};

/// The current batch: its layout, its bound columns, and the rows returned.
struct BoundBatch {
  ConverterLayout* layout = nullptr;
  std::vector<BoundColumn> columns;
  int64_t rows = 0;
  int64_t next_row = 0;
  int64_t offset = 0;
  /// The depth-first writer writes this batch's tiles.
  bool depth_first = false;
};

/// The buffers rows are written into, reused batch after batch.
struct RowBuffers {
  OutputBuffer output;
  std::vector<int64_t> row_offsets;
  std::vector<int64_t> cursors;  // per row of a tile
  std::vector<int64_t> sizes;    // per row of a tile, when rows differ in size
  /// Rows per tile: kTileRows, fewer for wide rows (TileRowsFor), set from
  /// the rows of the last tile written.
  int64_t tile_target = kTileRows;
};

}  // namespace row

struct Converter::State {
  // Per schema: fixed when the converter is made.
  std::shared_ptr<const RowPlan> plan;
  ConverterOptions options;
  ConverterStats stats;
  /// The layouts seen, the registered one first; at most kMaxLayouts, the
  /// least recently used other than the registered one dropped first.
  std::vector<std::unique_ptr<row::ConverterLayout>> layouts;
  uint64_t layout_uses = 0;
  std::unique_ptr<row::RegisteredBatch> registered;

  row::BoundBatch batch;
  row::RowBuffers buffers;

  /// Adds `layout`, in place of the least recently used one when
  /// kMaxLayouts are held, and stores its entry in `*out`.
  void AddLayout(std::shared_ptr<const row::RowLayout> layout, row::ConverterLayout** out);
  /// The layout of a batch of `batch_schema` (null: the registered schema).
  Status FindLayout(const ArrowSchema* batch_schema, row::ConverterLayout** out);
  Status Begin(const ArrowArray& batch, const ArrowSchema* batch_schema);
  Status WriteChunk(RowBatchView* out);
  /// The bytes a depth-first tile of `rows` from chunk row `chunk_row` needs,
  /// or -1 when the level-by-level writer must write it: its bound fails a
  /// check, or does not fit below `cap`.
  int64_t DepthFirstTileBytes(int64_t batch_row, int64_t chunk_row, int64_t rows,
                              int64_t cap) const;
  /// Writes a tile with the depth-first writer into `bytes` (from
  /// DepthFirstTileBytes) of output.
  Status WriteDepthFirstTile(int64_t batch_row, int64_t chunk_row, int64_t rows, int64_t bytes);
  /// Writes chunk rows [chunk_row, chunk_row + tile_rows), which are batch
  /// rows from `batch_row` on, whose offsets are known and whose bytes fit.
  Status WriteTile(int64_t batch_row, int64_t chunk_row, int64_t tile_rows);
  void Abandon() { batch.next_row = batch.rows; }
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

void Converter::State::AddLayout(std::shared_ptr<const row::RowLayout> layout,
                                 row::ConverterLayout** out) {
  auto entry = std::make_unique<row::ConverterLayout>();
  entry->depth_first =
      row::CompileDepthFirst(layout->columns, layout->fixed_row_bytes, plan->impl().isa);
  const bool depth_first = row::UseDepthFirst(entry->depth_first, options.nested_writer);
  if (!depth_first) entry->depth_first = row::DepthFirstPlan();
  if (layouts.empty()) {
    stats.nested_writer = depth_first ? NestedWriter::kDepthFirst : NestedWriter::kLevels;
  }
  entry->scratch.resize(layout->columns.size());
  entry->layout = std::move(layout);
  *out = entry.get();
  if (layouts.size() < kMaxLayouts) {
    layouts.push_back(std::move(entry));
    return;
  }
  auto oldest =
      std::min_element(layouts.begin() + 1, layouts.end(),
                       [](const auto& a, const auto& b) { return a->last_used < b->last_used; });
  *oldest = std::move(entry);
}

Status Converter::State::FindLayout(const ArrowSchema* batch_schema, row::ConverterLayout** out) {
  row::ConverterLayout* found = layouts[0].get();
  if (batch_schema != nullptr) {
    // The layout of the previous batch first: encodings rarely change.
    if (batch.layout != nullptr && row::MatchesLayout(*batch.layout->layout, *batch_schema)) {
      found = batch.layout;
    } else {
      found = nullptr;
      for (const auto& entry : layouts) {
        if (row::MatchesLayout(*entry->layout, *batch_schema)) {
          found = entry.get();
          break;
        }
      }
    }
    if (found == nullptr) {
      const RowPlan::Impl& impl = plan->impl();
      std::shared_ptr<const row::RowLayout> layout;
      ROWBRIDGE_RETURN_NOT_OK(
          row::ReencodeLayout(*impl.layout, *batch_schema, impl.variants, impl.isa, &layout));
      AddLayout(std::move(layout), &found);
    }
  }
  found->last_used = ++layout_uses;
  *out = found;
  return Status::Ok();
}

Status Converter::State::Begin(const ArrowArray& array, const ArrowSchema* batch_schema) {
  batch.rows = 0;
  batch.next_row = 0;
  const RowPlan::Impl& impl = plan->impl();
  const size_t num_columns = impl.layout->columns.size();
  ROWBRIDGE_RETURN_NOT_OK(CheckBatch(array, static_cast<int64_t>(num_columns)));
  row::ConverterLayout* layout = nullptr;
  ROWBRIDGE_RETURN_NOT_OK(FindLayout(batch_schema, &layout));
  batch.layout = layout;
  const std::vector<row::ColumnPlan>& columns = layout->layout->columns;
  const bool needs_cursors = layout->layout->needs_cursors;
  const int64_t num_rows = array.length;
  // Column metadata is reached through chains of pointers that are often cold;
  // start the loads of every column's struct and buffer list in parallel.
  for (size_t i = 0; i < num_columns; ++i) __builtin_prefetch(array.children[i]);
  for (size_t i = 0; i < num_columns; ++i) {
    if (array.children[i] != nullptr) __builtin_prefetch(array.children[i]->buffers);
  }
  row::BoundColumn* bound_columns = batch.columns.data();
  for (size_t i = 0; i < num_columns; ++i) {
    const ArrowArray* child = array.children[i];
    if (child == nullptr) return Status::Invalid("batch column " + std::to_string(i) + " is NULL");
    row::BoundColumn& column = bound_columns[i];
    const row::ColumnPlan& column_plan = columns[i];
    row::ColumnScratch& scratch = layout->scratch[i];
    if (column_plan.has_variants) {
      if (scratch.variant == nullptr) scratch.variant = std::make_shared<row::VariantShadow>();
      ROWBRIDGE_RETURN_NOT_OK(
          scratch.variant->Build(column_plan.field, column_plan.field.name, *child));
      child = scratch.variant->array();
    }
    column.array = child;
    bool all_valid = false;
    if (options.validation == Validation::kFull ||
        !row::TryBindPlainFast(column_plan, *child, array.offset, num_rows, &column.input,
                               &all_valid)) {
      ROWBRIDGE_RETURN_NOT_OK(row::BindColumn(column_plan, *child, array.offset, num_rows,
                                              options.validation, &scratch, &column.input,
                                              &all_valid));
    }
    const row::ChosenWriter chosen =
        row::ChooseWriter(column_plan.writers, column.input, num_rows, all_valid, needs_cursors);
    column.write = chosen.write;
    column.size = chosen.size;
    column.plan = &column_plan;
    // A batch's buffers are often cold and scattered: start loading every
    // column's first lines at once rather than stalling on each in turn.
    row::PrefetchValues(column.input, column_plan, 0, num_rows, 16);
  }
  batch.rows = num_rows;
  batch.offset = array.offset;
  row::DepthFirstPlan& depth_first = layout->depth_first;
  batch.depth_first = depth_first.eligible;
  for (size_t c = 0; c < depth_first.columns.size() && batch.depth_first; ++c) {
    size_t i = static_cast<size_t>(depth_first.columns[c].column);
    batch.depth_first = row::BindDepthFirstColumn(*bound_columns[i].array, bound_columns[i].input,
                                                  options.validation, c, &depth_first);
  }
  return Status::Ok();
}

Status Converter::State::WriteChunk(RowBatchView* out) {
  const row::RowLayout& layout = *batch.layout->layout;
  const int64_t first = batch.next_row;
  const int64_t remaining = batch.rows - first;
  const int64_t cap = options.max_chunk_bytes;
  const int64_t fixed_row_bytes = layout.fixed_row_bytes;
  const int64_t dead_bytes = layout.dead_bytes;
  std::vector<int64_t>& row_offsets = buffers.row_offsets;
  if (static_cast<int64_t>(row_offsets.size()) < remaining + 1) {
    row_offsets.resize(static_cast<size_t>(remaining + 1));
  }
  if (static_cast<int64_t>(buffers.cursors.size()) < kTileRows) {
    buffers.cursors.resize(static_cast<size_t>(kTileRows));
    buffers.sizes.resize(static_cast<size_t>(kTileRows));
  }
  row::OutputBuffer& output = buffers.output;
  int64_t& tile_target = buffers.tile_target;
  int64_t* offsets = row_offsets.data();
  offsets[0] = 0;
  auto too_large = [&](int64_t row, int64_t bytes) {
    return Status::Capacity(
        "row " + std::to_string(row) + " needs " + std::to_string(bytes) + " bytes, more than " +
        (bytes > kMaxRowBytes ? "Spark's row size limit of " + std::to_string(kMaxRowBytes)
                              : "the chunk cap of " + std::to_string(cap)));
  };
  const row::BoundColumn* bound_columns = batch.columns.data();
  const row::BoundColumn* bound_end = bound_columns + batch.columns.size();
  int64_t count = 0;  // rows of this chunk sized and written so far
  if (!layout.has_variable_size) {
    const int64_t row_bytes = fixed_row_bytes;
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
      ROWBRIDGE_RETURN_NOT_OK(
          WriteTile(first + count, count, std::min(tile_target, chunk_rows - count)));
    }
    count = chunk_rows;
  } else {
    // One tile at a time: size its rows, extend the offsets, then write it, so
    // that the tile's input and output stay in cache between the two passes.
    int64_t* tile_sizes = buffers.sizes.data();
    bool chunk_full = false;
    while (count < remaining && !chunk_full) {
      int64_t rows = std::min(tile_target, remaining - count);
      int64_t tile_first = first + count;
      if (batch.depth_first) {
        // A long tile first; when its bound does not fit (the chunk fills
        // up), a tile of the usual size; then the level-by-level writer.
        int64_t depth_first_rows = std::min(kDepthFirstTileRows, remaining - count);
        int64_t bytes = DepthFirstTileBytes(tile_first, count, depth_first_rows, cap);
        if (bytes < 0 && depth_first_rows > rows) {
          depth_first_rows = rows;
          bytes = DepthFirstTileBytes(tile_first, count, rows, cap);
        }
        if (bytes >= 0) {
          ROWBRIDGE_RETURN_NOT_OK(WriteDepthFirstTile(tile_first, count, depth_first_rows, bytes));
          count += depth_first_rows;
          continue;
        }
      }
      std::fill(tile_sizes, tile_sizes + rows, fixed_row_bytes);
      for (const row::BoundColumn* column = bound_columns; column != bound_end; ++column) {
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
      ROWBRIDGE_RETURN_NOT_OK(WriteTile(tile_first, count, rows));
      if (rows > 0) tile_target = TileRowsFor((end - start) / rows, dead_bytes > 0);
      count += rows;
    }
  }
  batch.next_row = first + count;
  out->data = output.data();
  out->row_offsets = offsets;
  out->num_rows = count;
  out->first_row = first;
  out->data_size = offsets[count];
  return Status::Ok();
}

Status Converter::State::WriteTile(int64_t batch_row, int64_t chunk_row, int64_t tile_rows) {
  const row::RowLayout& layout = *batch.layout->layout;
  const row::BoundColumn* bound_columns = batch.columns.data();
  const row::BoundColumn* bound_end = bound_columns + batch.columns.size();
  const int64_t tile_target = buffers.tile_target;
  // Ask for the input of the tiles ahead: values two tiles ahead, string
  // bytes one tile ahead (their offsets were asked for a tile earlier).
  int64_t values_ahead = batch_row + 2 * tile_target;
  int64_t data_ahead = batch_row + tile_target;
  for (const row::BoundColumn* column = bound_columns; column != bound_end; ++column) {
    row::PrefetchValues(column->input, *column->plan, values_ahead,
                        std::min(tile_target, batch.rows - values_ahead), 32);
    if (column->size != nullptr) {
      row::PrefetchStringData(column->input, *column->plan, data_ahead,
                              std::min(tile_target, batch.rows - data_ahead), 64);
    }
  }
  uint8_t* base = buffers.output.data();
  const int64_t* tile_offsets = buffers.row_offsets.data() + chunk_row;
  // Zero the tile's rows with one wide fill: it clears every null bitset and
  // brings the output lines into the cache in bulk (string instructions write
  // whole lines without first reading them), ahead of the 8-byte stores of
  // the column writers.
  std::memset(base + tile_offsets[0], 0,
              static_cast<size_t>(tile_offsets[tile_rows] - tile_offsets[0]));
  int64_t* tile_cursors = buffers.cursors.data();
  if (layout.needs_cursors) std::fill(tile_cursors, tile_cursors + tile_rows, layout.slots_end);
  row::RowSink sink{base, tile_offsets, tile_cursors, layout.slots_end};
  for (const row::BoundColumn* column = bound_columns; column != bound_end; ++column) {
    ROWBRIDGE_RETURN_NOT_OK(
        column->write(column->plan->target, column->input, batch_row, tile_rows, sink));
  }
  return Status::Ok();
}

int64_t Converter::State::DepthFirstTileBytes(int64_t batch_row, int64_t chunk_row, int64_t rows,
                                              int64_t cap) const {
  const int64_t start = buffers.row_offsets[static_cast<size_t>(chunk_row)];
  const int64_t most = row::DepthFirstTileBound(batch.layout->depth_first, batch.offset, batch_row,
                                                rows, options.validation);
  if (most < 0 || most > cap - start || most > kMaxRowBytes) return -1;
  return most;
}

Status Converter::State::WriteDepthFirstTile(int64_t batch_row, int64_t chunk_row, int64_t rows,
                                             int64_t bytes) {
  int64_t* offsets = buffers.row_offsets.data() + chunk_row;
  const int64_t start = offsets[0];
  if (!buffers.output.Reserve(start + bytes + row::kDepthFirstStoreSlack, start)) {
    return Status::OutOfMemory("cannot allocate " + std::to_string(start + bytes) +
                               " bytes of rows");
  }
  ++stats.depth_first_tiles;
  uint8_t* base = buffers.output.data();
  const row::DepthFirstPlan& depth_first = batch.layout->depth_first;
  depth_first.write(depth_first, batch.offset, batch_row, rows, base, offsets);
  // The flat columns without variable-region bytes: their slots and null bits.
  row::RowSink sink{base, offsets, buffers.cursors.data(), batch.layout->layout->slots_end};
  for (const row::BoundColumn& column : batch.columns) {
    if (column.plan->nested != nullptr || column.plan->variable_size) continue;
    ROWBRIDGE_RETURN_NOT_OK(column.write(column.plan->target, column.input, batch_row, rows, sink));
  }
  return Status::Ok();
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
  state->options = options;
  ROWBRIDGE_RETURN_NOT_OK(row::CheckNestedWriter(options.nested_writer));
  state->plan = std::move(plan);
  std::shared_ptr<const row::RowLayout> registered = state->plan->impl().layout;
  state->batch.columns.resize(registered->columns.size());
  row::ConverterLayout* entry = nullptr;
  state->AddLayout(std::move(registered), &entry);
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

bool Converter::HasMoreChunks() const { return state_->batch.next_row < state_->batch.rows; }

Status Converter::NextChunk(RowBatchView* out) {
  *out = RowBatchView();
  if (!HasMoreChunks()) {
    out->first_row = state_->batch.rows;
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

const ConverterStats& Converter::stats() const { return state_->stats; }

int64_t Converter::buffer_bytes() const {
  const State& s = *state_;
  auto bytes = [](const auto& v) { return static_cast<int64_t>(v.capacity() * sizeof(v[0])); };
  const row::RowBuffers& buffers = s.buffers;
  int64_t total = buffers.output.capacity() + bytes(buffers.row_offsets) + bytes(buffers.cursors) +
                  bytes(buffers.sizes);
  for (const auto& layout : s.layouts) {
    for (const row::ColumnScratch& scratch : layout->scratch) {
      total += bytes(scratch.gather) + bytes(scratch.validity);
      if (scratch.nested != nullptr) total += row::NodeStateBytes(scratch.nested->root);
      if (scratch.variant != nullptr) total += scratch.variant->bytes();
    }
  }
  return total;
}

}  // namespace rowbridge
