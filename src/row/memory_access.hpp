// Unaligned loads and stores, bit tests and rounding used by the row writers.
#pragma once

#include <cstdint>
#include <cstring>

namespace rowbridge::row {

template <typename T>
inline T Load(const void* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

inline void Store64(void* p, uint64_t v) { std::memcpy(p, &v, sizeof(v)); }

/// Starts loading the line `ahead` bytes past `p`. The address is computed
/// on integers: `p` may point at bytes nobody reads (the value of a null),
/// and so may be garbage; a prefetch of any address is harmless.
inline void PrefetchAhead(const void* p, int64_t ahead) {
  __builtin_prefetch(reinterpret_cast<const void*>(reinterpret_cast<uintptr_t>(p) + static_cast<uintptr_t>(ahead)));
}

/// Returns bit `i` of an LSB-first bitmap.
inline bool GetBit(const uint8_t* bitmap, int64_t i) {
  return (bitmap[i >> 3] >> (i & 7)) & 1;
}

inline void SetBit(uint8_t* bitmap, int64_t i) {
  bitmap[i >> 3] = static_cast<uint8_t>(bitmap[i >> 3] | (1u << (i & 7)));
}

/// Rounds `n` up to a multiple of 8 (Spark's roundNumberOfBytesToNearestWord).
constexpr int64_t RoundUp8(int64_t n) { return (n + 7) & ~int64_t{7}; }

/// Returns the size of an UnsafeRow null bitset for `num_fields` fields.
constexpr int64_t BitsetBytes(int64_t num_fields) { return ((num_fields + 63) / 64) * 8; }

}  // namespace rowbridge::row
