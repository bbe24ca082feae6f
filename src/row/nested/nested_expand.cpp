// Expanding a span of a nested column level by level: a node's candidates
// are resolved, each is an item, and the items' children become the next
// level's candidates (a dead list or map has no elements). List ranges are checked against the
// child's length here, where they are dereferenced, so corrupt offsets are reported with their row
// and never read out of bounds.
#include <algorithm>
#include <cstring>

#include "arrow/bits.hpp"
#include "row/nested/node_resolve.hpp"

namespace rowbridge::row {
namespace {

/// Spark's largest array (UnsafeArrayData's element count is an int).
constexpr int64_t kMaxArrayElements = (int64_t{1} << 31) - 16;
/// Rows are expanded this many at a time (a few tiles of the driver).
constexpr int64_t kSpanRows = 512;

/// Where a list-like node's ranges are, copied out of the node so that
/// loops storing int64 values keep them in registers.
struct ListRanges {
  const uint8_t* offsets;
  const uint8_t* sizes;
  int64_t list_size;
  const int64_t* gather;  // the node's input: candidate c is gather[c] or offset + c
  int64_t offset;

  explicit ListRanges(const NodeState& node)
      : offsets(node.list_offsets),
        sizes(node.list_sizes),
        list_size(node.plan->list_size),
        gather(node.input.gather),
        offset(node.input.offset) {}

