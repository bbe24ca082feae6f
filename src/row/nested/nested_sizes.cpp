// The sizes of a span's nested values, per level and bottom-up:
//   struct = bitset + 8 * fields + 16 per large decimal or interval field
//            + the fields' variable bytes;
//   array  = 8 + bitset(n) + round8(n * element size) + the elements' variable bytes;
//   map    = 8 + key array + value array.
// A level's element sizes are computed for all its candidates at once, then
// summed per parent (segmented sums over the parents' element ranges).
#include <algorithm>

#include "row/nested/nested_state.hpp"
#include "row/prefetch.hpp"

namespace rowbridge::row {
namespace {

/// Larger than any row may be, small enough that sums of it cannot overflow.
constexpr int64_t kMaxItemBytes = int64_t{1} << 32;

/// Adds the size of each item of `node` to the entry of its candidate.
void AddItemSizes(const NodeState& node, int64_t* sizes) {
  // Locals: the stores may alias the node, and would reload its fields.
  const int64_t* item_size = node.item_size.data();
  const int64_t count = node.count;
  for (int64_t c = 0; c < count; ++c) sizes[c] += item_size[c];
}

/// `live_bytes` for a live item, 0 for a dead one.
inline int64_t IfLive(LiveBits live, int64_t c, int64_t live_bytes) {
  return live_bytes & -static_cast<int64_t>(live(c));
}

/// The live items of `node` for the sizing kernels.
inline LiveItems LiveItemsOf(const NodeState& node) {
  const LiveBits live = node.Liveness();
  return LiveItems{live.bits, live.offset};
}

/// Starts loading the string bytes of a plain string or binary leaf's
/// candidates: they are written a tile at a time after the span is sized,
/// and their first read would otherwise wait for memory.
void PrefetchStrings(const NodeState& node) {
  const ColumnInput& input = node.input;
  if (input.gather != nullptr) return;
  int64_t offset_width = 0;
  switch (node.plan->value_type.id) {
    case ArrowTypeId::kUtf8:
    case ArrowTypeId::kBinary: offset_width = 4; break;
    case ArrowTypeId::kLargeUtf8:
    case ArrowTypeId::kLargeBinary: offset_width = 8; break;
    default: return;
  }
  PrefetchOffsetData(input.values, input.data, offset_width, input.offset, node.count, 1024);
}

/// Adds the variable-region bytes of every candidate of `child` (a field or
/// an element) to `sizes`.
Status AddVariableSizes(NodeState* child, NestedColumnState* column, const SizeFn* size_fns,
                        int64_t* sizes) {
  if (child->plan->kind != NodeKind::kLeaf) {
    ROWBRIDGE_RETURN_NOT_OK(ComputeSizes(child, column));
    AddItemSizes(*child, sizes);
    return Status::Ok();
  }
  SizeFn size = size_fns[child->all_valid ? 1 : 0];
  if (size == nullptr) return Status::Ok();
  PrefetchStrings(*child);
  int64_t bad = size(child->input, 0, child->count, sizes);
  if (bad >= 0)
    return CandidateError(child, bad, *column, "offsets decrease (negative value length)");
  return Status::Ok();
}

const SizeFn* FieldSizeFns(const NodeState& node) {
  return node.plan->field_writers.size[node.input.gather != nullptr ? 1 : 0];
}

const SizeFn* ElementSizeFns(const NodeState& node) {
  return node.plan->element_writers.size[node.input.gather != nullptr ? 1 : 0];
}

bool HasElementBytes(const NodeState& element) {
  return element.plan->kind != NodeKind::kLeaf || ElementSizeFns(element)[0] != nullptr;
}

/// Sets `sizes` (total + 1 entries) to the prefix sums of the padded lengths
/// of `leaf`'s `total` values in one pass, when it is a plain string or
/// binary leaf with 32-bit offsets and every length is non-negative; else
/// returns false (the leaf's size pass then adds its sizes, or names a
/// negative length).
bool PaddedLengthPrefix(const NodeState& leaf, int64_t total, const SizeKernels& kernels,
                        int64_t* sizes) {
  const ColumnInput& input = leaf.input;
  const ArrowTypeId id = leaf.plan->value_type.id;
  if (input.gather != nullptr || (id != ArrowTypeId::kUtf8 && id != ArrowTypeId::kBinary))
    return false;
  PrefetchStrings(leaf);
  PaddedLengths lengths;
  lengths.offsets = input.values + input.offset * 4;
  lengths.count = total;
  lengths.live = LiveItemsOf(leaf);
  lengths.out = sizes;
  return kernels.padded_length_scan(lengths);
}

/// Sets `array_size[j]` to the size of the array of item j's elements of
/// `element` (a list's element, a map's key or value).
Status SizeArrays(NodeState* node, NodeState* element, NestedColumnState* column,
                  int64_t* array_size) {
  const int64_t items = node->count;
  const SizeKernels& kernels = *node->plan->size_kernels;
  ArraySizing sizing;
  sizing.first = node->first.data();
  sizing.count = items;
  sizing.element_size = element->plan->element_size;
  sizing.live = LiveItemsOf(*node);
  sizing.out = array_size;
  if (!HasElementBytes(*element)) {
    kernels.array_sizes(sizing);
    return Status::Ok();
  }
  const int64_t total = sizing.first[items];
  if (node->element_sizes.size() < static_cast<size_t>(total + 1)) {
    node->element_sizes.resize(static_cast<size_t>(total + 1));
  }
  int64_t* sizes = node->element_sizes.data();
  // Segmented sums as differences of one exclusive prefix sum, taken of the
  // nested elements' item sizes directly, of a plain string child's padded
  // lengths in one pass, or else of the leaf sizes (which a SizeFn adds to
  // zeros).
  if (element->plan->kind != NodeKind::kLeaf) {
    ROWBRIDGE_RETURN_NOT_OK(ComputeSizes(element, column));
    kernels.exclusive_scan(element->item_size.data(), sizes, total);
  } else if (!PaddedLengthPrefix(*element, total, kernels, sizes)) {
    std::fill(sizes, sizes + total, int64_t{0});
    ROWBRIDGE_RETURN_NOT_OK(AddVariableSizes(element, column, ElementSizeFns(*element), sizes));
    kernels.exclusive_scan(sizes, sizes, total);
  }
  sizing.prefix = sizes;
  sizing.limit = kMaxItemBytes;
  kernels.array_sizes(sizing);
  return Status::Ok();
}

Status SizeStructs(NodeState* node, NestedColumnState* column) {
  const NestedNode& plan = *node->plan;
  int64_t* item_size = node->item_size.data();
  const int64_t count = node->count;
  const SizeKernels& kernels = *plan.size_kernels;
  kernels.fill_live(item_size, count, plan.fixed_bytes + plan.constant_bytes, LiveItemsOf(*node));
  // A dead struct's fields are null (their validity includes the struct's),
  // so they add nothing to its 0.
  for (NodeState& field : node->children) {
    ROWBRIDGE_RETURN_NOT_OK(AddVariableSizes(&field, column, FieldSizeFns(field), item_size));
  }
  kernels.clamp(item_size, count, kMaxItemBytes);
  return Status::Ok();
}

Status SizeMaps(NodeState* node, NestedColumnState* column) {
  const int64_t items = node->count;
  if (node->key_size.size() < static_cast<size_t>(items))
    node->key_size.resize(static_cast<size_t>(items));
  int64_t* key_size = node->key_size.data();
  int64_t* item_size = node->item_size.data();
  ROWBRIDGE_RETURN_NOT_OK(SizeArrays(node, &node->children[0], column, key_size));
  ROWBRIDGE_RETURN_NOT_OK(SizeArrays(node, &node->children[1], column, item_size));
  const LiveBits live = node->Liveness();
  // A dead map's arrays are 0 bytes (SizeArrays), and so is the map.
  for (int64_t j = 0; j < items; ++j)
    item_size[j] = IfLive(live, j, std::min(8 + key_size[j] + item_size[j], kMaxItemBytes));
  return Status::Ok();
}

}  // namespace

Status ComputeSizes(NodeState* node, NestedColumnState* column) {
  const int64_t items = node->count;
  // One entry of slack: branch-free loops read the entry after the last item.
  if (node->item_size.size() < static_cast<size_t>(items + 1))
    node->item_size.resize(static_cast<size_t>(items + 1));
  switch (node->plan->kind) {
    case NodeKind::kLeaf: return Status::Ok();
    case NodeKind::kStruct: return SizeStructs(node, column);
    case NodeKind::kList:
      return SizeArrays(node, &node->children[0], column, node->item_size.data());
    case NodeKind::kMap: return SizeMaps(node, column);
  }
  return Status::Internal("unknown node kind");
}

}  // namespace rowbridge::row
