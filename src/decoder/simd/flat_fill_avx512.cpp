// The AVX-512 fill kernels of top-level fixed-width and string columns
// (decode_columns.hpp). A tile's rows are first transposed, eight rows by
// eight words at a time, so that each column's slots and null words lie in
// a row of RowTile::words; each column then takes eight values per step
// from there, a null's masked to zero. The portable kernels in
// decode_columns.cpp write the same bytes (flat_fill_kernels_test.cc checks).
// Compiled with AVX-512 flags; picked at run time only where the CPU runs it.
#include <immintrin.h>

#include <cstring>

#include "decoder/decode_columns.hpp"
#include "decoder/decode_values.hpp"
#include "decoder/simd/flat_fill_kernels.hpp"

// GCC 12's unmasked AVX-512 intrinsics pass _mm512_undefined_*() as their
// merge source, which -Wmaybe-uninitialized reports once inlined.
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace rowbridge::decoder {
namespace {

/// The lanes of the eight rows from `r0` on that the tile holds.
inline __mmask8 RowLanes(int64_t rows, int64_t r0) {
  return rows - r0 >= 8 ? __mmask8{0xff} : static_cast<__mmask8>((1u << (rows - r0)) - 1);
}

/// Rows r0..r7 become columns: lane i of out[j] is word j of row i. Written
/// out in full, so that every vector stays in a register.
inline __attribute__((always_inline)) void Transpose8x8(__m512i r0, __m512i r1, __m512i r2,
                                                        __m512i r3, __m512i r4, __m512i r5,
                                                        __m512i r6, __m512i r7, __m512i* out) {
  // Pairs of rows, words interleaved: a0 holds rows 0-1's words 0 2 4 6,
  // a1 their words 1 3 5 7; a2, a3 rows 2-3's; and so on.
  const __m512i a0 = _mm512_unpacklo_epi64(r0, r1), a1 = _mm512_unpackhi_epi64(r0, r1);
  const __m512i a2 = _mm512_unpacklo_epi64(r2, r3), a3 = _mm512_unpackhi_epi64(r2, r3);
  const __m512i a4 = _mm512_unpacklo_epi64(r4, r5), a5 = _mm512_unpackhi_epi64(r4, r5);
  const __m512i a6 = _mm512_unpacklo_epi64(r6, r7), a7 = _mm512_unpackhi_epi64(r6, r7);
  // Quads of rows: b0 holds rows 0-3's words 0 and 4, b1 1 and 5, b2 2 and
  // 6, b3 3 and 7; b4..b7 rows 4-7's.
  const __m512i low_pairs = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13);
  const __m512i high_pairs = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
  const __m512i b0 = _mm512_permutex2var_epi64(a0, low_pairs, a2);
  const __m512i b1 = _mm512_permutex2var_epi64(a1, low_pairs, a3);
  const __m512i b2 = _mm512_permutex2var_epi64(a0, high_pairs, a2);
  const __m512i b3 = _mm512_permutex2var_epi64(a1, high_pairs, a3);
  const __m512i b4 = _mm512_permutex2var_epi64(a4, low_pairs, a6);
  const __m512i b5 = _mm512_permutex2var_epi64(a5, low_pairs, a7);
  const __m512i b6 = _mm512_permutex2var_epi64(a4, high_pairs, a6);
  const __m512i b7 = _mm512_permutex2var_epi64(a5, high_pairs, a7);
  const __m512i low_quads = _mm512_setr_epi64(0, 1, 2, 3, 8, 9, 10, 11);
  const __m512i high_quads = _mm512_setr_epi64(4, 5, 6, 7, 12, 13, 14, 15);
  out[0] = _mm512_permutex2var_epi64(b0, low_quads, b4);
  out[1] = _mm512_permutex2var_epi64(b1, low_quads, b5);
  out[2] = _mm512_permutex2var_epi64(b2, low_quads, b6);
  out[3] = _mm512_permutex2var_epi64(b3, low_quads, b7);
  out[4] = _mm512_permutex2var_epi64(b0, high_quads, b4);
  out[5] = _mm512_permutex2var_epi64(b1, high_quads, b5);
  out[6] = _mm512_permutex2var_epi64(b2, high_quads, b6);
  out[7] = _mm512_permutex2var_epi64(b3, high_quads, b7);
}

/// The rows of `lanes` whose value of `column` is not null, from the
/// transposed null words of rows r0..r0 + 7.
inline __mmask8 ValidLanes(const ColumnDecoder& column, const RowTile& tile, __mmask8 lanes,
                           int64_t r0) {
  const __m512i words = _mm512_load_si512(tile.Words(column.field >> 6) + r0);
  return _mm512_mask_testn_epi64_mask(lanes, words,
                                      _mm512_set1_epi64(int64_t{1} << (column.field & 63)));
}

inline __m512i Slots(const ColumnDecoder& column, const RowTile& tile, int64_t r0) {
  return _mm512_load_si512(tile.Words(column.slot >> 3) + r0);
}

template <int kWidth>
void FillFixed(const ColumnDecoder& column, const FillContext& context, const RowTile& tile) {
  DecodeOutput& out = context.Output(column.node);
  uint8_t* values = out.values + tile.first * kWidth;
  uint64_t valid = 0;
  for (int64_t r0 = 0; r0 < tile.rows; r0 += 8) {
    const __mmask8 lanes = RowLanes(tile.rows, r0);
    const __mmask8 valid_lanes = ValidLanes(column, tile, lanes, r0);
    const __m512i slots = _mm512_maskz_mov_epi64(valid_lanes, Slots(column, tile, r0));
    uint8_t* to = values + r0 * kWidth;
    if constexpr (kWidth == 8) {
      _mm512_mask_storeu_epi64(to, lanes, slots);
    } else if constexpr (kWidth == 4) {
      _mm256_mask_storeu_epi32(to, lanes, _mm512_cvtepi64_epi32(slots));
    } else if constexpr (kWidth == 2) {
      _mm_mask_storeu_epi16(to, lanes, _mm512_cvtepi64_epi16(slots));
    } else {
      _mm_mask_storeu_epi8(to, lanes, _mm512_cvtepi64_epi8(slots));
    }
    valid |= static_cast<uint64_t>(valid_lanes) << r0;
  }
  AppendValidity(&out, valid, tile.rows);
}

/// Decimals of precision <= 18: each unscaled long widened to 16 bytes.
void FillSmallDecimals(const ColumnDecoder& column, const FillContext& context,
                       const RowTile& tile) {
  DecodeOutput& out = context.Output(column.node);
  uint8_t* values = out.values + tile.first * 16;
  const __m512i low_halves = _mm512_setr_epi64(0, 8, 1, 9, 2, 10, 3, 11);
  const __m512i high_halves = _mm512_setr_epi64(4, 12, 5, 13, 6, 14, 7, 15);
  uint64_t valid = 0;
  for (int64_t r0 = 0; r0 < tile.rows; r0 += 8) {
    const __mmask8 lanes = RowLanes(tile.rows, r0);
    const __mmask8 valid_lanes = ValidLanes(column, tile, lanes, r0);
    const __m512i low = _mm512_maskz_mov_epi64(valid_lanes, Slots(column, tile, r0));
    const __m512i high = _mm512_srai_epi64(low, 63);
    // Lanes 2i and 2i + 1 of a pair: value i's low and high words.
    const __mmask8 first =
        static_cast<__mmask8>(_pdep_u32(lanes, 0x5555) | (_pdep_u32(lanes, 0x5555) << 1));
    const __mmask8 second =
        static_cast<__mmask8>(_pdep_u32(lanes >> 4, 0x5555) | (_pdep_u32(lanes >> 4, 0x5555) << 1));
    _mm512_mask_storeu_epi64(values + r0 * 16, first,
                             _mm512_permutex2var_epi64(low, low_halves, high));
    _mm512_mask_storeu_epi64(values + r0 * 16 + 64, second,
                             _mm512_permutex2var_epi64(low, high_halves, high));
    valid |= static_cast<uint64_t>(valid_lanes) << r0;
  }
  AppendValidity(&out, valid, tile.rows);
}

template <typename Offset>
void FillStrings(const ColumnDecoder& column, const FillContext& context, const RowTile& tile) {
  DecodeOutput& out = context.Output(column.node);
  uint8_t* offsets = out.values + (tile.first + 1) * int64_t{sizeof(Offset)};
  uint8_t* data = out.data;
  const uintptr_t short_end = context.short_end;
  const __m512i low32 = _mm512_set1_epi64(0xffffffff);
  const __m512i zero = _mm512_setzero_si512();
  int64_t position = out.data_size;
  uint64_t valid = 0;
  alignas(64) int64_t sources[8];
  alignas(64) int64_t sizes[8];
  for (int64_t r0 = 0; r0 < tile.rows; r0 += 8) {
    const __mmask8 lanes = RowLanes(tile.rows, r0);
    const __mmask8 valid_lanes = ValidLanes(column, tile, lanes, r0);
    const __m512i slots = _mm512_maskz_mov_epi64(valid_lanes, Slots(column, tile, r0));
    const __m512i starts = _mm512_maskz_loadu_epi64(lanes, tile.starts + r0);
    const __m512i size = _mm512_and_si512(slots, low32);
    _mm512_store_si512(sources, _mm512_add_epi64(starts, _mm512_srli_epi64(slots, 32)));
    _mm512_store_si512(sizes, size);
    // Each value's end: the inclusive prefix sum of the sizes, after `position`.
    __m512i end = size;
    end = _mm512_add_epi64(end, _mm512_alignr_epi64(end, zero, 7));
    end = _mm512_add_epi64(end, _mm512_alignr_epi64(end, zero, 6));
    end = _mm512_add_epi64(end, _mm512_alignr_epi64(end, zero, 4));
    end = _mm512_add_epi64(end, _mm512_set1_epi64(position));
    if constexpr (sizeof(Offset) == 4) {
      _mm256_mask_storeu_epi32(offsets + r0 * 4, lanes, _mm512_cvtepi64_epi32(end));
    } else {
      _mm512_mask_storeu_epi64(offsets + r0 * 8, lanes, end);
    }
    const int64_t count = tile.rows - r0 < 8 ? tile.rows - r0 : 8;
    for (int64_t i = 0; i < count; ++i) {
      CopyString(data + position, reinterpret_cast<const uint8_t*>(sources[i]), sizes[i],
                 short_end);
      position += sizes[i];
    }
    valid |= static_cast<uint64_t>(valid_lanes) << r0;
  }
  out.data_size = position;
  AppendValidity(&out, valid, tile.rows);
}

/// The rows of `lanes` whose value of `column` is null.
inline __mmask8 NullLanes(const ColumnDecoder& column, const RowTile& tile, __mmask8 lanes,
                          int64_t r0) {
  return static_cast<__mmask8>(lanes & ~ValidLanes(column, tile, lanes, r0));
}

}  // namespace