  /// The start and length of the elements of candidate c.
  template <ListLayout kLayout>
  void Get(int64_t c, int64_t* start, int64_t* length) const {
    const int64_t p = gather != nullptr ? gather[c] : offset + c;
    if constexpr (kLayout == ListLayout::kOffsets32 || kLayout == ListLayout::kOffsets64) {
      using T = std::conditional_t<kLayout == ListLayout::kOffsets32, int32_t, int64_t>;
      *start = LoadElement<T>(offsets, p);
      // Wrapping: corrupt offsets must not overflow; OutOfRange rejects them.
      *length = static_cast<int64_t>(static_cast<uint64_t>(LoadElement<T>(offsets, p + 1)) -
                                     static_cast<uint64_t>(*start));
    } else if constexpr (kLayout == ListLayout::kViews32 || kLayout == ListLayout::kViews64) {
      using T = std::conditional_t<kLayout == ListLayout::kViews32, int32_t, int64_t>;
      *start = LoadElement<T>(offsets, p);
      *length = LoadElement<T>(sizes, p);
    } else {
      *start = p * list_size;
      *length = list_size;
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

/// Sets the element ranges of every item (first[]) and returns the
/// elements' candidates in `*out`.
template <ListLayout kLayout>
Status ExpandRanges(NodeState* node, const NestedColumnState& column, int64_t logical_base,
                    Candidates* out) {
  const int64_t items = node->count;
  if (node->first.size() < static_cast<size_t>(items + 1))
    node->first.resize(static_cast<size_t>(items + 1));
  int64_t* first = node->first.data();
  first[0] = 0;
  const int64_t limit = node->element_length;
  int64_t expected = -1;  // where the next non-empty list must start; -1: anywhere
  bool contiguous = true;
  bool bad = false;
  const ListRanges ranges(*node);
  const LiveBits live = node->Liveness();
  constexpr bool kOffsets = kLayout == ListLayout::kOffsets32 || kLayout == ListLayout::kOffsets64;
  if (kOffsets && ranges.gather == nullptr) {
    // Consecutive lists by offsets: one list ends where the next starts, so
    // the elements are contiguous unless a dropped (dead or corrupt) list
    // had some. 32-bit offsets take the plan's kernel set.
    constexpr int64_t kWidth = kLayout == ListLayout::kOffsets32 ? 4 : 8;
    OffsetRanges pass;
    pass.offsets = ranges.offsets + ranges.offset * kWidth;
    pass.count = items;
    pass.live = LiveItems{live.bits, live.offset};
    pass.limit = limit;
    pass.max_length = kMaxArrayElements;
    pass.first = first;
    const RangesFound found = kLayout == ListLayout::kOffsets32
                                  ? node->plan->size_kernels->offset_ranges(pass)
                                  : OffsetRanges64(pass);
    bad = found.out_of_range;
    contiguous = !found.dropped;
  } else {
    // Without branches: nulls (a dead list has no elements, whatever its
    // range says) and empty lists are common and unpredictable.
    for (int64_t j = 0; j < items; ++j) {
      int64_t start;
      int64_t length;
      ranges.Get<kLayout>(j, &start, &length);
      const bool is_live = live(j);
      const bool out_of_range = is_live & OutOfRange(start, length, limit);
      bad |= out_of_range;
      length &= -static_cast<int64_t>(is_live & !out_of_range);
      const bool empty = length == 0;
      contiguous &= empty | (start == expected) | (expected < 0);
      // Unsigned: a corrupt (hence empty) range may hold any start.
      const uint64_t step = static_cast<uint64_t>(start) + static_cast<uint64_t>(length) -
                            static_cast<uint64_t>(expected);
      expected = static_cast<int64_t>(static_cast<uint64_t>(expected) +
                                      (step & -static_cast<uint64_t>(!empty)));
      first[j + 1] = first[j] + length;
    }
  }
  if (bad) {
    for (int64_t j = 0; j < items; ++j) {
      int64_t start;
      int64_t length;
      ranges.Get<kLayout>(j, &start, &length);
      if (live(j) && OutOfRange(start, length, limit)) {
        return CandidateError(
            node, j, column,
            length < 0
                ? "corrupt list offsets: negative length " + std::to_string(length)
                : "list elements [" + std::to_string(start) + ", +" + std::to_string(length) +
                      ") are outside the " + std::to_string(limit) + " child values");
      }
    }
  }
  const int64_t total = first[items];
  int64_t first_start = 0;
  for (int64_t j = 0; j < items; ++j) {
    if (first[j + 1] == first[j]) continue;
    int64_t length;
    ranges.Get<kLayout>(j, &first_start, &length);
    break;
  }
  *out = Candidates{total, logical_base + first_start, nullptr};
  if (contiguous) return Status::Ok();
  if (node->element_indices.size() < static_cast<size_t>(total)) {
    node->element_indices.resize(static_cast<size_t>(total));
  }
  int64_t* indices = node->element_indices.data();
  for (int64_t j = 0; j < items; ++j) {
    int64_t start;
    int64_t length;
    ranges.Get<kLayout>(j, &start, &length);
    length = first[j + 1] - first[j];
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

Status ExpandNode(NodeState* node, const Candidates& candidates, const CandidateMask& mask,
                  NestedColumnState* column) {
  ROWBRIDGE_RETURN_NOT_OK(ResolveCandidates(node, candidates, mask, *column));
  const NestedNode& plan = *node->plan;
  if (plan.kind == NodeKind::kLeaf) return Status::Ok();
  if (plan.kind == NodeKind::kStruct) {
    // The fields' candidates are the struct's own, at its physical indices.
    const ColumnInput& input = node->input;
    Candidates fields{node->count, input.gather == nullptr ? input.offset : 0, input.gather};
    CandidateMask live;
    if (!node->all_valid)
      live = {input.validity, input.validity_offset, node->input_validity_bytes};
    for (NodeState& child : node->children)
      ROWBRIDGE_RETURN_NOT_OK(ExpandNode(&child, fields, live, column));
    return Status::Ok();
  }
  Candidates elements;
  ROWBRIDGE_RETURN_NOT_OK(ElementCandidates(node, *column, &elements));
  for (NodeState& child : node->children)
    ROWBRIDGE_RETURN_NOT_OK(ExpandNode(&child, elements, CandidateMask(), column));
  return Status::Ok();
}

int64_t RowOfCandidate(const NodeState* node, int64_t c, const NestedColumnState& column) {
  for (const NodeState* parent = node->parent; parent != nullptr;
       node = parent, parent = node->parent) {
    if (parent->plan->kind != NodeKind::kStruct) {
      const int64_t* first = parent->first.data();
      c = std::upper_bound(first, first + parent->count + 1, c) - first - 1;
    }
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
  ROWBRIDGE_RETURN_NOT_OK(
      ExpandNode(&root, Candidates{rows, batch_offset + row, nullptr}, CandidateMask(), this));
  ROWBRIDGE_RETURN_NOT_OK(ComputeSizes(&root, this));
  span_end = row + rows;
  return Status::Ok();
}

}  // namespace rowbridge::row
