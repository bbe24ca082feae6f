#include "decoder/decode_columns.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>

#include "decoder/decode_values.hpp"
#include "decoder/simd/flat_fill_kernels.hpp"
#include "decoder/unsafe_layout.hpp"
#include "spark/decimal_math.hpp"
#include "spark/memory_access.hpp"

namespace rowbridge::decoder {
namespace {

const DecodeNode& NodeOf(const DecodePlan& plan, const ColumnDecoder& column) {
  return plan.nodes[static_cast<size_t>(column.node)];
}

bool IsNull(const ColumnDecoder& column, const uint8_t* row) { return GetBit(row, column.field); }

Status NullError(const DecodePlan& plan, const ColumnDecoder& column, int64_t row) {
  return ValueMeasure::Error(NodeOf(plan, column), row, "null in a non-nullable field");
}

// ---- measure: checks and counts per tile ----

/// Fixed-width values and booleans: only a non-nullable field has anything
/// to check.
Status MeasureRequired(const ColumnDecoder& column, const DecodePlan& plan, const RowTile& tile,
                       std::vector<DecodeCounts>*) {
  for (int64_t r = 0; r < tile.rows; ++r) {
    if (IsNull(column, tile.starts[r])) return NullError(plan, column, tile.first + r);
  }
  return Status::Ok();
}

template <bool kNullable>
Status MeasureSmallDecimal(const ColumnDecoder& column, const DecodePlan& plan, const RowTile& tile,
                           std::vector<DecodeCounts>* counts) {
  const int32_t precision = NodeOf(plan, column).precision;
  for (int64_t r = 0; r < tile.rows; ++r) {
    const uint8_t* row = tile.starts[r];
    if (IsNull(column, row)) {
      if (!kNullable) return NullError(plan, column, tile.first + r);
      continue;
    }
    if (!spark::FitsPrecision(Load<int64_t>(row + column.slot), precision)) {
      ValueMeasure measure(plan, counts);  // names the value
      measure.Value(column.node, {row, tile.sizes[r]}, row + column.slot, tile.first + r);
      return measure.error();
    }
  }
  return Status::Ok();
}

template <bool kNullable>
Status MeasureString(const ColumnDecoder& column, const DecodePlan& plan, const RowTile& tile,
                     std::vector<DecodeCounts>* counts) {
  const int64_t null_byte = column.field >> 3;
  const uint32_t null_shift = static_cast<uint32_t>(column.field & 7);
  const int64_t slot_at = column.slot;
  int64_t bytes = 0;
  uint64_t out_of_bounds = 0;
  uint64_t nulls = 0;
  for (int64_t r = 0; r < tile.rows; ++r) {
    const uint8_t* row = tile.starts[r];
    const uint64_t null = (row[null_byte] >> null_shift) & 1;
    nulls |= null;
    const VariableSlot slot = SplitSlot(Load<uint64_t>(row + slot_at) & (null - 1));
    out_of_bounds |= static_cast<uint64_t>(tile.sizes[r] - slot.offset - slot.size) >> 63;
    bytes += slot.size;
  }
  if (out_of_bounds != 0 || (!kNullable && nulls != 0)) {
    // Some row fails (the loop above found it branch-free): name it. This
    // loop returns its error, so the bytes ValueMeasure counts on the way
    // are never added twice.
    ValueMeasure measure(plan, counts);
    for (int64_t r = 0; r < tile.rows; ++r) {
      if (IsNull(column, tile.starts[r])) {
        if (!kNullable) return NullError(plan, column, tile.first + r);
        continue;
      }
      if (!measure.Value(column.node, {tile.starts[r], tile.sizes[r]}, tile.starts[r] + slot_at,
                         tile.first + r)) {
        return measure.error();
      }
    }
  }
  (*counts)[static_cast<size_t>(column.node)].bytes += bytes;
  return Status::Ok();
}

/// Any other value: ValueMeasure, row by row.
Status MeasureGeneric(const ColumnDecoder& column, const DecodePlan& plan, const RowTile& tile,
                      std::vector<DecodeCounts>* counts) {
  ValueMeasure measure(plan, counts);
  const bool nullable = NodeOf(plan, column).nullable;
  for (int64_t r = 0; r < tile.rows; ++r) {
    const uint8_t* row = tile.starts[r];
    if (IsNull(column, row)) {
      if (!nullable) return NullError(plan, column, tile.first + r);
      continue;
    }
    if (!measure.Value(column.node, {row, tile.sizes[r]}, row + column.slot, tile.first + r))
      return measure.error();
  }
  return Status::Ok();
}

/// Calls check(region) for the variable value of `column` in each row of
/// `tile` that is not null, once it is known to lie inside its row; stops at
/// the first failure. Returns nonzero when a null is not allowed, a value
/// leaves its row or check returns nonzero, without naming it.
template <typename Check>
inline __attribute__((always_inline)) uint64_t CheckVariableValues(const ColumnDecoder& column,
                                                                   bool nullable,
                                                                   const RowTile& tile,
                                                                   Check&& check) {
  uint64_t bad = 0;
  for (int64_t r = 0; r < tile.rows && bad == 0; ++r) {
    const uint8_t* row = tile.starts[r];
    if (IsNull(column, row)) {
      bad |= !nullable;
      continue;
    }
    const VariableSlot slot = SplitSlot(Load<uint64_t>(row + column.slot));
    bad |= static_cast<uint64_t>(tile.sizes[r] - slot.offset - slot.size) >> 63;
    if (bad != 0) break;
    bad |= check(RowRegion{row + slot.offset, slot.size});
  }
  return bad;
}

/// A struct column whose fields are leaves (DecodeNode::leaf_fields): every
/// row's checks inlined; a failure is named by MeasureGeneric.
Status MeasureLeafStruct(const ColumnDecoder& column, const DecodePlan& plan, const RowTile& tile,
                         std::vector<DecodeCounts>* counts) {
  const DecodeNode& node = NodeOf(plan, column);
  const int64_t num_fields = static_cast<int64_t>(node.children.size());
  int64_t bytes[kMaxLeafFields];
  for (int64_t i = 0; i < num_fields; ++i) bytes[i] = 0;
  const uint64_t bad = CheckVariableValues(column, node.nullable, tile, [&](RowRegion value) {
    return CheckLeafStruct(node, value.base, value.size, bytes);
  });
  if (bad != 0) return MeasureGeneric(column, plan, tile, counts);
  for (int64_t i = 0; i < num_fields; ++i)
    (*counts)[static_cast<size_t>(node.children[static_cast<size_t>(i)])].bytes += bytes[i];
  return Status::Ok();
}

/// A list column of nullable fixed-width or boolean elements: only the
/// arrays' bounds and headers to check; a failure is named by MeasureGeneric.
Status MeasureFixedList(const ColumnDecoder& column, const DecodePlan& plan, const RowTile& tile,
                        std::vector<DecodeCounts>* counts) {
  const int32_t element_size = plan.Child(NodeOf(plan, column), 0).element_size;
  int64_t elements = 0;
  const uint64_t bad =
      CheckVariableValues(column, NodeOf(plan, column).nullable, tile, [&](RowRegion value) {
        const ArrayLayout layout = ReadArrayLayout(value, element_size);
        elements += layout.num_elements;
        return static_cast<uint64_t>(!layout.ok);
      });
  if (bad != 0) return MeasureGeneric(column, plan, tile, counts);
  (*counts)[static_cast<size_t>(column.node)].elements += elements;
  return Status::Ok();
}

/// A map column of string keys and nullable fixed-width or boolean values:
/// the bounds and headers, the keys' bytes; a failure is named by
/// MeasureGeneric.
Status MeasureStringKeyMap(const ColumnDecoder& column, const DecodePlan& plan, const RowTile& tile,
                           std::vector<DecodeCounts>* counts) {
  const DecodeNode& node = NodeOf(plan, column);
  const int32_t value_size = plan.Child(node, 1).element_size;
  int64_t entries = 0;
  int64_t key_bytes_total = 0;
  const uint64_t bad =
      CheckVariableValues(column, node.nullable, tile, [&](RowRegion map) -> uint64_t {
        if (map.size < 8) return 1;
        const int64_t key_bytes = Load<int64_t>(map.base);
        if (key_bytes < 0 || key_bytes > map.size - 8) return 1;
        const RowRegion keys_region{map.base + 8, key_bytes};
        const ArrayLayout keys = ReadArrayLayout(keys_region, 8);
        const ArrayLayout values =
            ReadArrayLayout({map.base + 8 + key_bytes, map.size - 8 - key_bytes}, value_size);
        if (!keys.ok || !values.ok || keys.num_elements != values.num_elements) return 1;
        const uint8_t* key_nulls = keys_region.base + 8;
        uint64_t failed = 0;
        for (int64_t k = 0; k < keys.num_elements; ++k) {
          failed |= (key_nulls[k >> 3] >> (k & 7)) & 1;  // a null key
          const VariableSlot key = SplitSlot(Load<uint64_t>(keys.values + 8 * k));
          failed |= static_cast<uint64_t>(key_bytes - key.offset - key.size) >> 63;
          key_bytes_total += key.size;
        }
        entries += keys.num_elements;
        return failed;
      });
  if (bad != 0) return MeasureGeneric(column, plan, tile, counts);
  (*counts)[static_cast<size_t>(column.node)].elements += entries;
  (*counts)[static_cast<size_t>(node.children[0])].bytes += key_bytes_total;
  return Status::Ok();
}

// ---- fill: values written per tile ----
//
// The loops read everything of the column and the tile into locals first:
// stores into the byte buffers may alias anything, so a field read through
// a reference would be read again after every store.

/// Calls f(r, row, valid) for each row of `tile` (valid: 1 or 0) and sets
/// the rows' validity bits (every top-level value is row `tile.first + r` of
/// its node, and tiles start on a 64-bit word); returns the nulls.
template <typename F>
inline __attribute__((always_inline)) int64_t ForRows(const ColumnDecoder& column,
                                                      const RowTile& tile, uint8_t* validity,
                                                      F&& f) {
  const int64_t null_byte = column.field >> 3;
  const uint32_t null_shift = static_cast<uint32_t>(column.field & 7);
  const uint8_t* const* starts = tile.starts;
  const int64_t rows = tile.rows;
  uint8_t* words = validity + tile.first / 8;
  int64_t valid_rows = 0;
  for (int64_t r0 = 0; r0 < rows; r0 += 64) {
    const int64_t end = r0 + 64 < rows ? r0 + 64 : rows;
    uint64_t word = 0;
    for (int64_t r = r0; r < end; ++r) {
      const uint8_t* row = starts[r];
      const uint64_t valid = ((row[null_byte] >> null_shift) & 1) ^ 1;
      f(r, row, valid);
      word |= valid << (r - r0);
      valid_rows += static_cast<int64_t>(valid);
    }
    std::memcpy(words + r0 / 8, &word, static_cast<size_t>((end - r0 + 7) / 8));
  }
  return rows - valid_rows;
}

template <int kWidth>
void FillFixed(const ColumnDecoder& column, const FillContext& context, const RowTile& tile) {
  DecodeOutput& out = context.Output(column.node);
  uint8_t* values = out.values + tile.first * kWidth;
  const int64_t slot = column.slot;
  out.null_count +=
      ForRows(column, tile, out.validity, [&](int64_t r, const uint8_t* row, uint64_t valid) {
        const uint64_t value = Load<uint64_t>(row + slot) & (0 - valid);
        std::memcpy(values + r * kWidth, &value, kWidth);
      });
  out.length += tile.rows;
}

void FillBoolean(const ColumnDecoder& column, const FillContext& context, const RowTile& tile) {
  DecodeOutput& out = context.Output(column.node);
  uint8_t* bits = out.values;
  const int64_t slot = column.slot;
  const int64_t first = tile.first;
  out.null_count +=
      ForRows(column, tile, out.validity, [&](int64_t r, const uint8_t* row, uint64_t valid) {
        const int64_t i = first + r;
        bits[i >> 3] = static_cast<uint8_t>(
            bits[i >> 3] | (static_cast<uint32_t>(valid & (row[slot] != 0)) << (i & 7)));
      });
  out.length += tile.rows;
}

void FillSmallDecimal(const ColumnDecoder& column, const FillContext& context,
                      const RowTile& tile) {
  DecodeOutput& out = context.Output(column.node);
  uint8_t* values = out.values + tile.first * 16;
  const int64_t slot = column.slot;
  out.null_count +=
      ForRows(column, tile, out.validity, [&](int64_t r, const uint8_t* row, uint64_t valid) {
        const int64_t low = Load<int64_t>(row + slot) & static_cast<int64_t>(0 - valid);
        const int64_t high = low >> 63;
        std::memcpy(values + r * 16, &low, 8);
        std::memcpy(values + r * 16 + 8, &high, 8);
      });
  out.length += tile.rows;
}

template <typename Offset>
void FillString(const ColumnDecoder& column, const FillContext& context, const RowTile& tile) {
  DecodeOutput& out = context.Output(column.node);
  uint8_t* offsets = out.values + (tile.first + 1) * int64_t{sizeof(Offset)};
  uint8_t* data = out.data;
  const int64_t slot = column.slot;
  const uintptr_t short_end = ShortCopyEnd(tile.rows_end);
  int64_t position = out.data_size;
  out.null_count +=
      ForRows(column, tile, out.validity, [&](int64_t r, const uint8_t* row, uint64_t valid) {
        const VariableSlot value = SplitSlot(Load<uint64_t>(row + slot) & (0 - valid));
        CopyString(data + position, row + value.offset, value.size, short_end);
        position += value.size;
        const Offset end = static_cast<Offset>(position);
        std::memcpy(offsets + r * int64_t{sizeof(Offset)}, &end, sizeof(Offset));
      });
  out.data_size = position;
  out.length += tile.rows;
}

void FillNullType(const ColumnDecoder& column, const FillContext& context, const RowTile& tile) {
  DecodeOutput& out = context.Output(column.node);
  out.length += tile.rows;
  out.null_count += tile.rows;
}

/// Any other value: the tile of the column's values passed to its node's
/// fill function.
void FillNested(const ColumnDecoder& column, const FillContext& context, const RowTile& tile) {
  ValueTile values;
  values.count = tile.rows;
  const int64_t null_byte = column.field >> 3;
  const uint32_t null_shift = static_cast<uint32_t>(column.field & 7);
  uint64_t nulls = 0;
  for (int64_t r = 0; r < tile.rows; ++r) {
    const uint8_t* row = tile.starts[r];
    const uint64_t null = (row[null_byte] >> null_shift) & 1;
    nulls |= null << r;
    values.base[r] = null != 0 ? context.zeros : row;
    values.at[r] = values.base[r] + column.slot;
  }
  values.valid = ~nulls & LowBits(tile.rows);
  context.Fill(column.node, values);
}

/// The kernel of `isa` that fills a column of `node` from the tile's
/// transposed words, or null where the portable one serves.
FillColumnFn TransposedFill(const DecodeNode& node, row::KernelIsa isa) {
#if defined(ROWBRIDGE_HAVE_AVX512_KERNELS)
  if (isa == row::KernelIsa::kAvx512) {
    switch (node.kind) {
      case DecodeKind::kFixed:
        switch (node.width) {
          case 1: return FillFixed8Avx512;
          case 2: return FillFixed16Avx512;
          case 4: return FillFixed32Avx512;
          default: return FillFixed64Avx512;
        }
      case DecodeKind::kSmallDecimal: return FillSmallDecimalsAvx512;
      case DecodeKind::kString32: return FillStrings32Avx512;
      case DecodeKind::kString64: return FillStrings64Avx512;
      default: return nullptr;
    }
  }
#endif
  (void)node;
  (void)isa;
  return nullptr;
}

/// The check of `isa` that measures a column of `node` (whose measure is
/// `measure`) from the tile's transposed words, or null.
MeasureWordsFn TransposedMeasure(const DecodeNode& node, MeasureColumnFn measure,
                                 row::KernelIsa isa) {
#if defined(ROWBRIDGE_HAVE_AVX512_KERNELS)
  if (isa == row::KernelIsa::kAvx512 && measure != nullptr) {
    switch (node.kind) {
      case DecodeKind::kFixed: return MeasureRequiredAvx512;
      case DecodeKind::kSmallDecimal: return MeasureSmallDecimalsAvx512;
      case DecodeKind::kString32:
      case DecodeKind::kString64: return MeasureStringsAvx512;
      default: return nullptr;
    }
  }
#endif
  (void)node;
  (void)measure;
  (void)isa;
  return nullptr;
}

/// The transposition of `isa`'s kernels.
TransposeFn TransposeOf(row::KernelIsa isa) {
#if defined(ROWBRIDGE_HAVE_AVX512_KERNELS)
  if (isa == row::KernelIsa::kAvx512) return TransposeWordsAvx512;
#endif
  (void)isa;
  return nullptr;
}

ColumnDecoder Resolve(const DecodePlan& plan, const DecodeNode& node, int32_t index, int64_t field,
                      int64_t slot) {
  ColumnDecoder column{index, field, slot, nullptr, FillNested};
  bool fixed_elements = false;  // a list of nullable fixed-width or boolean elements
  bool string_key_map = false;  // string keys, nullable fixed-width or boolean values
  if (node.kind == DecodeKind::kMap) {
    const DecodeNode& key = plan.Child(node, 0);
    const DecodeNode& value = plan.Child(node, 1);
    string_key_map = (key.kind == DecodeKind::kString32 || key.kind == DecodeKind::kString64) &&
                     value.nullable &&
                     (value.kind == DecodeKind::kFixed || value.kind == DecodeKind::kBoolean);
  }
  if (node.kind == DecodeKind::kList32 || node.kind == DecodeKind::kList64) {
    const DecodeNode& element = plan.Child(node, 0);
    fixed_elements = element.nullable &&
                     (element.kind == DecodeKind::kFixed || element.kind == DecodeKind::kBoolean);
  }
  const bool nullable = node.nullable;
  switch (node.kind) {
    case DecodeKind::kNull:
      column.fill = FillNullType;
      column.measure = MeasureGeneric;  // a null's field must be nullable
      break;
    case DecodeKind::kBoolean:
      column.fill = FillBoolean;
      if (!nullable) column.measure = MeasureRequired;
      break;
    case DecodeKind::kFixed:
      switch (node.width) {
        case 1: column.fill = FillFixed<1>; break;
        case 2: column.fill = FillFixed<2>; break;
        case 4: column.fill = FillFixed<4>; break;
        default: column.fill = FillFixed<8>; break;
      }
      if (!nullable) column.measure = MeasureRequired;
      break;
    case DecodeKind::kSmallDecimal:
      column.fill = FillSmallDecimal;
      column.measure = nullable ? MeasureSmallDecimal<true> : MeasureSmallDecimal<false>;
      break;
    case DecodeKind::kString32:
    case DecodeKind::kString64:
      column.fill = node.kind == DecodeKind::kString32 ? FillString<int32_t> : FillString<int64_t>;
      column.measure = nullable ? MeasureString<true> : MeasureString<false>;
      break;
    case DecodeKind::kStruct:
      column.measure = node.leaf_fields ? MeasureLeafStruct : MeasureGeneric;
      break;
    case DecodeKind::kList32:
    case DecodeKind::kList64:
      column.measure = fixed_elements ? MeasureFixedList : MeasureGeneric;
      break;
    case DecodeKind::kMap:
      column.measure = string_key_map ? MeasureStringKeyMap : MeasureGeneric;
      break;
    default: column.measure = MeasureGeneric; break;
  }
  return column;
}

/// Fills `tile` with rows [first, first + rows) of the batch, and starts
/// loading the next tile's, a line at a time, since the column loops read a
/// tile with row-sized strides, which the hardware prefetchers do not
/// follow: all its bytes, or only the first `prefetch_bytes` of each row
/// when its rows are longer on average. Into L2: a tile of wide rows and
/// the next one do not fit L1 together. Returns
/// nonzero when a row's offsets are out of order or it is shorter than
/// `min_row_bytes` (CheckRowOffsets names it).
uint64_t LoadTile(const uint8_t* data, const int64_t* row_offsets, int64_t num_rows, int64_t first,
                  int64_t rows, int64_t min_row_bytes, int64_t prefetch_bytes, RowTile* tile) {
  tile->first = first;
  tile->rows = rows;
  tile->rows_end = data + row_offsets[num_rows];
  uint64_t bad = 0;
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t begin = row_offsets[first + r];
    const int64_t size = row_offsets[first + r + 1] - begin;
    bad |= static_cast<uint64_t>(begin | (size - min_row_bytes));  // a sign bit set
    tile->starts[r] = data + begin;
    tile->sizes[r] = size;
  }
  const int64_t next_end = first + 2 * rows < num_rows ? first + 2 * rows : num_rows;
  if (first + rows < num_rows) {
    const uint8_t* begin = data + row_offsets[first + rows];
    const uint8_t* end = data + row_offsets[next_end];
    if (prefetch_bytes >= (end - begin) / (next_end - first - rows)) {
      for (const uint8_t* line = begin; line < end; line += 64) __builtin_prefetch(line, 0, 2);
    } else {
      for (int64_t r = first + rows; r < next_end; ++r) {
        const uint8_t* row = data + row_offsets[r];
        for (int64_t line = 0; line < prefetch_bytes; line += 64)
          __builtin_prefetch(row + line, 0, 2);
      }
    }
  }
  return bad >> 63;
}

/// The error of the first row of [first, first + rows) whose offsets are
/// out of order or that is shorter than `min_row_bytes`.
Status CheckRowOffsets(const int64_t* row_offsets, int64_t first, int64_t rows,
                       int64_t min_row_bytes) {
  for (int64_t r = first; r < first + rows; ++r) {
    const int64_t begin = row_offsets[r];
    const int64_t end = row_offsets[r + 1];
    if (begin < 0 || end < begin) {
      return Status::Invalid("row " + std::to_string(r) + ": row offsets " + std::to_string(begin) +
                             " and " + std::to_string(end) + " are out of order");
    }
    if (end - begin < min_row_bytes) {
      return Status::Invalid("row " + std::to_string(r) + ": " + std::to_string(end - begin) +
                             " bytes, shorter than its " + std::to_string(min_row_bytes) +
                             "-byte bitset and slots");
    }
  }
  return Status::Ok();
}

/// Whether every column of `plan` is a leaf whose measure reads only its
/// slot: the measure pass then loads only rows' bitsets and slots.
bool MeasureReadsSlotsOnly(const DecodePlan& plan) {
  for (int32_t column : plan.columns) {
    const DecodeKind kind = plan.nodes[static_cast<size_t>(column)].kind;
    if (IsVariable(kind) && kind != DecodeKind::kString32 && kind != DecodeKind::kString64)
      return false;
  }
  return true;
}

}  // namespace

