// The depth-first writer (nested/depth_first_writer.hpp) built with AVX-512
// masked moves: a value of up to 64 bytes is one masked load of its bytes
// and one whole 64-byte store. Its padding is the zeros the load put past
// the value; the bytes past the padding land at the cursor and beyond,
// which later stores overwrite, and the converter reserves
// kDepthFirstStoreSlack bytes past a tile's bound for the last value (a
// byte store masked to the padded length measured 4 % slower on the nested
// schema of SPEC §6). An array of up to 64 bytes of fixed-width elements is
// one masked load of its valid elements and one masked store. Compiled and
// linked like binary_writers_avx512.cpp.
#include <immintrin.h>

#include "row/nested/depth_first/depth_first_shapes.hpp"
#include "row/simd/avx512_lanes.hpp"
#include "row/simd/isa_kernels.hpp"

#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace rowbridge::row {
namespace {

inline uint64_t LowBits(int64_t n) { return _bzhi_u64(~uint64_t{0}, static_cast<unsigned>(n)); }

struct Avx512DepthFirstOps {
  __attribute__((always_inline)) static void CopyPadded(uint8_t* dst, const uint8_t* src,
                                                        int64_t length) {
    if (length <= 64) {
      __m512i bytes = _mm512_maskz_loadu_epi8(LowBits(length), src);
      _mm512_storeu_si512(dst, bytes);
      return;
    }
    LongCopyPadded(dst, src, length);
  }

  template <int kWidth>
  static void SmallFixed(uint8_t* dst, const uint8_t* src, int64_t n, uint64_t nulls) {
    const uint64_t load = LowBits(n) & ~nulls;
    const uint64_t store = LowBits(spark::RoundUp8(n * kWidth) / kWidth);
    MaskedMove<kWidth>(dst, src, load, store);
  }
};

}  // namespace

void ResolveDepthFirstAvx512(DepthFirstPlan* plan) {
  DepthFirstShapes<Avx512DepthFirstOps>::Resolve(plan);
}

}  // namespace rowbridge::row
