// The per-batch state of a nested column, one NodeState per plan node,
// reused across batches (its vectors only grow).
//
// A batch is converted a span of rows at a time (a few tiles). For a span,
// every node has a set of *candidates*: the values of its array that its
// parent's values hold, in row order (a struct field: one per candidate of
// the struct; a list element: the elements of the valid lists, concatenated).
// A nested node's candidates are its *items*, one nested value each; a null
// item (*dead*: null itself, or a field of a dead struct) has size 0 and is
// written to the tile's scratch bytes, past its rows, so that its fields and
// elements are written by the same loops as the live ones, without a gather
// of the live ones. A struct field's validity is its own AND its struct's.
// Sizes are computed per level for the whole span, bottom-up; bytes are
// written per tile, top-down, one level at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "row/column_binding.hpp"
#include "row/nested/nested_plan.hpp"
#include "spark/memory_access.hpp"

namespace rowbridge::row {

/// Where a node's candidates are in its array: candidate c is logical index
/// `start + c` (contiguous) or `indices[c]`; the array's offset is added on top.
struct Candidates {
  int64_t count = 0;
  int64_t start = 0;
  const int64_t* indices = nullptr;  // null when contiguous
};

/// The validity of a struct's candidates, which its fields AND into their
/// own: bit `offset + c` of `bits` for candidate c; no bits when all valid.
struct CandidateMask {
  const uint8_t* bits = nullptr;
  int64_t offset = 0;
  int64_t readable = 0;  // bytes of `bits` that may be read
};

/// Which candidates of a node are live (see NodeState::Liveness).
struct LiveBits {
  const uint8_t* bits = nullptr;  // null when every candidate is
  int64_t offset = 0;
  bool operator()(int64_t c) const { return bits == nullptr || GetBit(bits, offset + c); }
};

struct NodeState {
  const NestedNode* plan = nullptr;
  NodeState* parent = nullptr;
  std::vector<NodeState> children;

  // Bound once per batch.
  const ArrowArray* array = nullptr;   // the node's array (indices, run_end_encoded or values)
  const ArrowArray* values = nullptr;  // the array holding the values
  const ArrowArray* run_ends = nullptr;
  ColumnInput value_buffers;   // `values`' buffers, offset and validity
  int64_t validity_bytes = 0;  // readable bytes of `values`' validity bitmap
  const uint8_t* list_offsets = nullptr;
  const uint8_t* list_sizes = nullptr;
  int64_t element_length = 0;  // length of the list child or map entries
  int64_t entries_offset = 0;  // offset of the map entries array

  // Per span: the candidates resolved to value indices and validity (a
  // struct field's validity includes its struct's).
  int64_t count = 0;
  ColumnInput input;  // value c of `input` is candidate c
  bool all_valid = true;
  int64_t input_validity_bytes = 0;  // readable bytes of input.validity
  std::vector<int64_t> gather;
  std::vector<uint8_t> validity;

  // Per span, nested nodes: item c is candidate c.
  std::vector<int64_t> item_size;  // bytes of item c's value, 0 for a dead one
  std::vector<int64_t> first;     // lists and maps: elements of item c are [first[c], first[c + 1])
  std::vector<int64_t> key_size;  // maps: bytes of item c's key array
  std::vector<int64_t> element_indices;  // lists and maps: non-contiguous element candidates
  std::vector<int64_t> element_sizes;    // lists and maps: scratch for element sizes

  // Per tile.
  std::vector<int64_t> positions;        // of the tile's items
  std::vector<int64_t> cursors;          // structs: per item of the tile
  std::vector<int64_t> array_positions;  // lists and maps: of the tile's non-empty arrays
  std::vector<int64_t> array_first;      // lists and maps: their element ranges

  /// The validity of the candidates, to be copied into a local in loops
  /// that store into rows (which may alias the node).
  LiveBits Liveness() const {
    return LiveBits{all_valid ? nullptr : input.validity, input.validity_offset};
  }
};

struct NestedColumnState {
  std::shared_ptr<const NestedNode> plan;
  NodeState root;
  Validation validation = Validation::kCheap;
  int64_t batch_offset = 0;
  int64_t batch_rows = 0;
  int64_t span_begin = 0;  // batch rows of the expanded span
  int64_t span_end = 0;
  Status error;  // why the last span could not be expanded

  /// Expands the span of batch rows from `row` on covering at least `rows`.
  Status Expand(int64_t row, int64_t rows);
  bool Covers(int64_t row, int64_t rows) const {
    return row >= span_begin && row + rows <= span_end;
  }
};

/// Builds the state tree of `plan` (once per converter and column).
void InitNodeState(const NestedNode& plan, NodeState* parent, NodeState* out);

/// Bytes the vectors of `node` and of its descendants hold (capacities).
int64_t NodeStateBytes(const NodeState& node);

/// Binds the arrays of a node and of its descendants: structural checks
/// always, every offset and view at kFull. `required_length` is how many
/// elements the parent may reference.
Status BindNode(NodeState* node, const ArrowArray& array, int64_t required_length,
                Validation validation);

/// Resolves `candidates` of `node` (dictionary indices, run ends) into its
/// input and validity (ANDed with `mask`, the validity of the struct whose
/// field `node` is), and, for nested nodes, their children's candidates,
/// recursively.
Status ExpandNode(NodeState* node, const Candidates& candidates, const CandidateMask& mask,
                  NestedColumnState* column);

/// Computes the item sizes of `node` and of its descendants.
Status ComputeSizes(NodeState* node, NestedColumnState* column);

/// Returns the batch row that candidate `c` of `node` belongs to.
int64_t RowOfCandidate(const NodeState* node, int64_t c, const NestedColumnState& column);

/// Formats an error about candidate `c` of `node`.
Status CandidateError(const NodeState* node, int64_t c, const NestedColumnState& column,
                      const std::string& message);

/// What a tile's writers share.
struct TileContext {
  uint8_t* base = nullptr;
  const RowLocator* locator = nullptr;
  /// Where dead items are written (relative to base): past the tile's rows,
  /// NestedNode::dead_bytes long, overwritten by the next tile.
  int64_t scratch = 0;
};

/// Writes items [item_begin, item_end) of `node` at `positions` (one per item,
/// relative to the tile's base; the scratch position for dead items).
Status WriteItems(NodeState* node, int64_t item_begin, int64_t item_end, const int64_t* positions,
                  const TileContext& tile);

}  // namespace rowbridge::row
