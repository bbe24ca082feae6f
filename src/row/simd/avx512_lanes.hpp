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

/// The inclusive prefix sum of the lanes.
inline __m512i PrefixSum(__m512i v) {
  const __m512i zero = _mm512_setzero_si512();
  v = _mm512_add_epi64(v, _mm512_alignr_epi64(v, zero, 7));
  v = _mm512_add_epi64(v, _mm512_alignr_epi64(v, zero, 6));
  return _mm512_add_epi64(v, _mm512_alignr_epi64(v, zero, 4));
}

}  // namespace
}  // namespace rowbridge::row
