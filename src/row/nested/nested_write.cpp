// Writing a tile's nested values, one level at a time: a node writes the
// fixed parts of all its items of the tile, then each child (a struct field,
// a list's elements, a map's keys and values) is written over all of them at
// once, leaves by the flat writers (fields) or element writers (arrays), and
// nested children recursively at the positions their parents reserved.
// Variable regions are laid out in field (element) order, depth-first.
//
// The tile's rows are zero before any writer runs (see RowSink), so null
// bits are only ever set, null slots and array fixed parts left as they are.
// A dead item (null, or inside a null struct) is placed at the tile's
// scratch position, where its fields (all null) and numElements words land.
#include <algorithm>

#include "row/nested/element_placement.hpp"
#include "row/nested/nested_state.hpp"

namespace rowbridge::row {
namespace {

/// The positions of `items` items of `node`.
int64_t* TilePositions(NodeState* node, int64_t items) {
  if (node->positions.size() < static_cast<size_t>(items))
    node->positions.resize(static_cast<size_t>(items));
  return node->positions.data();
}

/// Writes struct field `field` (a nested one) of items [begin, end) of its
/// struct: the slot and null bit, and the position of each nested value.
Status WriteNestedField(NodeState* field, int64_t begin, int64_t end, const int64_t* positions,
                        int64_t* cursors, int64_t fixed_cursor, const TileContext& tile) {
  const int64_t slot_offset = field->plan->target.slot_offset;
  const NullBit null_bit = NullBitOf(field->plan->target);
  int64_t* child_positions = TilePositions(field, end - begin);
  const int64_t* item_size = field->item_size.data() + begin;
  uint8_t* const base = tile.base;
  const int64_t scratch = tile.scratch;
  const LiveBits live = field->Liveness();
  // Without a branch on nulls (see NestedWrite in nested_column.cpp).
  // (Masks, not conditionals: the compiler turns those into branches.)
  for (int64_t k = 0; k < end - begin; ++k) {
    const int64_t position = positions[k];
    uint8_t* row = base + position;
    const bool live_item = live(begin + k);
    const uint64_t valid = -static_cast<uint64_t>(live_item);
    const int64_t cursor = cursors != nullptr ? cursors[k] : fixed_cursor;
    const int64_t size = item_size[k];
    SetNullIf(row, null_bit, !live_item);
    Store64(row + slot_offset, OffsetAndSize(cursor, size) & valid);
    child_positions[k] = static_cast<int64_t>((static_cast<uint64_t>(position + cursor) & valid) |
                                              (static_cast<uint64_t>(scratch) & ~valid));
    if (cursors != nullptr) cursors[k] = cursor + size;
  }
  return WriteItems(field, begin, end, child_positions, tile);
}

Status WriteStructs(NodeState* node, int64_t begin, int64_t end, const int64_t* positions,
                    const TileContext& tile) {
  const NestedNode& plan = *node->plan;
  const int64_t count = end - begin;
  int64_t* cursors = nullptr;
  if (plan.needs_cursors) {
    if (node->cursors.size() < static_cast<size_t>(count))
      node->cursors.resize(static_cast<size_t>(count));
    cursors = node->cursors.data();
    std::fill(cursors, cursors + count, plan.fixed_bytes);
  }
  // Every large decimal or interval field takes 16 bytes, null or not, so the
  // cursor starts after the slots and each field advances it.
  RowSink sink{tile.base, positions, cursors, plan.fixed_bytes, tile.locator};
  for (NodeState& field : node->children) {
    const NestedNode& field_plan = *field.plan;
    if (field_plan.kind != NodeKind::kLeaf) {
      ROWBRIDGE_RETURN_NOT_OK(
          WriteNestedField(&field, begin, end, positions, cursors, plan.fixed_bytes, tile));
      continue;
    }
    const int gathered = field.input.gather != nullptr ? 1 : 0;
    const int all_valid = field.all_valid ? 1 : 0;
    WriteFn write = field_plan.field_writers.write[gathered][all_valid];
    if (!plan.needs_cursors &&
        field_plan.field_writers.write_alone[gathered][all_valid] != nullptr) {
      write = field_plan.field_writers.write_alone[gathered][all_valid];
    }
    ROWBRIDGE_RETURN_NOT_OK(write(field_plan.target, field.input, begin, count, sink));
  }
  return Status::Ok();
}

/// Writes the elements of `count` arrays at `positions` whose elements are
/// the candidates [first[k], first[k + 1]) of `element` (their numElements
/// words are written already, the rest of their fixed parts is zero).
Status WriteElements(NodeState* element, const int64_t* positions, const int64_t* first,
                     int64_t count, const TileContext& tile) {
  const NestedNode& plan = *element->plan;
  if (plan.kind == NodeKind::kLeaf) {
    const bool gathered = element->input.gather != nullptr;
    ElementWriteFn write = plan.element_writers.write[gathered ? 1 : 0][element->all_valid ? 1 : 0];
    return write(
        plan.target, element->input,
        ArraySink{tile.base, positions, first, count, tile.locator, element->input_validity_bytes});
  }
  const int64_t first_item = first[0];
  const int64_t end_item = first[count];
  int64_t* child_positions = TilePositions(element, end_item - first_item);
  const LiveBits live = element->Liveness();
  plan.place_elements(ElementPlacement{tile.base, positions, first, count,
                                       element->item_size.data(), live.bits, live.offset,
                                       child_positions, tile.scratch});
  return WriteItems(element, first_item, end_item, child_positions, tile);
}

/// Room for the positions (`lanes` per array) and element ranges of the
/// non-empty arrays among `count` items of a list or map `node`.
void PrepareArrays(NodeState* node, int64_t count, int lanes) {
  if (node->array_positions.size() < static_cast<size_t>(lanes * count))
    node->array_positions.resize(static_cast<size_t>(lanes * count));
  if (node->array_first.size() < static_cast<size_t>(count + 1))
    node->array_first.resize(static_cast<size_t>(count + 1));
}

/// Writes the arrays of items [begin, end) of a list or (kMap) map `node`.
/// A map is its key array's size, then a key array and a value array with
/// the same element ranges. The numElements words are written with the
/// compaction of the non-empty arrays, which alone go to their elements'
/// writers (empty and dead ones are complete). The compaction has no
/// branch: every item is stored, and the next overwrites it unless it has
/// elements.
template <bool kMap>
Status WriteArrays(NodeState* node, int64_t begin, int64_t end, const int64_t* positions,
                   const TileContext& tile) {
  const int64_t count = end - begin;
  PrepareArrays(node, count, kMap ? 2 : 1);
  int64_t* array_positions = node->array_positions.data();  // of a map's key arrays
  int64_t* value_positions = array_positions + count;       // maps
  int64_t* array_first = node->array_first.data();
  const int64_t* first = node->first.data() + begin;
  const int64_t* key_size = kMap ? node->key_size.data() + begin : nullptr;
  uint8_t* const base = tile.base;
  int64_t m = 0;
  array_first[0] = first[0];
  for (int64_t k = 0; k < count; ++k) {
    int64_t array = positions[k];
    const int64_t n = first[k + 1] - first[k];
    if constexpr (kMap) {
      Store64(base + array, static_cast<uint64_t>(key_size[k]));
      array += 8;
      const int64_t values = array + key_size[k];
      Store64(base + values, static_cast<uint64_t>(n));
      value_positions[m] = values;
    }
    Store64(base + array, static_cast<uint64_t>(n));
    array_positions[m] = array;
    m += n != 0;
    array_first[m] = first[k + 1];
  }
  if (m == 0) return Status::Ok();
  ROWBRIDGE_RETURN_NOT_OK(WriteElements(&node->children[0], array_positions, array_first, m, tile));
  if constexpr (kMap)
    return WriteElements(&node->children[1], value_positions, array_first, m, tile);
  return Status::Ok();
}

}  // namespace

Status WriteItems(NodeState* node, int64_t item_begin, int64_t item_end, const int64_t* positions,
                  const TileContext& tile) {
  if (item_end == item_begin) return Status::Ok();
  switch (node->plan->kind) {
    case NodeKind::kStruct: return WriteStructs(node, item_begin, item_end, positions, tile);
    case NodeKind::kList: return WriteArrays<false>(node, item_begin, item_end, positions, tile);
    case NodeKind::kMap: return WriteArrays<true>(node, item_begin, item_end, positions, tile);
    case NodeKind::kLeaf: break;
  }
  return Status::Internal("a leaf has no items");
}

}  // namespace rowbridge::row