uint64_t MeasureStringsAvx512(const ColumnDecoder& column, const DecodePlan& plan,
                              const RowTile& tile, int64_t* bytes) {
  const bool nullable = plan.nodes[static_cast<size_t>(column.node)].nullable;
  const __m512i low32 = _mm512_set1_epi64(0xffffffff);
  __m512i total = _mm512_setzero_si512();
  __mmask8 bad = 0;
  for (int64_t r0 = 0; r0 < tile.rows; r0 += 8) {
    const __mmask8 lanes = RowLanes(tile.rows, r0);
    const __mmask8 valid = ValidLanes(column, tile, lanes, r0);
    if (!nullable) bad |= static_cast<__mmask8>(lanes & ~valid);
    const __m512i slots = _mm512_maskz_mov_epi64(valid, Slots(column, tile, r0));
    const __m512i size = _mm512_and_si512(slots, low32);
    const __m512i end = _mm512_add_epi64(_mm512_srli_epi64(slots, 32), size);
    const __m512i row_size = _mm512_maskz_loadu_epi64(lanes, tile.sizes + r0);
    bad |= _mm512_mask_cmpgt_epi64_mask(valid, end, row_size);  // the value leaves its row
    total = _mm512_add_epi64(total, size);
  }
  alignas(64) int64_t lanes_total[8];
  _mm512_store_si512(lanes_total, total);
  int64_t sum = 0;
  for (int64_t i = 0; i < 8; ++i) sum += lanes_total[i];
  *bytes = sum;
  return bad;
}

