// The AVX-512 element placement (see nested/element_placement.hpp): an
// array's elements eight at a time, their offsets within the array by a
// prefix sum across the lanes, their slots, positions and null bits stored
// with masked moves. Arrays hold a few elements, so most take one step.
//
// Everything here but the entry point has internal linkage, and it uses no
// library type with inline members (check_isa_symbols.cmake).
// GCC 12's unmasked AVX-512 intrinsics pass _mm512_undefined_*() as their
// merge source, which -Wmaybe-uninitialized reports once inlined.
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

#include "row/nested/element_placement.hpp"
#include "row/simd/avx512_lanes.hpp"
#include "row/simd/isa_kernels.hpp"

namespace rowbridge::row {

void PlaceElementsAvx512(const ElementPlacement& placement) {
  const ElementPlacement p = placement;  // a local: stores may alias anything
  const int64_t first_item = p.first[0];
  const __m512i scratch = _mm512_set1_epi64(p.scratch);
  for (int64_t k = 0; k < p.count; ++k) {
    const SlotArray a = SlotArrayAt(p.base, p.positions, p.first, k);
    int64_t cursor = a.fixed;
    uint64_t nulls = 0;
    for (int64_t e = 0; e < a.n; e += 8) {
      const int64_t count = StepCount(a.n, e);
      const __mmask8 lanes = StepLanes(count);
      const int64_t c = a.begin + e;
      const __m512i sizes = _mm512_maskz_loadu_epi64(lanes, p.item_size + c);
      const auto live = static_cast<__mmask8>(
          p.live_bits == nullptr ? lanes : EightBits(p.live_bits, p.live_offset + c, count));
      // Inclusive prefix sum across the lanes, then exclusive.
      const __m512i sum = PrefixSum(sizes);
      const __m512i cursors =
          _mm512_add_epi64(_mm512_set1_epi64(cursor), _mm512_sub_epi64(sum, sizes));
      const __m512i slots = _mm512_or_si512(_mm512_slli_epi64(cursors, 32), sizes);
      _mm512_mask_storeu_epi64(a.array + a.header + 8 * e, lanes,
                               _mm512_maskz_mov_epi64(live, slots));
      const __m512i values = _mm512_add_epi64(_mm512_set1_epi64(a.position), cursors);
      _mm512_mask_storeu_epi64(p.child_positions + (c - first_item), lanes,
                               _mm512_mask_blend_epi64(live, scratch, values));
      if (p.live_bits != nullptr) StoreNullsSoFar(a.array, e, lanes, live, &nulls);
      cursor += _mm256_extract_epi64(_mm512_extracti64x4_epi64(sum, 1), 3);
    }
  }
}

}  // namespace rowbridge::row
