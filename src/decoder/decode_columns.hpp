// The row decoder's column drivers: each top-level field of the rows gets a
// measure and a fill function resolved once per schema (fast paths for
// fixed-width values, booleans, small decimals and strings; the per-value
// ValueMeasure / ValueFill for the rest), run over tiles of rows so that a
// tile's bytes stay in cache while every column reads them (the next tile's
// prefetched: the column loops' row-sized strides defeat the hardware
// prefetchers).
#pragma once

#include <cstdint>
#include <vector>

#include "decoder/decode_passes.hpp"

namespace rowbridge::decoder {

/// The rows of one tile: where each starts and how long it is.
struct RowTile {
  static constexpr int64_t kMaxRows = 64;  // a multiple of 64; 27 KB of wide_strings rows
  const uint8_t* starts[kMaxRows];
  int64_t sizes[kMaxRows];
  int64_t first = 0;  // the batch row of starts[0]; a multiple of kMaxRows
  int64_t rows = 0;
  /// The end of the batch's rows (of the last row): bytes before it may be
  /// read, those of other values included.
  const uint8_t* rows_end = nullptr;
};

struct ColumnDecoder;
using MeasureColumnFn = Status (*)(const ColumnDecoder& column, const DecodePlan& plan,
                                   const RowTile& tile, std::vector<DecodeCounts>* counts);
using FillColumnFn = void (*)(const ColumnDecoder& column, const DecodePlan& plan,
                              const RowTile& tile, std::vector<DecodeOutput>* outputs);

/// A top-level field: its node, its place in the row, its functions.
struct ColumnDecoder {
  int32_t node = 0;
  int64_t field = 0;  // its null bit in the row's bitset
  int64_t slot = 0;   // byte offset of its slot in the row
  MeasureColumnFn measure = nullptr;
  FillColumnFn fill = nullptr;
};

/// The column decoders of `plan`'s top-level fields.
std::vector<ColumnDecoder> ResolveColumnDecoders(const DecodePlan& plan);

}  // namespace rowbridge::decoder
