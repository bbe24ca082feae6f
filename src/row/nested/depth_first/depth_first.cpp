// The depth-first writer's plan, binding and tile bound (see depth_first.hpp).
#include "row/nested/depth_first/depth_first.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "arrow/array_checks.hpp"
#include "row/binary_sources.hpp"
#include "row/kernel_isa.hpp"
#include "row/large_decimal_sources.hpp"
#include "row/nested/depth_first/depth_first_shapes.hpp"
#include "row/nested/nested_plan.hpp"
#include "row/nested/nested_state.hpp"
#include "row/value_ops.hpp"
#include "spark/decimal_math.hpp"

namespace rowbridge::row {
namespace {

/// The width of a fixed-width type whose Arrow bytes are Spark's bytes at
/// `element_size`, or 0.
int32_t CopiedWidth(const ArrowType& type, int32_t element_size) {
  int32_t width = 0;
  switch (type.id) {
    case ArrowTypeId::kInt8: width = 1; break;
    case ArrowTypeId::kInt16: width = 2; break;
    case ArrowTypeId::kInt32:
    case ArrowTypeId::kDate32:
    case ArrowTypeId::kFloat32:
    case ArrowTypeId::kIntervalYearMonth: width = 4; break;
    case ArrowTypeId::kInt64:
    case ArrowTypeId::kFloat64: width = 8; break;
    case ArrowTypeId::kTimestamp:
    case ArrowTypeId::kDuration: width = type.unit == TimeUnit::kMicro ? 8 : 0; break;
    case ArrowTypeId::kTime64: width = type.unit == TimeUnit::kNano ? 8 : 0; break;
    default: return 0;
  }
  return width == element_size ? width : 0;
}

/// Value `index` of a kConverted node converted by `Op`.
template <typename Op>
uint64_t ConvertValue(const DepthFirstNode& node, int64_t index) {
  ColumnInput input;
  input.values = node.values;
  uint64_t value = 0;
  Op::Load(input, index, node.precision, &value);
  return value;
}

/// Whether values [x0, x1) of a kConverted `node` all convert (nulls
/// included: one that does not, even under a null, sends the tile to the
/// level-by-level writer, which reports it if it is live).
template <typename Op>
bool AllConvert(const DepthFirstNode& node, int64_t x0, int64_t x1) {
  ColumnInput input;
  input.values = node.values;
  bool ok = true;
  uint64_t value;
  for (int64_t x = node.offset + x0; x < node.offset + x1; ++x)
    ok &= Op::Load(input, x, node.precision, &value);
  return ok;
}

/// An array of kConverted `element` values [first, first + n) at `dst`:
/// header, values of element.width bytes with nulls zeroed, padding.
template <typename Op>
int64_t ConvertedArray(const DepthFirstNode& element, int64_t first, int64_t n, uint8_t* dst);

/// Makes `node` kConverted when its type has a conversion to a Spark value
/// of `element_size` bytes in an array (the flat writers' value op).
bool ConvertedKind(const ArrowType& type, int32_t element_size, DepthFirstNode* node) {
  bool converted = false;
  VisitValueOp(type, [&]<typename Op>(OpTag<Op>) {
    if constexpr (Op::kRawBytes == 0) {
      const int32_t spark_size = std::is_same_v<Op, BoolOp>     ? 1
                                 : std::is_same_v<Op, Date64Op> ? 4
                                                                : 8;
      if (element_size != spark_size) return;
      converted = true;
      node->kind = DepthFirstKind::kConverted;
      node->width = spark_size;
      node->precision = type.precision;
      node->convert_value = ConvertValue<Op>;
      node->convert_array = ConvertedArray<Op>;
      node->convert_check = AllConvert<Op>;
    }
  });
  return converted;
}

/// Value `index`'s bytes, once the tile bound has checked that it fits.
template <typename Source>
uint64_t EncodeLargeDecimal(const DepthFirstNode& node, int64_t index, uint8_t* dst,
                            uint64_t keep) {
  spark::Int128 v;
  Source::Read(node.values, index, &v);
  const spark::BigEndianWords words = spark::MinimalBigEndianWords(v);
  Store64(dst, words.first & keep);
  Store64(dst + 8, words.second & keep);
  return static_cast<uint64_t>(words.length) & keep;
}

/// Whether values [x0, x1) of a kLargeDecimal `node` all fit 128 bits and
/// the node's precision (nulls included, as AllConvert).
template <typename Source>
bool AllLargeDecimalsFit(const DepthFirstNode& node, int64_t x0, int64_t x1) {
  bool ok = true;
  spark::Int128 v;
  for (int64_t x = node.offset + x0; x < node.offset + x1; ++x) {
    ok &= Source::Read(node.values, x, &v);  // fills v: read before the precision check
    ok &= spark::FitsPrecision128(v, node.precision);
  }
  return ok;
}

/// An array of kLargeDecimal `element` values [first, first + n) at `dst`:
/// header, slots, then each valid value's bytes padded to 8 (a null one
/// takes none and has a zero slot).
template <typename Source>
int64_t LargeDecimalArray(const DepthFirstNode& element, int64_t first, int64_t n, uint8_t* dst);

/// Makes `node` kLargeDecimal when its type takes the large-decimal rules.
bool LargeDecimalKind(const ArrowType& type, DepthFirstNode* node) {
  auto use = [&]<typename Source>(int32_t precision) {
    node->kind = DepthFirstKind::kLargeDecimal;
    node->precision = precision;
    node->encode_value = EncodeLargeDecimal<Source>;
    node->convert_array = LargeDecimalArray<Source>;
    node->convert_check = AllLargeDecimalsFit<Source>;
    return true;
  };
  if (type.id == ArrowTypeId::kUInt64) return use.template operator()<UInt64Source>(20);
  if (type.id != ArrowTypeId::kDecimal || type.precision <= spark::kMaxSmallDecimalDigits)
    return false;
  if (type.bit_width == 128) return use.template operator()<SignedSource<16>>(type.precision);
  if (type.bit_width == 256) return use.template operator()<SignedSource<32>>(type.precision);
  return false;
}

bool StringKind(const ArrowType& type, DepthFirstKind* kind) {
  switch (type.id) {
    case ArrowTypeId::kUtf8:
    case ArrowTypeId::kBinary: *kind = DepthFirstKind::kString32; return true;
    case ArrowTypeId::kLargeUtf8:
    case ArrowTypeId::kLargeBinary: *kind = DepthFirstKind::kString64; return true;
    default: return false;
  }
}

/// Appends the node of `plan` and its descendants (children after their
/// parent, siblings together); returns false for a node not covered.
bool CompileNode(const NestedNode& plan, std::vector<DepthFirstNode>* nodes, int32_t index) {
  if (plan.encoding != Encoding::kPlain) return false;
  DepthFirstNode node;
  switch (plan.kind) {
    case NodeKind::kLeaf:
      if (StringKind(plan.value_type, &node.kind)) break;
      if (ConvertedKind(plan.value_type, plan.element_size, &node)) break;
      if (LargeDecimalKind(plan.value_type, &node)) break;
      node.kind = DepthFirstKind::kFixed;
      node.width = CopiedWidth(plan.value_type, plan.element_size);
      if (node.width == 0) return false;
      break;
    case NodeKind::kStruct:
      node.kind = DepthFirstKind::kStruct;
      node.bitset_bytes = static_cast<int32_t>(plan.bitset_bytes);
      node.fixed_bytes = static_cast<int32_t>(plan.fixed_bytes);
      // Its constant bytes are the 16 of each large-decimal field, which
      // the field's writer reserves (a field that reserves others, such as
      // a calendar interval, is not covered).
      break;
    case NodeKind::kList:
      if (plan.layout == ListLayout::kOffsets32) node.kind = DepthFirstKind::kList32;
      else if (plan.layout == ListLayout::kOffsets64) node.kind = DepthFirstKind::kList64;
      else return false;
      break;
    case NodeKind::kMap:
      if (plan.layout != ListLayout::kOffsets32) return false;
      node.kind = DepthFirstKind::kMap;
      break;
  }
  node.rejects_nulls = plan.rejects_nulls;
  node.num_children = static_cast<int32_t>(plan.children.size());
  if (node.num_children > 0) node.first_child = static_cast<int32_t>(nodes->size());
  (*nodes)[static_cast<size_t>(index)] = node;
  nodes->resize(nodes->size() + plan.children.size());
  for (int32_t i = 0; i < node.num_children; ++i) {
    if (!CompileNode(plan.children[static_cast<size_t>(i)], nodes, node.first_child + i))
      return false;
  }
  return true;
}

const uint8_t* Buffer(const ArrowArray& array, int64_t i) {
  return array.n_buffers > i ? static_cast<const uint8_t*>(array.buffers[i]) : nullptr;
}

void BindArray(const ArrowArray& array, DepthFirstNode* node) {
  node->validity = MayHaveNulls(array) ? Buffer(array, 0) : nullptr;
  node->validity_bytes = (array.offset + array.length + 7) / 8;
  node->fast_bits_end = node->validity_bytes >= 8 ? (node->validity_bytes - 8) * 8 + 1 : 0;
  node->offset = array.offset;
  node->length = array.length;
  node->values = Buffer(array, 1);
  node->data = node->kind == DepthFirstKind::kString32 || node->kind == DepthFirstKind::kString64
                   ? Buffer(array, 2)
                   : nullptr;
}

bool BindNodeState(const NodeState& state, bool full, std::vector<DepthFirstNode>* nodes,
                   int32_t index) {
  DepthFirstNode& node = (*nodes)[static_cast<size_t>(index)];
  if (state.values == nullptr || state.values != state.array) return false;
  BindArray(*state.values, &node);
  if (full && node.rejects_nulls && node.validity != nullptr) return false;
  node.child_length = state.element_length;
  if (node.kind == DepthFirstKind::kMap) {
    for (int32_t i = 0; i < 2; ++i) {
      if (!BindNodeState(state.children[static_cast<size_t>(i)], full, nodes, node.first_child + i))
        return false;
      (*nodes)[static_cast<size_t>(node.first_child + i)].offset += state.entries_offset;
    }
    // Keys are never null in Spark; a null key takes the level-by-level
    // writer, which decides what to do with it.
    return (*nodes)[static_cast<size_t>(node.first_child)].validity == nullptr;
  }
  for (int32_t i = 0; i < node.num_children; ++i) {
    if (!BindNodeState(state.children[static_cast<size_t>(i)], full, nodes, node.first_child + i))
      return false;
  }
  return true;
}

template <typename Offset>
int64_t OffsetAt(const DepthFirstNode& node, int64_t x) {
  return static_cast<int64_t>(
      Load<Offset>(node.values + (node.offset + x) * int64_t{sizeof(Offset)}));
}

/// Checks that offsets [x0, x1] of `node` do not decrease (unless
/// `validated`: binding checked them) and lie in [0, limit]; the offsets at
/// the ends go to `*first` and `*last`.
template <typename Offset>
bool CheckOffsets(const DepthFirstNode& node, int64_t x0, int64_t x1, int64_t limit, bool validated,
                  int64_t* first, int64_t* last) {
  const Offset* offsets = reinterpret_cast<const Offset*>(node.values) + node.offset;
  // An integer OR of the comparisons (a bool one is not vectorized).
  uint32_t bad = 0;
  for (int64_t x = x0; x < x1 && !validated; ++x) {
    bad |= static_cast<uint32_t>(Load<Offset>(offsets + x + 1) < Load<Offset>(offsets + x));
  }
  *first = static_cast<int64_t>(Load<Offset>(offsets + x0));
  *last = static_cast<int64_t>(Load<Offset>(offsets + x1));
  return bad == 0 && *first >= 0 && *last <= limit;
}

/// The bound of values [x0, x1) of `node`, -1 when a check fails.
int64_t Bound(const DepthFirstNode* nodes, const DepthFirstNode& node, int64_t x0, int64_t x1,
              bool validated) {
  const int64_t n = x1 - x0;
  int64_t first = 0;
  int64_t last = 0;
  switch (node.kind) {
    case DepthFirstKind::kFixed: return 0;
    case DepthFirstKind::kConverted: return node.convert_check(node, x0, x1) ? 0 : -1;
    case DepthFirstKind::kLargeDecimal: return node.convert_check(node, x0, x1) ? 16 * n : -1;
    case DepthFirstKind::kString32:
    case DepthFirstKind::kString64: {
      if (node.values == nullptr || node.data == nullptr) return n == 0 ? 0 : -1;
      bool wide = node.kind == DepthFirstKind::kString64;
      int64_t end =
          wide ? OffsetAt<int64_t>(node, node.length) : OffsetAt<int32_t>(node, node.length);
      bool ok = wide ? CheckOffsets<int64_t>(node, x0, x1, end, validated, &first, &last)
                     : CheckOffsets<int32_t>(node, x0, x1, end, validated, &first, &last);
      return ok ? (last - first) + 7 * n : -1;
    }
    case DepthFirstKind::kStruct: {
      int64_t bound = n * node.fixed_bytes;
      for (int32_t i = 0; i < node.num_children; ++i) {
        int64_t child = Bound(nodes, nodes[node.first_child + i], node.offset + x0,
                              node.offset + x1, validated);
        if (child < 0) return -1;
        bound += child;
      }
      return bound;
    }
    default: break;
  }
  bool ok = node.kind == DepthFirstKind::kList64
                ? CheckOffsets<int64_t>(node, x0, x1, node.child_length, validated, &first, &last)
                : CheckOffsets<int32_t>(node, x0, x1, node.child_length, validated, &first, &last);
  if (!ok) return -1;
  const int64_t elements = last - first;
  // An array: its count, null words (one stored even when empty), elements
  // padded to 8; per element at most a slot and an eighth of a null word.
  int64_t bound = 0;
  int32_t arrays = node.kind == DepthFirstKind::kMap ? 2 : 1;
  if (node.kind == DepthFirstKind::kMap) bound += 8 * n;
  for (int32_t i = 0; i < arrays; ++i) {
    const DepthFirstNode& element = nodes[node.first_child + i];
    int64_t child = Bound(nodes, element, first, last, validated);
    if (child < 0) return -1;
    bound += 24 * n + elements * (element.ElementSize() + 1) + child;
  }
  return bound;
}

/// Bytes moved with the portable copies of the column writers.
struct PortableDepthFirstOps {
  static void CopyPadded(uint8_t* dst, const uint8_t* src, int64_t length) {
    PortableCopy::CopyPadded(dst, src, length);
  }

