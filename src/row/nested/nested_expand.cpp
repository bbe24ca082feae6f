// Expanding a span of a nested column level by level: a node's candidates
// are resolved, its valid ones become items, and the items' children become
// the next level's candidates. List ranges are checked against the child's
// length here, where they are dereferenced, so corrupt offsets are reported
// with their row and never read out of bounds.
#include <algorithm>
#include <cstring>

#include "row/nested/node_resolve.hpp"

namespace rowbridge::row {
namespace {

/// Spark's largest array (UnsafeArrayData's element count is an int).
constexpr int64_t kMaxArrayElements = (int64_t{1} << 31) - 16;
/// Rows are expanded this many at a time (a few tiles of the driver).
constexpr int64_t kSpanRows = 512;

template <typename T>
int64_t LoadIndex(const uint8_t* buffer, int64_t i) {
  T v;
  std::memcpy(&v, buffer + i * static_cast<int64_t>(sizeof(T)), sizeof(T));
  return static_cast<int64_t>(v);
}

/// Makes the valid candidates of `node` its items.
void CollectItems(NodeState* node) {
  const ColumnInput& input = node->input;
  const int64_t count = node->count;
  if (node->all_valid && input.gather == nullptr) {
    node->identity = true;
    node->item_base = input.offset;
    node->num_items = count;
    return;
  }
  node->identity = false;
  if (node->rank.size() < static_cast<size_t>(count + 1))
    node->rank.resize(static_cast<size_t>(count + 1));
  if (node->item_index.size() < static_cast<size_t>(count))
    node->item_index.resize(static_cast<size_t>(count));
  int64_t* rank = node->rank.data();
  int64_t* items = node->item_index.data();
  const int64_t* gather = input.gather;
  const uint8_t* validity = node->all_valid ? nullptr : input.validity;
  const int64_t validity_offset = input.validity_offset;
  const int64_t offset = input.offset;
  int64_t j = 0;
  for (int64_t c = 0; c < count; ++c) {
    rank[c] = j;
    items[j] = gather != nullptr ? gather[c] : offset + c;
    j += (validity == nullptr || GetBit(validity, validity_offset + c)) ? 1 : 0;
  }
  rank[count] = j;
  node->num_items = j;
}

/// The start and length of item j's elements.
template <ListLayout kLayout>
struct Range {
  static void Get(const NodeState& node, int64_t p, int64_t* start, int64_t* length) {
    if constexpr (kLayout == ListLayout::kOffsets32 || kLayout == ListLayout::kOffsets64) {
      using T = std::conditional_t<kLayout == ListLayout::kOffsets32, int32_t, int64_t>;
      *start = LoadIndex<T>(node.list_offsets, p);
      // Wrapping: corrupt offsets must not overflow; OutOfRange rejects them.
      *length = static_cast<int64_t>(static_cast<uint64_t>(LoadIndex<T>(node.list_offsets, p + 1)) -
                                     static_cast<uint64_t>(*start));
    } else if constexpr (kLayout == ListLayout::kViews32 || kLayout == ListLayout::kViews64) {
      using T = std::conditional_t<kLayout == ListLayout::kViews32, int32_t, int64_t>;
      *start = LoadIndex<T>(node.list_offsets, p);
      *length = LoadIndex<T>(node.list_sizes, p);
    } else {
      *start = p * node.plan->list_size;
      *length = node.plan->list_size;
    }
  }
};

/// True when [start, start + length) is not inside [0, limit) or is longer
/// than a Spark array may be.
inline bool OutOfRange(int64_t start, int64_t length, int64_t limit) {
  uint64_t s = static_cast<uint64_t>(start);
  uint64_t n = static_cast<uint64_t>(length);
  uint64_t l = static_cast<uint64_t>(limit);
  return (s > l) | (n > static_cast<uint64_t>(kMaxArrayElements)) | (n > l - s);
}

int64_t ItemCandidate(const NodeState* node, int64_t j) {
  if (node->identity) return j;
  const int64_t* rank = node->rank.data();
  return std::upper_bound(rank, rank + node->count + 1, j) - rank - 1;
}

/// Sets the element ranges of every item (first[]) and returns the
/// elements' candidates in `*out`.
template <ListLayout kLayout>
Status ExpandRanges(NodeState* node, const NestedColumnState& column, int64_t logical_base,
                    Candidates* out) {
  const int64_t items = node->num_items;
  if (node->first.size() < static_cast<size_t>(items + 1))
    node->first.resize(static_cast<size_t>(items + 1));
  int64_t* first = node->first.data();
  first[0] = 0;
  const int64_t limit = node->element_length;
  int64_t first_start = 0;
  int64_t expected = 0;
  bool contiguous = true;
  bool bad = false;
  for (int64_t j = 0; j < items; ++j) {
    int64_t start;
    int64_t length;
    Range<kLayout>::Get(*node, node->ItemIndex(j), &start, &length);
    if (j == 0) first_start = expected = start;
    bool out_of_range = OutOfRange(start, length, limit);
    bad |= out_of_range;
    length = out_of_range ? 0 : length;
    contiguous &= start == expected;
    expected = start + length;
    first[j + 1] = first[j] + length;
  }
  if (bad) {
    for (int64_t j = 0; j < items; ++j) {
      int64_t start;
      int64_t length;
      Range<kLayout>::Get(*node, node->ItemIndex(j), &start, &length);
      if (OutOfRange(start, length, limit)) {
        return CandidateError(
            node, ItemCandidate(node, j), column,
            length < 0
                ? "corrupt list offsets: negative length " + std::to_string(length)
                : "list elements [" + std::to_string(start) + ", +" + std::to_string(length) +
                      ") are outside the " + std::to_string(limit) + " child values");
      }
    }
  }
  const int64_t total = first[items];
  *out = Candidates{total, logical_base + first_start, nullptr};
  if (contiguous) return Status::Ok();
  if (node->element_indices.size() < static_cast<size_t>(total)) {
    node->element_indices.resize(static_cast<size_t>(total));
  }
  int64_t* indices = node->element_indices.data();
  for (int64_t j = 0; j < items; ++j) {
    int64_t start;
    int64_t length;
    Range<kLayout>::Get(*node, node->ItemIndex(j), &start, &length);
    int64_t* dst = indices + first[j];
    for (int64_t e = 0; e < length; ++e) dst[e] = logical_base + start + e;
  }
  out->indices = indices;
  return Status::Ok();
}

Status ElementCandidates(NodeState* node, const NestedColumnState& column, Candidates* out) {
  int64_t base = node->plan->kind == NodeKind::kMap ? node->entries_offset : 0;
  switch (node->plan->layout) {
    case ListLayout::kOffsets32:
      return ExpandRanges<ListLayout::kOffsets32>(node, column, base, out);
    case ListLayout::kOffsets64:
      return ExpandRanges<ListLayout::kOffsets64>(node, column, base, out);
    case ListLayout::kFixedSize:
      return ExpandRanges<ListLayout::kFixedSize>(node, column, base, out);
    case ListLayout::kViews32: return ExpandRanges<ListLayout::kViews32>(node, column, base, out);
    case ListLayout::kViews64: return ExpandRanges<ListLayout::kViews64>(node, column, base, out);
  }
  return Status::Internal("unknown list layout");
}

}  // namespace

Status ExpandNode(NodeState* node, const Candidates& candidates, NestedColumnState* column) {
  ROWBRIDGE_RETURN_NOT_OK(ResolveCandidates(node, candidates, *column));
  const NestedNode& plan = *node->plan;
  if (plan.kind == NodeKind::kLeaf) return Status::Ok();
  CollectItems(node);
  if (plan.kind == NodeKind::kStruct) {
    Candidates fields{node->num_items, node->identity ? node->item_base : 0,
                      node->identity ? nullptr : node->item_index.data()};
    for (NodeState& child : node->children)
      ROWBRIDGE_RETURN_NOT_OK(ExpandNode(&child, fields, column));
    return Status::Ok();
  }
  Candidates elements;
  ROWBRIDGE_RETURN_NOT_OK(ElementCandidates(node, *column, &elements));
  for (NodeState& child : node->children)
    ROWBRIDGE_RETURN_NOT_OK(ExpandNode(&child, elements, column));
  return Status::Ok();
}

int64_t RowOfCandidate(const NodeState* node, int64_t c, const NestedColumnState& column) {
  for (const NodeState* parent = node->parent; parent != nullptr;
       node = parent, parent = node->parent) {
    int64_t item = c;
    if (parent->plan->kind != NodeKind::kStruct) {
      const int64_t* first = parent->first.data();
      item = std::upper_bound(first, first + parent->num_items + 1, c) - first - 1;
    }
    c = ItemCandidate(parent, item);
  }
  return column.span_begin + c;
}

Status CandidateError(const NodeState* node, int64_t c, const NestedColumnState& column,
                      const std::string& message) {
  return Status::Invalid("column '" + node->plan->path + "' row " +
                         std::to_string(RowOfCandidate(node, c, column)) + ": " + message);
}

Status NestedColumnState::Expand(int64_t row, int64_t rows) {
  rows = std::min(std::max(rows, kSpanRows), batch_rows - row);
  span_begin = row;
  span_end = row;
  ROWBRIDGE_RETURN_NOT_OK(ExpandNode(&root, Candidates{rows, batch_offset + row, nullptr}, this));
  ROWBRIDGE_RETURN_NOT_OK(ComputeSizes(&root, this));
  span_end = row + rows;
  return Status::Ok();
}

}  // namespace rowbridge::row
