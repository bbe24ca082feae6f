// The depth-first writer (nested/depth_first_writer.hpp) built with AVX2,
// for CPUs without AVX-512's masked byte moves. A value of up to 64 bytes is
// two 32-byte loads from its first byte, its bytes past `length` cleared by
// a compare against the lane indices, and two 32-byte stores: no branch on
// the length, which the portable copy takes two or three of. The stores
// reach up to 64 bytes past the value's start, beyond its padded length:
// the depth-first writer's invariant (every store lands in a fixed part
// already laid out or at the cursor and beyond, which later stores
// overwrite) allows it, and the converter reserves kDepthFirstStoreSlack
// bytes past a tile's bound for the last value. An array of up to 64 bytes
// of fixed-width elements is moved the same way, null elements cleared by a
// lane mask built from the null word. Compiled and linked like
// binary_writers_avx512.cpp (only the entry point is global).
//
// The loads read past a value's bytes, but never into another page: a
// value whose 64 bytes cross a page boundary is first copied to the stack.
// Reading bytes of a mapped page that the value does not own cannot fault;
// they are cleared before they are stored. An empty value reads a constant
// instead of its (possibly unmapped) address. The loads are inline
// assembly, so that AddressSanitizer, which cannot tell these reads from
// overflows, checks every other access of the writer.
#include <immintrin.h>

#include <cstring>

#include "row/nested/depth_first/depth_first_shapes.hpp"
#include "row/simd/isa_kernels.hpp"

namespace rowbridge::row {
namespace {

constexpr uintptr_t kPageBytes = 4096;

alignas(64) constexpr uint8_t kNoBytes[64] = {};

/// 32 bytes from `p`; reads the whole range whatever the value owns.
__attribute__((always_inline)) inline __m256i LoadRange(const uint8_t* p) {
  __m256i v;
  asm("vmovdqu %1, %0" : "=x"(v) : "m"(*reinterpret_cast<const uint8_t(*)[32]>(p)));
  return v;
}

/// The first `bytes` bytes of `src` copied to `spill`.
__attribute__((noinline, cold)) const uint8_t* SpillCopy(const uint8_t* src, int64_t bytes,
                                                         uint8_t* spill) {
  std::memcpy(spill, src, static_cast<size_t>(bytes));
  return spill;
}

/// `src` if its 64 bytes lie in one page, else a stack copy of its first
/// `bytes` bytes (1 <= bytes <= 64); kNoBytes when `bytes` is 0.
__attribute__((always_inline)) inline const uint8_t* Readable64(const uint8_t* src, int64_t bytes,
                                                                uint8_t* spill) {
  const uint8_t* from = bytes > 0 ? src : kNoBytes;
  if (__builtin_expect((reinterpret_cast<uintptr_t>(from) & (kPageBytes - 1)) <= kPageBytes - 64,
                       1))
    return from;
  return SpillCopy(from, bytes, spill);
}

/// The lanes of byte index 0..31.
__attribute__((always_inline)) inline __m256i ByteIndices() {
  return _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
                          21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
}

/// Lanes of kWidth bytes whose bit of `keep` (bit k for lane k) is set, as
/// all ones, the others zero: bits [0, 32 / kWidth) of `keep` for one vector.
template <int kWidth>
__attribute__((always_inline)) inline __m256i LaneMask(uint32_t keep) {
  if constexpr (kWidth == 8) {
    const __m256i bit = _mm256_setr_epi64x(1, 2, 4, 8);
    return _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_set1_epi64x(keep), bit), bit);
  } else if constexpr (kWidth == 4) {
    const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    return _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(static_cast<int>(keep)), bit),
                              bit);
  } else if constexpr (kWidth == 2) {
    const __m256i bit = _mm256_setr_epi16(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096,
                                          8192, 16384, static_cast<int16_t>(32768));
    return _mm256_cmpeq_epi16(_mm256_and_si256(_mm256_set1_epi16(static_cast<int16_t>(keep)), bit),
                              bit);
  } else {
    // Byte k takes byte k / 8 of `keep`, then tests bit k % 8 of it.
    const __m256i spread =
        _mm256_shuffle_epi8(_mm256_set1_epi32(static_cast<int>(keep)),
                            _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2,
                                             2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3));
    const __m256i bit = _mm256_set1_epi64x(static_cast<int64_t>(0x8040201008040201ULL));
    return _mm256_cmpeq_epi8(_mm256_and_si256(spread, bit), bit);
  }
}

struct Avx2DepthFirstOps {
  __attribute__((always_inline)) static void CopyPadded(uint8_t* dst, const uint8_t* src,
                                                        int64_t length) {
    if (__builtin_expect(length <= 64, 1)) {
      alignas(32) uint8_t spill[64];
      const uint8_t* from = Readable64(src, length, spill);
      const __m256i count = _mm256_set1_epi8(static_cast<char>(length));
      const __m256i low = ByteIndices();
      const __m256i high = _mm256_add_epi8(low, _mm256_set1_epi8(32));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst),
                          _mm256_and_si256(LoadRange(from), _mm256_cmpgt_epi8(count, low)));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + 32),
                          _mm256_and_si256(LoadRange(from + 32), _mm256_cmpgt_epi8(count, high)));
      return;
    }
    LongCopyPadded(dst, src, length);
  }

  /// n * kWidth <= 64 (checked by the caller).
  template <int kWidth>
  __attribute__((always_inline)) static void SmallFixed(uint8_t* dst, const uint8_t* src, int64_t n,
                                                        uint64_t nulls) {
    constexpr int kLanes = 32 / kWidth;
    alignas(32) uint8_t spill[64];
    const uint8_t* from = Readable64(src, n * kWidth, spill);
    const uint64_t keep = ((uint64_t{1} << n) - 1) & ~nulls;
    _mm256_storeu_si256(
        reinterpret_cast<__m256i*>(dst),
        _mm256_and_si256(LoadRange(from), LaneMask<kWidth>(static_cast<uint32_t>(keep))));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + 32),
                        _mm256_and_si256(LoadRange(from + 32),
                                         LaneMask<kWidth>(static_cast<uint32_t>(keep >> kLanes))));
  }
};

}  // namespace

void ResolveDepthFirstAvx2(DepthFirstPlan* plan) {
  DepthFirstShapes<Avx2DepthFirstOps>::Resolve(plan);
}

}  // namespace rowbridge::row
