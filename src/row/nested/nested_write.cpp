// Writing a tile's nested values, one level at a time: a node writes the
// fixed parts of all its items of the tile, then each child (a struct field,
// a list's elements, a map's keys and values) is written over all of them at
// once, leaves by the flat writers (fields) or element writers (arrays), and
// nested children recursively at the positions their parents reserved.
// Variable regions are laid out in field (element) order, depth-first.
//
// The tile's rows are zero before any writer runs (see RowSink), so null
// bits are only ever set, null slots and array fixed parts left as they are.
#include <algorithm>

#include "row/nested/nested_state.hpp"

namespace rowbridge::row {
namespace {

/// The positions of `items` items of `node`, and a spare entry that
/// branch-free loops write for a null.
int64_t* TilePositions(NodeState* node, int64_t items) {
  if (node->positions.size() < static_cast<size_t>(items + 1))
    node->positions.resize(static_cast<size_t>(items + 1));
  return node->positions.data();
}

/// Writes struct field `field` (a nested one) of items [begin, end) of its
/// struct: the slot and null bit, and the position of each nested value.
Status WriteNestedField(NodeState* field, int64_t begin, int64_t end, const int64_t* positions,
                        int64_t* cursors, int64_t fixed_cursor, const TileContext& tile) {
  const int64_t slot_offset = field->plan->target.slot_offset;
  const NullBit null_bit = NullBitOf(field->plan->target);
  const int64_t first_item = field->Rank(begin);
  const int64_t end_item = field->Rank(end);
  int64_t* child_positions = TilePositions(field, end_item - first_item);
  const int64_t* item_size = field->item_size.data() + first_item;
  const int64_t* rank = field->identity ? nullptr : field->rank.data() + begin;
  uint8_t* const base = tile.base;
  // Without a branch on nulls (see NestedWrite in nested_column.cpp).
  int64_t item = 0;
  for (int64_t k = 0; k < end - begin; ++k) {
    uint8_t* row = base + positions[k];
    const bool valid = rank == nullptr || rank[k + 1] != rank[k];
    const int64_t cursor = cursors != nullptr ? cursors[k] : fixed_cursor;
    const int64_t size = item_size[item] & -static_cast<int64_t>(valid);
    SetNullIf(row, null_bit, !valid);
    Store64(row + slot_offset, valid ? OffsetAndSize(cursor, size) : 0);
    child_positions[item] = positions[k] + cursor;
    if (cursors != nullptr) cursors[k] = cursor + size;
    item += valid;
  }
  return WriteItems(field, first_item, end_item, child_positions, tile);
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

/// Writes the numElements word of each array (the rest of its fixed part
/// is zero until the elements are written).
void StartArrays(const int64_t* positions, const int64_t* first, int64_t count,
                 const TileContext& tile) {
  for (int64_t k = 0; k < count; ++k)
    Store64(tile.base + positions[k], static_cast<uint64_t>(first[k + 1] - first[k]));
}

/// Writes the slots of nested elements (offset and size, or a null bit) and
/// the positions of the valid ones, for `count` arrays.
void PlaceNestedElements(const NodeState& element, const int64_t* positions, const int64_t* first,
                         int64_t count, int64_t first_item, int64_t* child_positions,
                         const TileContext& tile) {
  const int64_t* item_size = element.item_size.data() + first_item;
  const int64_t* ranks = element.identity ? nullptr : element.rank.data();
  uint8_t* const base = tile.base;
  int64_t item = 0;
  for (int64_t k = 0; k < count; ++k) {
    const int64_t n = first[k + 1] - first[k];
    const int64_t array_position = positions[k];  // a local: stores may alias `positions`
    uint8_t* array = base + array_position;
    uint8_t* slots = array + ArrayHeaderBytes(n);
    int64_t cursor = ArrayFixedBytes(n, 8);
    if (ranks == nullptr) {
      for (int64_t e = 0; e < n; ++e, ++item) {
        int64_t size = item_size[item];
        Store64(slots + 8 * e, OffsetAndSize(cursor, size));
        child_positions[item] = array_position + cursor;
        cursor += size;
      }
      continue;
    }
    // Without a branch on null elements: their null bits gather in a word,
    // stored every 64 elements and after the last; a null's position is
    // overwritten by the next item's (spare entries, see TilePositions).
    const int64_t* rank = ranks + first[k];
    uint64_t nulls = 0;
    for (int64_t e = 0; e < n; ++e) {
      const bool valid = rank[e + 1] != rank[e];
      const int64_t size = item_size[item] & -static_cast<int64_t>(valid);
      Store64(slots + 8 * e, valid ? OffsetAndSize(cursor, size) : 0);
      child_positions[item] = array_position + cursor;
      nulls |= static_cast<uint64_t>(!valid) << (e & 63);
      if ((e & 63) == 63) {
        Store64(array + 8 + (e >> 6) * 8, nulls);
        nulls = 0;
      }
      cursor += size;
      item += valid;
    }
    if ((n & 63) != 0) Store64(array + 8 + (n >> 6) * 8, nulls);
  }
}

/// Writes the elements of `count` arrays at `positions` whose elements are
/// the candidates [first[k], first[k + 1]) of `element`.
Status WriteElements(NodeState* element, const int64_t* positions, const int64_t* first,
                     int64_t count, const TileContext& tile) {
  const NestedNode& plan = *element->plan;
  StartArrays(positions, first, count, tile);
  if (plan.kind == NodeKind::kLeaf) {
    const bool gathered = element->input.gather != nullptr;
    ElementWriteFn write = plan.element_writers.write[gathered ? 1 : 0][element->all_valid ? 1 : 0];
    return write(plan.target, element->input,
                 ArraySink{tile.base, positions, first, count, tile.locator,
                           gathered ? 0 : element->validity_bytes});
  }
  const int64_t first_item = element->Rank(first[0]);
  const int64_t end_item = element->Rank(first[count]);
  int64_t* child_positions = TilePositions(element, end_item - first_item);
  PlaceNestedElements(*element, positions, first, count, first_item, child_positions, tile);
  return WriteItems(element, first_item, end_item, child_positions, tile);
}

Status WriteMaps(NodeState* node, int64_t begin, int64_t end, const int64_t* positions,
                 const TileContext& tile) {
  const int64_t count = end - begin;
  if (node->value_positions.size() < static_cast<size_t>(2 * count)) {
    node->value_positions.resize(static_cast<size_t>(2 * count));
  }
  int64_t* key_positions = node->value_positions.data();
  int64_t* value_positions = key_positions + count;
  const int64_t* key_size = node->key_size.data() + begin;
  for (int64_t k = 0; k < count; ++k) {
    Store64(tile.base + positions[k], static_cast<uint64_t>(key_size[k]));
    key_positions[k] = positions[k] + 8;
    value_positions[k] = positions[k] + 8 + key_size[k];
  }
  const int64_t* first = node->first.data() + begin;
  ROWBRIDGE_RETURN_NOT_OK(WriteElements(&node->children[0], key_positions, first, count, tile));
  return WriteElements(&node->children[1], value_positions, first, count, tile);
}

}  // namespace

Status WriteItems(NodeState* node, int64_t item_begin, int64_t item_end, const int64_t* positions,
                  const TileContext& tile) {
  if (item_end == item_begin) return Status::Ok();
  switch (node->plan->kind) {
    case NodeKind::kStruct: return WriteStructs(node, item_begin, item_end, positions, tile);
    case NodeKind::kList:
      return WriteElements(&node->children[0], positions, node->first.data() + item_begin,
                           item_end - item_begin, tile);
    case NodeKind::kMap: return WriteMaps(node, item_begin, item_end, positions, tile);
    case NodeKind::kLeaf: break;
  }
  return Status::Internal("a leaf has no items");
}

}  // namespace rowbridge::row
