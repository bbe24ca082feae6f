// The depth-first writer: a fast path that writes a tile's rows one after
// another, each row's values depth-first in the order of their bytes, for
// schemas whose variable-region values are plain strings and plain nested
// values (see CompileDepthFirst) and two or more such columns, or one with
// arrays of strings or nested values (see UseDepthFirst for the rule).
// Every byte of a row is stored once, in order: null values are written at the cursor like
// live ones and not counted (the next value overwrites them), so no branch
// follows validity and no tile `memset` is needed. Row sizes come out of
// the writing; the tile's output is reserved from an upper bound that the
// list and string offsets the tile reaches give (DepthFirstTileBound),
// checked at the same time, as are the values that need a conversion
// (booleans, timestamps in s/ms/ns, date64, small decimals: they must
// convert; large decimals and uint64: they must fit their precision).
// Anything else (dictionary or run-end encoded values, views, fixed size
// lists, large decimals of a top-level column, a tile whose bound does not
// fit the chunk, offsets or values that fail the check) takes the level-by-level
// writer (nested_write.cpp), which produces the same bytes and names errors.
#pragma once

#include <cstdint>
#include <vector>

#include "row/column_binding.hpp"
#include "row/column_plan.hpp"
#include "row/kernel_isa.hpp"

namespace rowbridge::row {

enum class DepthFirstKind : uint8_t {
  kFixed,     // a value whose Arrow bytes are the Spark bytes (1, 2, 4 or 8)
  kString32,  // utf8, binary
  kString64,  // large_utf8, large_binary
  kStruct,
  kList32,  // list
  kList64,  // large_list
  kMap,
  /// A fixed-width value that needs a conversion (booleans, timestamps and
  /// durations in s, ms or ns, date64, decimals of up to 18 digits): the
  /// `convert_*` functions, the flat writers' value op (value_ops.hpp) of its type.
  kConverted,
  /// A decimal of 19 to 38 digits (decimal128, decimal256) or a uint64 (as
  /// decimal(20,0)): its minimal big-endian bytes in the variable region,
  /// 16 reserved for a struct field (null or not), round8(length) for an
  /// array element (none for a null one), by the `encode_*` functions.
  kLargeDecimal,
};

struct DepthFirstNode;

/// Writes value x of a struct, list or map node at `dst` (also when it is
/// null: the caller then does not count it) and returns its size.
using DepthFirstValueFn = int64_t (*)(const DepthFirstNode& node, int64_t x, uint8_t* dst);
/// Writes an UnsafeArrayData of values [first, first + n) of `element` at
/// `dst` and returns its size.
using DepthFirstArrayFn = int64_t (*)(const DepthFirstNode& element, int64_t first, int64_t n,
                                      uint8_t* dst);

/// A cursor past a value and the null bits its writer set.
struct DepthFirstCursor {
  int64_t cursor;
  uint64_t nulls;
};
/// Writes value x of a column's node in `row`: its slot, its variable bytes
/// from `cursor` on; returns the cursor past them and `mask` if it is null.
using DepthFirstColumnFn = DepthFirstCursor (*)(const DepthFirstNode& node, int64_t x, uint8_t* row,
                                                uint8_t* slot, int64_t cursor, uint64_t mask);

/// One node of a depth-first plan, compiled once; the `batch` part is bound
/// per batch. Value x of a node (its array's logical index) is element
/// `offset + x` of its buffers; a struct's fields take the struct's element
/// index as theirs, a list's element the list's offsets, a map's key and
/// value the entries' offsets (the entries' own offset is in theirs).
struct DepthFirstNode {
  DepthFirstKind kind = DepthFirstKind::kFixed;
  /// kFixed: bytes of a value, also its size as an array element;
  /// kConverted: its Spark value's size as an array element (1, 4 or 8).
  int32_t width = 8;
  int32_t precision = 0;       // kConverted and kLargeDecimal decimals
  int32_t first_child = -1;    // index of the first child in the plan's nodes
  int32_t num_children = 0;    // struct fields; 1 for lists; 2 (key, value) for maps
  int32_t bitset_bytes = 0;    // structs
  int32_t fixed_bytes = 0;     // structs: bitset + slots
  bool rejects_nulls = false;  // a non-nullable field (full validation)
  /// Resolved with the plan for the writer's ISA (ResolveDepthFirst*):
  /// the first child, the writer of a nested value, the writer of an array
  /// of this node's values.
  const DepthFirstNode* children = nullptr;
  DepthFirstValueFn value = nullptr;
  DepthFirstArrayFn array = nullptr;
  /// kConverted, set when the plan is compiled (portable code, called by
  /// every ISA's writer): the Spark value of value `index` (the node's
  /// offset included), zero-extended, once the tile bound has checked it;
  /// an array of values [first, first + n) (the node's `array`); whether
  /// values [x0, x1) all convert, nulls included.
  uint64_t (*convert_value)(const DepthFirstNode& node, int64_t index) = nullptr;
  DepthFirstArrayFn convert_array = nullptr;
  bool (*convert_check)(const DepthFirstNode& node, int64_t x0, int64_t x1) = nullptr;
  /// kLargeDecimal (portable code too; its array writer is convert_array
  /// and its check convert_check): writes value `index`'s 16 bytes at
  /// `dst`, zero unless `keep` is all ones, and returns its length (0 when
  /// not kept).
  uint64_t (*encode_value)(const DepthFirstNode& node, int64_t index, uint8_t* dst,
                           uint64_t keep) = nullptr;

