// The depth-first writer (nested/depth_first_writer.hpp) built with AVX-512
// masked moves: a value of up to 64 bytes is one masked load of its bytes
// and one masked store of its padded length (the padding stores the zeros
// the load put past the value), and an array of up to 64 bytes of
// fixed-width elements is one masked load of its valid elements and one
// masked store. Compiled and linked like binary_writers_avx512.cpp.
#include <immintrin.h>

#include "row/nested/depth_first_writer.hpp"
#include "row/simd/avx512_lanes.hpp"
#include "row/simd/kernel_isa.hpp"

#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

namespace rowbridge::row {
namespace {

inline uint64_t LowBits(int64_t n) { return _bzhi_u64(~uint64_t{0}, static_cast<unsigned>(n)); }

struct Avx512DepthFirstOps {
  __attribute__((always_inline)) static void CopyPadded(uint8_t* dst, const uint8_t* src, int64_t length) {
    if (length <= 64) {
      __m512i bytes = _mm512_maskz_loadu_epi8(LowBits(length), src);
      _mm512_mask_storeu_epi8(dst, LowBits(RoundUp8(length)), bytes);
      return;
    }
    Store64(dst + RoundUp8(length) - 8, 0);
    std::memcpy(dst, src, static_cast<size_t>(length));
  }

  static void FixedElements(uint8_t* dst, const DepthFirstNode& node, int64_t first, int64_t n) {
    switch (node.width) {
      case 1: SizedElements<1>(dst, node, first, n); break;
      case 2: SizedElements<2>(dst, node, first, n); break;
      case 4: SizedElements<4>(dst, node, first, n); break;
      default: SizedElements<8>(dst, node, first, n); break;
    }
  }

  template <int kWidth>
  static void SizedElements(uint8_t* dst, const DepthFirstNode& node, int64_t first, int64_t n) {
    constexpr int64_t kLanes = 64 / kWidth;
    const uint8_t* src = node.values + (node.offset + first) * kWidth;
    if (n > kLanes) {
      LongElements(dst, node, first, n);
      return;
    }
    uint64_t load = LowBits(n);
    if (node.validity != nullptr && n > 0) {
      load &= ReadBits(node.validity, node.offset + first, n, node.validity_bytes);
    }
    uint64_t store = LowBits(RoundUp8(n * kWidth) / kWidth);
    MaskedMove<kWidth>(dst, src, load, store);
  }

  /// More elements than one register holds: copied whole, nulls zeroed after.
  static void LongElements(uint8_t* dst, const DepthFirstNode& node, int64_t first, int64_t n) {
    const int64_t width = node.width;
    const int64_t bytes = n * width;
    Store64(dst + RoundUp8(bytes) - 8, 0);
    std::memcpy(dst, node.values + (node.offset + first) * width, static_cast<size_t>(bytes));
    if (node.validity == nullptr) return;
    for (int64_t k = 0; k < n; k += 64) {
      int64_t count = n - k < 64 ? n - k : 64;
      uint64_t nulls = ~ReadBits(node.validity, node.offset + first + k, count, node.validity_bytes) & LowBits(count);
      while (nulls != 0) {
        uint8_t* element = dst + (k + __builtin_ctzll(nulls)) * width;
        _mm512_mask_storeu_epi8(element, LowBits(width), _mm512_setzero_si512());
        nulls &= nulls - 1;
      }
    }
  }
};

}  // namespace

void WriteDepthFirstAvx512(const DepthFirstPlan& plan, int64_t batch_offset, int64_t row, int64_t rows,
                           uint8_t* base, int64_t* offsets) {
  DepthFirstRows<Avx512DepthFirstOps>(plan.nodes.data()).Write(plan, batch_offset, row, rows, base, offsets);
}

}  // namespace rowbridge::row