uint64_t MeasureSmallDecimalsAvx512(const ColumnDecoder& column, const DecodePlan& plan,
                                    const RowTile& tile, int64_t*) {
  const DecodeNode& node = plan.nodes[static_cast<size_t>(column.node)];
  uint64_t power = 1;  // 10^precision, precision <= 18
  for (int32_t i = 0; i < node.precision; ++i) power *= 10;
  const __m512i bound = _mm512_set1_epi64(static_cast<int64_t>(power));
  __mmask8 bad = 0;
  for (int64_t r0 = 0; r0 < tile.rows; r0 += 8) {
    const __mmask8 lanes = RowLanes(tile.rows, r0);
    const __mmask8 valid = ValidLanes(column, tile, lanes, r0);
    if (!node.nullable) bad |= static_cast<__mmask8>(lanes & ~valid);
    // |v| < 10^precision, INT64_MIN's absolute value read as 2^63.
    const __m512i magnitude = _mm512_abs_epi64(Slots(column, tile, r0));
    bad |= _mm512_mask_cmpge_epu64_mask(valid, magnitude, bound);
  }
  return bad;
}

uint64_t MeasureRequiredAvx512(const ColumnDecoder& column, const DecodePlan&, const RowTile& tile,
                               int64_t*) {
  __mmask8 nulls = 0;
  for (int64_t r0 = 0; r0 < tile.rows; r0 += 8)
    nulls |= NullLanes(column, tile, RowLanes(tile.rows, r0), r0);
  return nulls;
}