  // Bound per batch.
  const uint8_t* validity = nullptr;  // null when no value is null
  int64_t validity_bytes = 0;         // readable bytes of `validity`
  int64_t fast_bits_end = 0;          // bits below it start 8 readable bytes
  int64_t offset = 0;
  const uint8_t* values = nullptr;  // fixed values, or string / list offsets
  const uint8_t* data = nullptr;    // string bytes
  int64_t length = 0;               // values in the array (from `offset` on)
  int64_t child_length = 0;         // lists and maps: values their offsets may address

  /// Element size of this node's values in a parent array.
  int32_t ElementSize() const {
    return kind == DepthFirstKind::kFixed || kind == DepthFirstKind::kConverted ? width : 8;
  }
  /// Whether this node's values are fixed-width in the row (copied or converted).
  bool FixedWidth() const {
    return kind == DepthFirstKind::kFixed || kind == DepthFirstKind::kConverted;
  }
};

/// A node's buffers bound for the shaped writers with its offset, and those
/// of the structs above it, folded in: value x of the node is element x of
/// `values` and has validity bit `(bit + x) & bit_mask` of `validity`. A
/// node without validity points at a constant all-valid word with a mask of
/// 0, so that reading a bit never branches. Filled per batch from the bound
/// nodes (FlattenShape, depth_first_flat.hpp): a writer reading these
/// recomputes nothing of its node per value, which is what a writer reading
/// DepthFirstNode spends (docs/BENCHMARKS.md).
struct DepthFirstFlatNode {
  const uint8_t* validity = nullptr;
  int64_t bit = 0;
  int64_t bit_mask = 0;
  int64_t fast_bits_end = 0;  // bits below it start 8 readable bytes
  int64_t validity_bytes = 0;
  const uint8_t* values = nullptr;  // fixed values, or string / list offsets, at value 0
  const uint8_t* data = nullptr;    // string bytes
};

/// Eight valid bits, which a flat node without validity reads (mask 0).
/// Defined in depth_first.cpp only: the per-ISA objects may define nothing
/// but their entry points.
extern const uint8_t kDepthFirstAllValid[8];

/// The flat nodes of a shaped column: the column's node, then its fields,
/// or its element (and the element's fields), or a map's key and value.
inline constexpr int kFlatNodesPerColumn = 4;

/// A shaped column's writer over its flat nodes; as DepthFirstColumnFn.
using DepthFirstFlatFn = DepthFirstCursor (*)(const DepthFirstFlatNode* nodes, int64_t x,
                                              uint8_t* row, uint8_t* slot, int64_t cursor,
                                              uint64_t mask);

/// A column the depth-first writer writes (a string or nested column).
struct DepthFirstColumn {
  int32_t column = 0;  // index among the plan's columns
  int32_t node = 0;    // its node
  int32_t slot_offset = 0;
  int32_t null_word_offset = 0;
  uint64_t null_mask = 0;
  DepthFirstColumnFn field = nullptr;  // resolved with the plan
  /// Resolved with the plan for a string column or a shaped one (then used
  /// instead of `field`), over the column's flat nodes.
  DepthFirstFlatFn flat = nullptr;
};

struct DepthFirstPlan;

/// Writes rows [row, row + rows) of the batch at base + offsets[0] on and
/// sets offsets[1..rows]: per row, the fixed-part words it does not store
/// zeroed (zero_words), then the depth-first columns' slots, null bits and
/// values. The buffer holds at least
/// DepthFirstTileBound bytes from offsets[0]. Portable and per-ISA builds.
using DepthFirstWriteFn = void (*)(const DepthFirstPlan& plan, int64_t batch_offset, int64_t row,
                                   int64_t rows, uint8_t* base, int64_t* offsets);

/// Nodes point at their children: a plan may be moved, never copied.
struct DepthFirstPlan {
  DepthFirstPlan() = default;
  DepthFirstPlan(const DepthFirstPlan&) = delete;
  DepthFirstPlan& operator=(const DepthFirstPlan&) = delete;
  DepthFirstPlan(DepthFirstPlan&&) = default;
  DepthFirstPlan& operator=(DepthFirstPlan&&) = default;

