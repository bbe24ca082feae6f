// The per-ISA fill kernels of top-level columns (decode_columns.hpp), each
// defined in its instruction set's file of this folder, compiled for it and
// picked by ResolveColumnDecoders only where the CPU runs it.
#pragma once

#include "decoder/decode_columns.hpp"

namespace rowbridge::decoder {

// simd/flat_fill_avx512.cpp. The fill kernels read the slots and null words
// TransposeWordsAvx512 left in the tile.
void TransposeWordsAvx512(RowTile* tile);
void FillFixed64Avx512(const ColumnDecoder& column, const FillContext& context,
                       const RowTile& tile);
void FillFixed32Avx512(const ColumnDecoder& column, const FillContext& context,
                       const RowTile& tile);
void FillFixed16Avx512(const ColumnDecoder& column, const FillContext& context,
                       const RowTile& tile);
void FillFixed8Avx512(const ColumnDecoder& column, const FillContext& context, const RowTile& tile);
void FillSmallDecimalsAvx512(const ColumnDecoder& column, const FillContext& context,
                             const RowTile& tile);
// The checks of the measure pass from the same words (decode_columns.hpp's
// MeasureWordsFn): strings' bounds and bytes, decimals' precision, and the
// nulls of a column that may have none.
uint64_t MeasureStringsAvx512(const ColumnDecoder& column, const DecodePlan& plan,
                              const RowTile& tile, int64_t* bytes);
uint64_t MeasureSmallDecimalsAvx512(const ColumnDecoder& column, const DecodePlan& plan,
                                    const RowTile& tile, int64_t* bytes);
uint64_t MeasureRequiredAvx512(const ColumnDecoder& column, const DecodePlan& plan,
                               const RowTile& tile, int64_t* bytes);
void FillStrings32Avx512(const ColumnDecoder& column, const FillContext& context,
                         const RowTile& tile);
void FillStrings64Avx512(const ColumnDecoder& column, const FillContext& context,
                         const RowTile& tile);

}  // namespace rowbridge::decoder
