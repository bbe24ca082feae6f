// Lane helpers shared by the AVX-512 kernels; included only by files
// compiled with -mavx512f -mavx512bw -mavx512vl -mbmi2. Everything here has
// internal linkage (an unnamed namespace), so each kernel file keeps its own
// copy and none can replace a portable function (check_isa_symbols.cmake).
#pragma once

#include <immintrin.h>

#include <cstdint>

namespace rowbridge::row {
namespace {

/// Bits [bit, bit + count) of `bits` (count <= 8) as the low bits of a lane
/// mask, reading only the bytes that hold them, without a branch (array
/// lengths would make one unpredictable): the second byte read is the first
/// again when the bits end in the first, and its copy lands above the bits
/// kept.
inline __mmask8 EightBits(const uint8_t* bits, int64_t bit, int64_t count) {
  const uint8_t* byte = bits + (bit >> 3);
  const int64_t shift = bit & 7;
  const uint32_t word = byte[0] | (static_cast<uint32_t>(byte[shift + count > 8]) << 8);
  return static_cast<__mmask8>((word >> shift) & ((1u << count) - 1));
}

/// Moves the `store` lanes of kSize bytes from `src` to `dst`, the lanes
/// outside `load` as zero.
template <int kSize>
inline void MaskedMove(uint8_t* dst, const uint8_t* src, uint64_t load, uint64_t store) {
  if constexpr (kSize == 1) {
    _mm512_mask_storeu_epi8(dst, store, _mm512_maskz_loadu_epi8(load, src));
  } else if constexpr (kSize == 2) {
    _mm512_mask_storeu_epi16(dst, static_cast<__mmask32>(store),
                             _mm512_maskz_loadu_epi16(static_cast<__mmask32>(load), src));
  } else if constexpr (kSize == 4) {
    _mm512_mask_storeu_epi32(dst, static_cast<__mmask16>(store),
                             _mm512_maskz_loadu_epi32(static_cast<__mmask16>(load), src));
  } else {
    _mm512_mask_storeu_epi64(dst, static_cast<__mmask8>(store),
                             _mm512_maskz_loadu_epi64(static_cast<__mmask8>(load), src));
  }
}

/// The inclusive prefix sum of the lanes.
inline __m512i PrefixSum(__m512i v) {
  const __m512i zero = _mm512_setzero_si512();
  v = _mm512_add_epi64(v, _mm512_alignr_epi64(v, zero, 7));
  v = _mm512_add_epi64(v, _mm512_alignr_epi64(v, zero, 6));
  return _mm512_add_epi64(v, _mm512_alignr_epi64(v, zero, 4));
}

/// Array k of an element kernel's arrays (elements [first[k], first[k + 1])
/// of the input, written at base + positions[k]) as an UnsafeArrayData with
/// 8-byte slots: `header` bytes (numElements and null bits) before its first
/// slot, `fixed` bytes before its variable region.
struct SlotArray {
  int64_t begin;     // its first element's input index
  int64_t n;         // its elements
  int64_t position;  // relative to base
  uint8_t* array;
  int64_t header;
  int64_t fixed;
};
inline SlotArray SlotArrayAt(uint8_t* base, const int64_t* positions, const int64_t* first,
                             int64_t k) {
  const int64_t begin = first[k];
  const int64_t n = first[k + 1] - begin;
  const int64_t header = 8 + ((n + 63) >> 6) * 8;
  return SlotArray{begin, n, positions[k], base + positions[k], header, header + 8 * n};
}

/// The elements [e, e + 8) of an array of `n`: how many there are, as a count
/// and as the low lanes of a mask.
inline int64_t StepCount(int64_t n, int64_t e) { return n - e < 8 ? n - e : 8; }
inline __mmask8 StepLanes(int64_t count) { return static_cast<__mmask8>((1u << count) - 1); }

/// Adds the null bits of an array's elements [e, e + 8) (the `lanes` outside
/// `valid`) to `*nulls`, the word of null bits so far (restarted at every
/// 64th element), and stores that word: no load of the array's bits.
inline void StoreNullsSoFar(uint8_t* array, int64_t e, __mmask8 lanes, __mmask8 valid,
                            uint64_t* nulls) {
  const uint64_t word = ((e & 63) == 0 ? 0 : *nulls) | static_cast<uint64_t>(~valid & lanes)
                                                           << (e & 63);
  __builtin_memcpy(array + 8 + (e >> 6) * 8, &word, sizeof(word));
  *nulls = word;
}

}  // namespace
}  // namespace rowbridge::row
