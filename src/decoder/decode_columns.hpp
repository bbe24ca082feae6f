// The row decoder's column drivers: each top-level field of the rows gets a
// measure and a fill function resolved once per schema (fast paths for
// fixed-width values, booleans, small decimals and strings; the per-value
// ValueMeasure and the per-node fill functions of fill_tile.hpp for the rest), run over tiles of
// rows so that a tile's bytes stay in cache while every column reads them (the next tile's
// prefetched: the column loops' row-sized strides defeat the hardware
// prefetchers).
#pragma once

#include <cstdint>
#include <vector>

#include "decoder/decode_passes.hpp"
#include "decoder/fill_tile.hpp"
#include "row/kernel_isa.hpp"

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
  /// The first `words` 64-bit words of each row (its bitset and slots),
  /// column-major, for the kernels that read slots so: word w of row r at
  /// words[w][r]. Written by the tile's TransposeFn, when the columns have one.
  static constexpr int64_t kMaxWords = 32;
  int64_t num_words = 0;
  alignas(64) uint64_t words[kMaxWords][kMaxRows];
};

/// Fills tile->words with the first tile->num_words words of its rows.
using TransposeFn = void (*)(RowTile* tile);

struct ColumnDecoder;
using MeasureColumnFn = Status (*)(const ColumnDecoder& column, const DecodePlan& plan,
                                   const RowTile& tile, std::vector<DecodeCounts>* counts);
using FillColumnFn = void (*)(const ColumnDecoder& column, const FillContext& context,
                              const RowTile& tile);

/// A top-level field: its node, its place in the row, its functions.
struct ColumnDecoder {
  int32_t node = 0;
  int64_t field = 0;  // its null bit in the row's bitset
  int64_t slot = 0;   // byte offset of its slot in the row
  MeasureColumnFn measure = nullptr;
  FillColumnFn fill = nullptr;
};

/// The column decoders of a plan's top-level fields, and the transposition
/// their fill kernels read, if any.
struct ColumnDecoders {
  std::vector<ColumnDecoder> columns;
  TransposeFn transpose = nullptr;
  int64_t transpose_words = 0;  // <= RowTile::kMaxWords
};

/// The column decoders of `plan`'s top-level fields, with the fill kernels
/// of `isa` where it has them (the CPU must run it).
ColumnDecoders ResolveColumnDecoders(const DecodePlan& plan, row::KernelIsa isa);

}  // namespace rowbridge::decoder