bool KeptWords::Reserve(int64_t num_rows, int64_t num_words) {
  const int64_t tiles = (num_rows + RowTile::kMaxRows - 1) / RowTile::kMaxRows;
  const int64_t words = tiles * num_words * RowTile::kMaxRows;
  if (words * 8 > kMaxBytes) return false;
  if (static_cast<int64_t>(storage_.size()) < words + 8)
    storage_.resize(static_cast<size_t>(words + 8));
  const uintptr_t address = reinterpret_cast<uintptr_t>(storage_.data());
  base_ = storage_.data() + ((64 - address % 64) % 64) / 8;
  return true;
}

ColumnDecoders ResolveColumnDecoders(const DecodePlan& plan, row::KernelIsa isa) {
  ColumnDecoders decoders;
  const int64_t num_fields = static_cast<int64_t>(plan.columns.size());
  for (int64_t i = 0; i < num_fields; ++i) {
    const int32_t index = plan.columns[static_cast<size_t>(i)];
    const DecodeNode& node = plan.nodes[static_cast<size_t>(index)];
    ColumnDecoder column = Resolve(plan, node, index, i, spark::BitsetBytes(num_fields) + 8 * i);
    // A column whose slot and null word are among the words a tile
    // transposes takes the transposed kernel of `isa`, if it has one.
    const int64_t words = std::max(column.slot / 8, column.field / 64) + 1;
    const FillColumnFn transposed = TransposedFill(node, isa);
    if (transposed != nullptr && words <= RowTile::kMaxWords) {
      column.fill = transposed;
      column.measure_words = TransposedMeasure(node, column.measure, isa);
      decoders.transpose = TransposeOf(isa);
      decoders.transpose_words = std::max(decoders.transpose_words, words);
    }
    decoders.columns.push_back(column);
  }
  return decoders;
}