  bool eligible = false;
  std::vector<DepthFirstNode> nodes;
  std::vector<DepthFirstColumn> columns;  // in column order
  /// kFlatNodesPerColumn per column, filled per batch for the columns with a
  /// `flat` writer.
  std::vector<DepthFirstFlatNode> flat_nodes;
  /// RowLayout::fixed_row_bytes: the bitset and slots (an eligible layout
  /// reserves no constant variable bytes).
  int64_t fixed_row_bytes = 0;
  /// The words of the row's fixed part the depth-first columns do not
  /// store (bitset words past the first, other columns' slots): zeroed first.
  std::vector<int32_t> zero_words;
  /// Writes rows, for the ISA the plan was resolved for.
  DepthFirstWriteFn write = nullptr;
  KernelIsa isa = KernelIsa::kPortable;
};

/// Compiles the depth-first plan of `columns`: eligible when at least one
/// column is nested, every nested node is plain (struct, list, large_list,
/// map of fixed values whose Arrow bytes are Spark's or that convert to a
/// long, int or boolean byte (kConverted), large decimals (kLargeDecimal),
/// and utf8/binary values with 32- or 64-bit offsets), every other variable-size column is such a
/// string, and no column reserves constant variable bytes. The other flat
/// columns are left to their slot writers. Resolved for the kernels of `isa`.
DepthFirstPlan CompileDepthFirst(const std::vector<ColumnPlan>& columns, int64_t fixed_row_bytes,
                                 KernelIsa isa);

/// Binds the nodes of plan->columns[index] (and its flat nodes, when it has
/// a flat writer) to its array in a batch (`array`, bound as `input`: its
/// nested state, or the flat column, at `validation`); returns false when
/// the batch has a value the plan does not cover (a dictionary-encoded
/// child, a null map key) or, at full validation, a non-nullable field with
/// nulls, so that the batch takes the level-by-level writer (which decides
/// whether such a null is live). At full validation binding has checked
/// every offset already; the depth-first writer adds no other check.
bool BindDepthFirstColumn(const ArrowArray& array, const ColumnInput& input, Validation validation,
                          size_t index, DepthFirstPlan* plan);

/// Checks the list and string offsets that rows [row, row + rows) of the
/// batch reach (non-decreasing, inside their child or data) and returns an
/// upper bound of the rows' bytes, dead values written in place included;
/// returns -1 when a check fails (the level-by-level writer then names it).
/// At full validation, which checked every offset when the batch was bound,
/// only the offsets at the ends of each range are read.
int64_t DepthFirstTileBound(const DepthFirstPlan& plan, int64_t batch_offset, int64_t row,
                            int64_t rows, Validation validation);

/// Bytes past a tile's bound (DepthFirstTileBound) that the writer may
/// store into: the AVX2 and AVX-512 builds store 64 bytes from a value's
/// start whatever its length (the bytes past it are overwritten by what
/// follows it, or are past the tile's rows).
constexpr int64_t kDepthFirstStoreSlack = 64;

/// Sets the children pointers and the writers of `plan` for an ISA.
void ResolveDepthFirstPortable(DepthFirstPlan* plan);

/// Checks that `option` (ConverterOptions::nested_writer, the only source of
/// the choice) is one of the enum's values; Invalid otherwise.
Status CheckNestedWriter(NestedWriter option);

/// Whether a schema whose depth-first plan is `plan` takes the depth-first
/// writer under `choice`: an eligible plan always under kDepthFirst, never
/// under kLevels. Under kAuto: when it writes two or more columns, or one
/// with an array of strings or nested values somewhere (a map of string
/// keys, a list of structs) and no value that needs a conversion; and under
/// the AVX2 kernels (plan.isa) whenever the plan is eligible. Why: the
/// level-by-level writer makes one pass per column over a tile of rows, so
/// its cost grows with the number of columns, while the depth-first writer
/// visits each row once. On a single column of fixed-width leaves the
/// level-by-level writer's bulk kernels win, and under AVX2 only the
/// depth-first writer has vector kernels. The measured effect of each case
/// is in docs/BENCHMARKS.md ("Tried").
bool UseDepthFirst(const DepthFirstPlan& plan, NestedWriter choice);

}  // namespace rowbridge::row