void TransposeWordsAvx512(RowTile* tile) {
  const int64_t num_words = tile->num_words;
  for (int64_t r0 = 0; r0 < tile->rows; r0 += 8) {
    const int64_t count = tile->rows - r0 < 8 ? tile->rows - r0 : 8;
    // Rows past the tile's end load nothing (a masked-out load reads no
    // memory), from its first row's address.
    const uint8_t* const* starts = tile->starts + r0;
    const uint8_t* row[8];
    for (int64_t i = 0; i < 8; ++i) row[i] = starts[i < count ? i : 0];
    const unsigned present = (1u << count) - 1;
    for (int64_t w0 = 0; w0 < num_words; w0 += 8) {
      const int64_t words = num_words - w0 < 8 ? num_words - w0 : 8;
      const __mmask8 lanes = static_cast<__mmask8>((1u << words) - 1);
      const auto load = [&](int64_t i) {
        const __mmask8 mask = static_cast<__mmask8>(lanes & (0u - ((present >> i) & 1)));
        return _mm512_maskz_loadu_epi64(mask, row[i] + 8 * w0);
      };
      __m512i columns[8];
      Transpose8x8(load(0), load(1), load(2), load(3), load(4), load(5), load(6), load(7), columns);
      uint64_t* to = tile->words + w0 * RowTile::kMaxRows + r0;
      for (int64_t j = 0; j < words; ++j)
        _mm512_store_si512(to + j * RowTile::kMaxRows, columns[j]);
    }
  }
}

void FillFixed64Avx512(const ColumnDecoder& column, const FillContext& context,
                       const RowTile& tile) {
  FillFixed<8>(column, context, tile);
}

void FillFixed32Avx512(const ColumnDecoder& column, const FillContext& context,
                       const RowTile& tile) {
  FillFixed<4>(column, context, tile);
}

void FillFixed16Avx512(const ColumnDecoder& column, const FillContext& context,
                       const RowTile& tile) {
  FillFixed<2>(column, context, tile);
}

void FillFixed8Avx512(const ColumnDecoder& column, const FillContext& context,
                      const RowTile& tile) {
  FillFixed<1>(column, context, tile);
}

void FillSmallDecimalsAvx512(const ColumnDecoder& column, const FillContext& context,
                             const RowTile& tile) {
  FillSmallDecimals(column, context, tile);
}

void FillStrings32Avx512(const ColumnDecoder& column, const FillContext& context,
                         const RowTile& tile) {
  FillStrings<int32_t>(column, context, tile);
}

void FillStrings64Avx512(const ColumnDecoder& column, const FillContext& context,
                         const RowTile& tile) {
  FillStrings<int64_t>(column, context, tile);
}

}  // namespace rowbridge::decoder
