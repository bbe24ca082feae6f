// A top-level struct, list or map column as one more column kind of the
// batch driver: binding checks the whole node tree; the size function
// expands spans of rows and adds each row's value size; the write function
// stores each row's slot and writes the tile's nested values.
#include "row/nested/nested_column.hpp"

#include <algorithm>

#include "row/column_access.hpp"
#include "row/nested/nested_state.hpp"

namespace rowbridge::row {
namespace {

int64_t NestedSize(const ColumnInput& input, int64_t row_begin, int64_t num_rows, int64_t* sizes) {
  NestedColumnState* state = input.nested;
  if (!state->Covers(row_begin, num_rows)) {
    Status status = state->Expand(row_begin, num_rows);
    if (!status.ok()) {
      state->error = std::move(status);
      return row_begin;
    }
  }
  const int64_t* item_size = state->root.item_size.data() + (row_begin - state->span_begin);
  for (int64_t k = 0; k < num_rows; ++k) sizes[k] += item_size[k];
  return -1;
}

template <bool kAlone>
Status NestedWrite(const ColumnTarget& target, const ColumnInput& input, int64_t row_begin,
                   int64_t num_rows, const RowSink& sink) {
  NestedColumnState* state = input.nested;
  if (!state->Covers(row_begin, num_rows))
    ROWBRIDGE_RETURN_NOT_OK(state->Expand(row_begin, num_rows));
  NodeState& root = state->root;
  const int64_t first = row_begin - state->span_begin;
  if (root.positions.size() < static_cast<size_t>(num_rows))
    root.positions.resize(static_cast<size_t>(num_rows));
  // Locals, not members: stores into rows may alias anything in memory.
  int64_t* positions = root.positions.data();
  const int64_t* item_size = root.item_size.data() + first;
  const RowSink local = sink;
  const int64_t slot_offset = target.slot_offset;
  const NullBit null_bit = NullBitOf(target);
  // Dead values go past the tile's rows (the converter reserves dead_bytes there).
  const int64_t scratch = local.row_offsets[num_rows];
  const LiveBits live = root.Liveness();
  if (live.bits == nullptr) {
    for (int64_t k = 0; k < num_rows; ++k) {
      const int64_t cursor = CursorOf<kAlone>(local, k);
      const int64_t size = item_size[k];
      Store64(local.base + local.row_offsets[k] + slot_offset, OffsetAndSize(cursor, size));
      positions[k] = local.row_offsets[k] + cursor;
      AdvanceCursor<kAlone>(local, k, cursor + size);
    }
  } else {
    // Without a branch on nulls: a null row gets a zero slot (the row is zero
    // already, see RowSink), its value (size 0) the scratch; the null bits
    // are set afterwards, for the nulls alone.
    for (int64_t k = 0; k < num_rows; ++k) {
      const int64_t row = local.row_offsets[k];
      const uint64_t valid = -static_cast<uint64_t>(live(first + k));
      const int64_t cursor = CursorOf<kAlone>(local, k);
      const int64_t size = item_size[k];
      Store64(local.base + row + slot_offset, OffsetAndSize(cursor, size) & valid);
      positions[k] = static_cast<int64_t>((static_cast<uint64_t>(row + cursor) & valid) |
                                          (static_cast<uint64_t>(scratch) & ~valid));
      AdvanceCursor<kAlone>(local, k, cursor + size);
    }
    SetNullBits(root.input, first, num_rows, local, null_bit);
  }
  RowLocator locator{sink.row_offsets, num_rows, row_begin};
  return WriteItems(&root, first, first + num_rows, positions,
                    TileContext{sink.base, &locator, scratch});
}

}  // namespace

WriterSet NestedColumnWriters() {
  WriterSet set;
  for (int g = 0; g < 2; ++g) {
    for (int v = 0; v < 2; ++v) {
      set.write[g][v] = &NestedWrite<false>;
      set.write_alone[g][v] = &NestedWrite<true>;
      set.size[g][v] = &NestedSize;
    }
  }
  return set;
}

Status BindNestedColumn(const ColumnPlan& plan, const ArrowArray& array, int64_t batch_offset,
                        int64_t num_rows, Validation validation, ColumnScratch* scratch,
                        ColumnInput* input, bool* all_valid) {
  if (scratch->nested == nullptr || scratch->nested->plan != plan.nested) {
    auto state = std::make_shared<NestedColumnState>();
    state->plan = plan.nested;
    InitNodeState(*plan.nested, nullptr, &state->root);
    scratch->nested = std::move(state);
  }
  NestedColumnState* state = scratch->nested.get();
  state->validation = validation;
  state->batch_offset = batch_offset;
  state->batch_rows = num_rows;
  state->span_begin = 0;
  state->span_end = 0;
  state->error = Status::Ok();
  ROWBRIDGE_RETURN_NOT_OK(BindNode(&state->root, array, batch_offset + num_rows, validation));
  *input = ColumnInput();
  input->nested = state;
  *all_valid = false;
  return Status::Ok();
}

Status NestedSizeError(const ColumnInput& input) {
  if (input.nested != nullptr && !input.nested->error.ok()) return input.nested->error;
  return Status::Internal("a nested column failed to size its rows without an error");
}

}  // namespace rowbridge::row