  template <int kWidth>
  static void SmallFixed(uint8_t* dst, const uint8_t* src, int64_t n, uint64_t nulls) {
    const int64_t bytes = n * kWidth;
    if (bytes & 7) Store64(dst + (bytes & ~int64_t{7}), 0);
    CopyBytes(dst, src, bytes);
    for (; nulls != 0; nulls &= nulls - 1)
      std::memset(dst + __builtin_ctzll(nulls) * kWidth, 0, kWidth);
  }
};

/// An array's count and null words for the portable array writers below;
/// returns the header's size.
int64_t ArrayHeader(const DepthFirstNode& element, int64_t first, int64_t n, uint8_t* dst) {
  uint64_t nulls;
  return DepthFirstFlat<PortableDepthFirstOps>::Header(FlatOf(element, 0), first, n, dst, &nulls);
}

/// The low bits of `bits` (at most 8) as bytes of 0 or 1, bit k in byte k.
inline uint64_t BitsAsBytes(uint64_t bits) {
  // Byte k keeps bit k of its copy of the bits; adding 0x7f to a byte of 0
  // or 2^k sets its high bit exactly when it is not 0, without a carry out.
  const uint64_t kept = (bits * 0x0101010101010101ULL) & 0x8040201008040201ULL;
  return ((kept + 0x7f7f7f7f7f7f7f7fULL) >> 7) & 0x0101010101010101ULL;
}

/// An array of booleans [first, first + n) of `element` at `dst`: eight
/// elements a step, each a byte of 0 or 1 (0 for a null one).
int64_t BoolArray(const DepthFirstNode& element, int64_t first, int64_t n, uint8_t* dst) {
  const int64_t header = ArrayHeader(element, first, n, dst);
  uint8_t* out = dst + header;
  const int64_t x = element.offset + first;
  for (int64_t k = 0; k < n; k += 8) {
    const int64_t count = n - k < 8 ? n - k : 8;
    uint64_t set = ReadBits(element.values, x + k, count, element.validity_bytes);
    if (element.validity != nullptr)
      set &= ReadBits(element.validity, x + k, count, element.validity_bytes);
    Store64(out + k, BitsAsBytes(set));  // the bytes past the last element: padding
  }
  return header + spark::RoundUp8(n);
}

template <typename Op>
int64_t ConvertedArray(const DepthFirstNode& element, int64_t first, int64_t n, uint8_t* dst) {
  if constexpr (std::is_same_v<Op, BoolOp>) return BoolArray(element, first, n, dst);
  const int64_t header = ArrayHeader(element, first, n, dst);
  uint8_t* out = dst + header;
  const int64_t bytes = spark::RoundUp8(n * element.width);
  if (bytes > 0) Store64(out + bytes - 8, 0);  // the padding after the last value
  for (int64_t k = 0; k < n; ++k) {
    const int64_t x = element.offset + first + k;
    const bool valid = element.validity == nullptr || GetBit(element.validity, x);
    const uint64_t value = ConvertValue<Op>(element, x) & (0 - static_cast<uint64_t>(valid));
    if (element.width == 8) {
      Store64(out + 8 * k, value);
    } else {
      const auto narrow = static_cast<uint32_t>(value);
      std::memcpy(out + 4 * k, &narrow, 4);
    }
  }
  return header + bytes;
}

template <typename Source>
int64_t LargeDecimalArray(const DepthFirstNode& element, int64_t first, int64_t n, uint8_t* dst) {
  const int64_t header = ArrayHeader(element, first, n, dst);
  uint8_t* slots = dst + header;
  int64_t cursor = header + 8 * n;
  for (int64_t k = 0; k < n; ++k) {
    const int64_t x = element.offset + first + k;
    const uint64_t keep =
        0 - static_cast<uint64_t>(element.validity == nullptr || GetBit(element.validity, x));
    const auto length =
        static_cast<int64_t>(EncodeLargeDecimal<Source>(element, x, dst + cursor, keep));
    Store64(slots + 8 * k, OffsetAndSize(cursor, length) & keep);
    cursor += spark::RoundUp8(length);
  }
  return cursor;
}

}  // namespace

alignas(8) const uint8_t kDepthFirstAllValid[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

DepthFirstPlan CompileDepthFirst(const std::vector<ColumnPlan>& columns, int64_t fixed_row_bytes,
                                 KernelIsa isa) {
  DepthFirstPlan plan;
  plan.fixed_row_bytes = fixed_row_bytes;
  bool any_nested = false;
  for (const ColumnPlan& column : columns) any_nested |= column.nested != nullptr;
  if (!any_nested) return plan;
  for (size_t i = 0; i < columns.size(); ++i) {
    const ColumnPlan& column = columns[i];
    if (column.writers.constant_variable_bytes != 0) return DepthFirstPlan();
    DepthFirstColumn out;
    out.column = static_cast<int32_t>(i);
    out.slot_offset = column.target.slot_offset;
    out.null_word_offset = column.target.null_word_offset;
    out.null_mask = column.target.null_mask;
    out.node = static_cast<int32_t>(plan.nodes.size());
    if (column.nested != nullptr) {
      plan.nodes.resize(plan.nodes.size() + 1);
      if (!CompileNode(*column.nested, &plan.nodes, out.node)) return DepthFirstPlan();
    } else if (column.variable_size) {
      DepthFirstNode node;
      if (column.encoding != Encoding::kPlain || !StringKind(column.value_type, &node.kind)) {
        return DepthFirstPlan();
      }
      plan.nodes.push_back(node);
    } else {
      continue;  // a slot writer writes it
    }
    plan.columns.push_back(out);
  }
  std::vector<bool> stored(static_cast<size_t>(fixed_row_bytes / 8), false);
  if (!stored.empty()) stored[0] = true;  // the first bitset word, built in a register
  for (const DepthFirstColumn& column : plan.columns)
    stored[static_cast<size_t>(column.slot_offset / 8)] = true;
  for (size_t w = 0; w < stored.size(); ++w) {
    if (!stored[w]) plan.zero_words.push_back(static_cast<int32_t>(8 * w));
  }
  plan.flat_nodes.resize(plan.columns.size() * kFlatNodesPerColumn);
  plan.eligible = true;
  plan.isa = isa;
  const IsaEntryPoints& entry_points = EntryPointsFor(isa);
  if (entry_points.resolve_depth_first != nullptr) {
    entry_points.resolve_depth_first(&plan);
  } else {
    ResolveDepthFirstPortable(&plan);
  }
  return plan;
}

bool BindDepthFirstColumn(const ArrowArray& array, const ColumnInput& input, Validation validation,
                          size_t index, DepthFirstPlan* plan) {
  const DepthFirstColumn& column = plan->columns[index];
  if (input.nested != nullptr) {
    const bool full = validation == Validation::kFull;
    if (!BindNodeState(input.nested->root, full, &plan->nodes, column.node)) return false;
  } else {
    if (input.gather != nullptr) return false;
    BindArray(array, &plan->nodes[static_cast<size_t>(column.node)]);
  }
  if (column.flat != nullptr) {
    FlattenShape(plan->nodes[static_cast<size_t>(column.node)],
                 plan->flat_nodes.data() + index * kFlatNodesPerColumn);
  }
  return true;
}

int64_t DepthFirstTileBound(const DepthFirstPlan& plan, int64_t batch_offset, int64_t row,
                            int64_t rows, Validation validation) {
  int64_t bound = rows * plan.fixed_row_bytes;
  const int64_t x0 = batch_offset + row;
  const bool validated = validation == Validation::kFull;
  for (const DepthFirstColumn& column : plan.columns) {
    int64_t column_bound = Bound(plan.nodes.data(), plan.nodes[static_cast<size_t>(column.node)],
                                 x0, x0 + rows, validated);
    if (column_bound < 0) return -1;
    bound += column_bound;
  }
  return bound;
}

void ResolveDepthFirstPortable(DepthFirstPlan* plan) {
  DepthFirstShapes<PortableDepthFirstOps>::Resolve(plan);
}

Status CheckNestedWriter(NestedWriter option) {
  switch (option) {
    case NestedWriter::kAuto:
    case NestedWriter::kDepthFirst:
    case NestedWriter::kLevels: return Status::Ok();
  }
  return Status::Invalid("unknown nested writer " + std::to_string(static_cast<int>(option)));
}

namespace {

/// Whether `node` or a node below it is a list or map with an element (a
/// key or value) that is not fixed-width.
bool HasVariableElements(const DepthFirstPlan& plan, const DepthFirstNode& node) {
  for (int32_t i = 0; i < node.num_children; ++i) {
    const DepthFirstNode& child = plan.nodes[static_cast<size_t>(node.first_child + i)];
    const bool array = node.kind == DepthFirstKind::kList32 ||
                       node.kind == DepthFirstKind::kList64 || node.kind == DepthFirstKind::kMap;
    if ((array && !child.FixedWidth()) || HasVariableElements(plan, child)) return true;
  }
  return false;
}

/// Whether `node` or a node below it holds values that need a conversion
/// (large decimals included: encoded per value).
bool HasConvertedValues(const DepthFirstPlan& plan, const DepthFirstNode& node) {
  if (node.kind == DepthFirstKind::kConverted || node.kind == DepthFirstKind::kLargeDecimal)
    return true;
  for (int32_t i = 0; i < node.num_children; ++i) {
    if (HasConvertedValues(plan, plan.nodes[static_cast<size_t>(node.first_child + i)]))
      return true;
  }
  return false;
}

}  // namespace

bool UseDepthFirst(const DepthFirstPlan& plan, NestedWriter choice) {
  if (!plan.eligible) return false;
  switch (choice) {
    case NestedWriter::kDepthFirst: return true;
    case NestedWriter::kLevels: return false;
    case NestedWriter::kAuto: break;
  }
  if (plan.columns.size() >= 2) return true;
  // Under AVX2 only the depth-first writer has vector kernels: it is the
  // faster one for every single column too (docs/BENCHMARKS.md).
  if (plan.isa == KernelIsa::kAvx2) return true;
  // A single column: the depth-first writer is faster for arrays of
  // strings or nested values, unless values in it need a conversion (a call
  // per value there, and a second one in the tile bound's check).
  for (const DepthFirstColumn& column : plan.columns) {
    const DepthFirstNode& node = plan.nodes[static_cast<size_t>(column.node)];
    if (HasVariableElements(plan, node) && !HasConvertedValues(plan, node)) return true;
  }
  return false;
}

}  // namespace rowbridge::row
