// The row decoder's two passes over a batch of UnsafeRows. The measure pass
// reads every slot, offset and header the values need and checks them (so
// that the fill pass reads nothing it has not checked), and counts each
// node's values and bytes (so that every Arrow buffer is allocated once, at
// its final size). The fill pass then writes the values into those buffers.
#pragma once

#include <cstdint>
#include <vector>

#include "decoder/decode_plan.hpp"
#include "rowbridge/status.hpp"

namespace rowbridge::decoder {

struct ColumnDecoder;   // decode_columns.hpp
struct ColumnDecoders;  // decode_columns.hpp
class KeptWords;        // decode_columns.hpp
struct NodeFills;       // fill_tile.hpp

/// Bytes of an UnsafeRow, a nested row, an UnsafeArrayData or an
/// UnsafeMapData: the base offsets in its slots are relative to.
struct RowRegion {
  const uint8_t* base = nullptr;
  int64_t size = 0;
};

/// What the measure pass counts per node.
struct DecodeCounts {
  /// Values the node's Arrow array holds (nulls included).
  int64_t values = 0;
  /// A list's or map's elements, over all its values.
  int64_t elements = 0;
  /// A string node's bytes.
  int64_t bytes = 0;
};

/// Checks rows [0, num_rows) of the batch (row i at data + row_offsets[i],
/// up to row_offsets[i + 1]) against `plan` (its fields decoded by
/// `columns`, decode_columns.hpp) and sets counts[node] for every node;
/// leaves each tile's transposed words in `kept` when they fit. Returns an error naming the
/// field and the row for anything that would read outside its region or has no Arrow value. Borrows
/// everything.
Status MeasureRows(const DecodePlan& plan, const ColumnDecoders& columns, KeptWords* kept,
                   const uint8_t* data, const int64_t* row_offsets, int64_t num_rows,
                   std::vector<DecodeCounts>* counts);

/// The Arrow buffers of one node, sized from its counts, and the cursors
/// of the fill pass.
struct DecodeOutput {
  uint8_t* validity = nullptr;  // zeroed; a bit is set per valid value
  uint8_t* values = nullptr;    // fixed values, boolean bits (zeroed), or offsets
  uint8_t* data = nullptr;      // string bytes
  int64_t length = 0;           // values written
  int64_t null_count = 0;
  int64_t data_size = 0;  // string bytes written
};

/// Writes the values of rows the measure pass accepted into `outputs` (one
/// per node, buffers sized from the counts; offsets[0] already written),
/// with the fill functions `fills` of `plan`'s nodes.
void FillRows(const DecodePlan& plan, const ColumnDecoders& columns, const KeptWords& kept,
              const NodeFills& fills, const uint8_t* data, const int64_t* row_offsets,
              int64_t num_rows, std::vector<DecodeOutput>* outputs);

}  // namespace rowbridge::decoder
