// The AVX-512 sizing kernels (see nested/size_kernels.hpp): eight items at a
// time, liveness as a lane mask read straight from the validity bits, prefix
// sums across the lanes by shifted adds, the tail of a run as masked lanes.
// Compiled and linked like binary_writers_avx512.cpp: everything here but the
// entry point has internal linkage, and it uses no library type with inline
// members (check_isa_symbols.cmake).
// GCC 12's unmasked AVX-512 intrinsics pass _mm512_undefined_*() as their
// merge source, which -Wmaybe-uninitialized reports once inlined.
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

#include "row/nested/size_kernels.hpp"
#include "row/simd/avx512_lanes.hpp"
#include "row/simd/isa_kernels.hpp"

namespace rowbridge::row {
namespace {

/// The lanes of items [j, count) among eight from j.
inline __mmask8 Lanes(int64_t j, int64_t count) {
  const int64_t left = count - j;
  return static_cast<__mmask8>(left >= 8 ? 0xff : (1u << left) - 1);
}

/// The live lanes among `lanes` (the low ones) of the items from j.
inline __mmask8 LiveLanes(LiveItems live, int64_t j, __mmask8 lanes) {
  if (live.bits == nullptr) return lanes;
  return EightBits(live.bits, live.offset + j, __builtin_popcount(lanes));
}

/// The last lane in every lane: the running total carried from one step to
/// the next in a register (a shorter chain than through a scalar).
inline __m512i BroadcastLast(__m512i v) {
  return _mm512_permutexvar_epi64(_mm512_set1_epi64(7), v);
}

void FillLive(int64_t* out, int64_t count, int64_t value, LiveItems live) {
  const __m512i values = _mm512_set1_epi64(value);
  for (int64_t j = 0; j < count; j += 8) {
    const __mmask8 lanes = Lanes(j, count);
    _mm512_mask_storeu_epi64(out + j, lanes,
                             _mm512_maskz_mov_epi64(LiveLanes(live, j, lanes), values));
  }
}

void Clamp(int64_t* sizes, int64_t count, int64_t limit) {
  const __m512i limits = _mm512_set1_epi64(limit);
  for (int64_t j = 0; j < count; j += 8) {
    const __mmask8 lanes = Lanes(j, count);
    const __m512i v = _mm512_maskz_loadu_epi64(lanes, sizes + j);
    _mm512_mask_storeu_epi64(sizes + j, lanes, _mm512_min_epi64(v, limits));
  }
}

void ExclusiveScan(const int64_t* in, int64_t* out, int64_t count) {
  __m512i running = _mm512_setzero_si512();
  for (int64_t c = 0; c < count; c += 8) {
    const __mmask8 lanes = Lanes(c, count);
    const __m512i v = _mm512_maskz_loadu_epi64(lanes, in + c);
    const __m512i through = _mm512_add_epi64(PrefixSum(v), running);
    _mm512_mask_storeu_epi64(out + c, lanes, _mm512_sub_epi64(through, v));
    running = BroadcastLast(through);  // masked-off lanes add 0
  }
  _mm512_mask_storeu_epi64(out + count, 1, running);
}

void ArraySizes(const ArraySizing& sizing) {
  const ArraySizing s = sizing;  // a local: the stores may alias it
  const __m512i shift = _mm512_set1_epi64(__builtin_ctzll(static_cast<uint64_t>(s.element_size)));
  const __m512i seven = _mm512_set1_epi64(7);
  const __m512i limits = _mm512_set1_epi64(s.limit);
  for (int64_t j = 0; j < s.count; j += 8) {
    const __mmask8 lanes = Lanes(j, s.count);
    const __m512i begin = _mm512_maskz_loadu_epi64(lanes, s.first + j);
    const __m512i end = _mm512_maskz_loadu_epi64(lanes, s.first + j + 1);
    const __m512i n = _mm512_sub_epi64(end, begin);
    // 8 + ceil(n / 64) * 8 + round8(n * element_size)
    const __m512i words = _mm512_srli_epi64(_mm512_add_epi64(n, _mm512_set1_epi64(63)), 6);
    const __m512i slots =
        _mm512_andnot_si512(seven, _mm512_add_epi64(_mm512_sllv_epi64(n, shift), seven));
    __m512i size = _mm512_add_epi64(
        _mm512_add_epi64(_mm512_set1_epi64(8), _mm512_slli_epi64(words, 3)), slots);
    if (s.prefix != nullptr) {
      const __m512i zero = _mm512_setzero_si512();
      const __m512i after = _mm512_mask_i64gather_epi64(zero, lanes, end, s.prefix, 8);
      const __m512i before = _mm512_mask_i64gather_epi64(zero, lanes, begin, s.prefix, 8);
      size = _mm512_min_epi64(_mm512_add_epi64(size, _mm512_sub_epi64(after, before)), limits);
    }
    _mm512_mask_storeu_epi64(s.out + j, lanes,
                             _mm512_maskz_mov_epi64(LiveLanes(s.live, j, lanes), size));
  }
}

RangesFound OffsetRanges32(const OffsetRanges& ranges) {
  const OffsetRanges r = ranges;  // a local: the stores may alias it
  const __m512i limit = _mm512_set1_epi64(r.limit);
  const __m512i max_length = _mm512_set1_epi64(r.max_length);
  const auto* offsets = reinterpret_cast<const int32_t*>(r.offsets);
  __m512i running = _mm512_setzero_si512();
  __mmask8 out_of_range = 0;
  __mmask8 dropped = 0;
  for (int64_t j = 0; j < r.count; j += 8) {
    const __mmask8 lanes = Lanes(j, r.count);
    const __m512i start = _mm512_cvtepi32_epi64(_mm256_maskz_loadu_epi32(lanes, offsets + j));
    const __m512i end = _mm512_cvtepi32_epi64(_mm256_maskz_loadu_epi32(lanes, offsets + j + 1));
    const __m512i n = _mm512_sub_epi64(end, start);
    const __mmask8 live = LiveLanes(r.live, j, lanes);
    // Unsigned, as the portable kernel: start > limit, n > max_length or
    // n > limit - start (a negative start or length is huge).
    const __mmask8 bad =
        live & (_mm512_cmpgt_epu64_mask(start, limit) | _mm512_cmpgt_epu64_mask(n, max_length) |
                _mm512_cmpgt_epu64_mask(n, _mm512_sub_epi64(limit, start)));
    out_of_range |= bad;
    const __m512i kept = _mm512_maskz_mov_epi64(static_cast<__mmask8>(live & ~bad), n);
    dropped |= static_cast<__mmask8>(_mm512_cmpneq_epi64_mask(kept, n) & lanes);
    const __m512i through = _mm512_add_epi64(PrefixSum(kept), running);
    _mm512_mask_storeu_epi64(r.first + j + 1, lanes, through);
    running = BroadcastLast(through);  // masked-off lanes add 0
  }
  return RangesFound{out_of_range != 0, dropped != 0};
}

bool PaddedLengthScan(const PaddedLengths& lengths) {
  const PaddedLengths p = lengths;  // a local: the stores may alias it
  const auto* offsets = reinterpret_cast<const int32_t*>(p.offsets);
  const __m512i seven = _mm512_set1_epi64(7);
  __m512i running = _mm512_setzero_si512();
  __m512i sign = _mm512_setzero_si512();
  for (int64_t c = 0; c < p.count; c += 8) {
    const __mmask8 lanes = Lanes(c, p.count);
    const __m512i start = _mm512_cvtepi32_epi64(_mm256_maskz_loadu_epi32(lanes, offsets + c));
    const __m512i end = _mm512_cvtepi32_epi64(_mm256_maskz_loadu_epi32(lanes, offsets + c + 1));
    const __m512i length = _mm512_maskz_sub_epi64(LiveLanes(p.live, c, lanes), end, start);
    sign = _mm512_or_si512(sign, length);
    const __m512i padded = _mm512_andnot_si512(seven, _mm512_add_epi64(length, seven));
    const __m512i through = _mm512_add_epi64(PrefixSum(padded), running);
    _mm512_mask_storeu_epi64(p.out + c, lanes, _mm512_sub_epi64(through, padded));
    running = BroadcastLast(through);  // masked-off lanes add 0
  }
  _mm512_mask_storeu_epi64(p.out + p.count, 1, running);
  return _mm512_cmplt_epi64_mask(sign, _mm512_setzero_si512()) == 0;
}

}  // namespace

void SizeKernelsAvx512(SizeKernels* out) {
  out->fill_live = &FillLive;
  out->clamp = &Clamp;
  out->exclusive_scan = &ExclusiveScan;
  out->array_sizes = &ArraySizes;
  out->offset_ranges = &OffsetRanges32;
  out->padded_length_scan = &PaddedLengthScan;
}

}  // namespace rowbridge::row
