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
  /// The first `num_words` 64-bit words of each row (its bitset and slots),
  /// column-major, for the kernels that read slots so: word w of row r at
  /// words[w * kMaxRows + r], 64-byte aligned. Written by the tile's
  /// TransposeFn, when the columns have one; kept from the measure pass to
  /// the fill when the batch's words fit KeptWords.
  static constexpr int64_t kMaxWords = 32;
  int64_t num_words = 0;
  uint64_t* words = nullptr;

  const uint64_t* Words(int64_t w) const { return words + w * kMaxRows; }
};

/// The transposed words of a batch's tiles, kept from the measure pass for
/// the fill when they take at most kMaxBytes: a block of num_words *
/// RowTile::kMaxRows words per tile. Reused from batch to batch.
class KeptWords {
 public:
  static constexpr int64_t kMaxBytes = int64_t{512} << 10;

  /// Room for `num_rows` rows of `num_words` words; false (and no room) when
  /// they would take more than kMaxBytes. Throws std::bad_alloc.
  bool Reserve(int64_t num_rows, int64_t num_words);
  /// Whether the last measure pass left every tile's words here (set by
  /// MeasureRows, read by FillRows).
  bool filled = false;
  /// The block of the tile whose first row is `first`.
  uint64_t* Tile(int64_t first, int64_t num_words) const {
    return base_ + (first / RowTile::kMaxRows) * num_words * RowTile::kMaxRows;
  }

 private:
  std::vector<uint64_t> storage_;
  uint64_t* base_ = nullptr;  // storage_'s first 64-byte-aligned word
};

/// Fills tile->words with the first tile->num_words words of its rows.
using TransposeFn = void (*)(RowTile* tile);

struct ColumnDecoder;
using MeasureColumnFn = Status (*)(const ColumnDecoder& column, const DecodePlan& plan,
                                   const RowTile& tile, std::vector<DecodeCounts>* counts);
using FillColumnFn = void (*)(const ColumnDecoder& column, const FillContext& context,
                              const RowTile& tile);
/// Checks a column's values in the tile's transposed words and sets *bytes
/// to their string bytes. Returns nonzero when any fails; the column's
/// `measure` then names the failure.
using MeasureWordsFn = uint64_t (*)(const ColumnDecoder& column, const DecodePlan& plan,
                                    const RowTile& tile, int64_t* bytes);

/// A top-level field: its node, its place in the row, its functions.
struct ColumnDecoder {
  int32_t node = 0;
  int64_t field = 0;  // its null bit in the row's bitset
  int64_t slot = 0;   // byte offset of its slot in the row
  MeasureColumnFn measure = nullptr;
  FillColumnFn fill = nullptr;
  /// The check `measure` makes, from the transposed words (null where the
  /// column has none, or reads no slot).
  MeasureWordsFn measure_words = nullptr;
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