Status MeasureRows(const DecodePlan& plan, const ColumnDecoders& columns, KeptWords* kept,
                   const uint8_t* data, const int64_t* row_offsets, int64_t num_rows,
                   std::vector<DecodeCounts>* counts) {
  counts->assign(plan.nodes.size(), DecodeCounts{});
  const int64_t prefetch_bytes = MeasureReadsSlotsOnly(plan) ? plan.fixed_row_bytes : INT64_MAX;
  // The tiles' transposed words, kept for the fill when they fit: the
  // measure's checks then read them too.
  const int64_t num_words = columns.transpose_words;
  kept->filled = columns.transpose != nullptr && kept->Reserve(num_rows, num_words);
  RowTile tile;
  tile.num_words = num_words;
  for (int64_t first = 0; first < num_rows; first += RowTile::kMaxRows) {
    const int64_t rows =
        num_rows - first < RowTile::kMaxRows ? num_rows - first : RowTile::kMaxRows;
    if (LoadTile(data, row_offsets, num_rows, first, rows, plan.fixed_row_bytes, prefetch_bytes,
                 &tile) != 0) {
      kept->filled = false;
      return CheckRowOffsets(row_offsets, first, rows, plan.fixed_row_bytes);
    }
    if (kept->filled) {
      tile.words = kept->Tile(first, num_words);
      columns.transpose(&tile);
    }
    for (const ColumnDecoder& column : columns.columns) {
      int64_t bytes = 0;
      if (kept->filled && column.measure_words != nullptr &&
          column.measure_words(column, plan, tile, &bytes) == 0) {
        (*counts)[static_cast<size_t>(column.node)].bytes += bytes;
        continue;
      }
      if (column.measure != nullptr) {
        const Status status = column.measure(column, plan, tile, counts);
        if (!status.ok()) {
          kept->filled = false;
          return status;
        }
      }
    }
  }
  // Values per node, top down: a column holds one per row, a struct's field
  // one per struct value, a list's or map's children one per element.
  for (int32_t column : plan.columns) (*counts)[static_cast<size_t>(column)].values = num_rows;
  for (size_t i = 0; i < plan.nodes.size(); ++i) {
    const DecodeNode& node = plan.nodes[i];
    const DecodeCounts& parent = (*counts)[i];
    const bool per_value = node.kind == DecodeKind::kStruct || node.kind == DecodeKind::kVariant;
    const int64_t child_values = per_value ? parent.values : parent.elements;
    for (int32_t child : node.children) (*counts)[static_cast<size_t>(child)].values = child_values;
  }
  return Status::Ok();
}

void FillRows(const DecodePlan& plan, const ColumnDecoders& columns, const KeptWords& kept,
              const NodeFills& fills, const uint8_t* data, const int64_t* row_offsets,
              int64_t num_rows, std::vector<DecodeOutput>* outputs) {
  FillContext context;
  context.plan = &plan;
  context.outputs = outputs->data();
  context.functions = fills.functions.data();
  context.zeros = fills.zeros.data();
  context.short_end = num_rows > 0 ? ShortCopyEnd(data + row_offsets[num_rows]) : 0;
  RowTile tile;
  tile.num_words = columns.transpose_words;
  alignas(64) uint64_t scratch[RowTile::kMaxWords * RowTile::kMaxRows];
  tile.words = scratch;
  for (int64_t first = 0; first < num_rows; first += RowTile::kMaxRows) {
    const int64_t rows =
        num_rows - first < RowTile::kMaxRows ? num_rows - first : RowTile::kMaxRows;
    LoadTile(data, row_offsets, num_rows, first, rows, 0, INT64_MAX, &tile);
    if (kept.filled) {
      tile.words = kept.Tile(first, tile.num_words);
    } else if (columns.transpose != nullptr) {
      columns.transpose(&tile);
    }
    for (const ColumnDecoder& column : columns.columns) column.fill(column, context, tile);
  }
}

}  // namespace rowbridge::decoder
