// Prefetching and rounding used by the row writers; their unaligned loads,
// stores and bit tests are arrow/bits.hpp's.
#pragma once

#include <cstdint>
#include <cstring>

#include "arrow/bits.hpp"

namespace rowbridge::spark {

/// Starts loading the line `ahead` bytes past `p`. The address is computed
/// on integers: `p` may point at bytes nobody reads (the value of a null),
/// and so may be garbage; a prefetch of any address is harmless.
inline void PrefetchAhead(const void* p, int64_t ahead) {
  __builtin_prefetch(reinterpret_cast<const void*>(reinterpret_cast<uintptr_t>(p) +
                                                   static_cast<uintptr_t>(ahead)));
}

/// Rounds `n` up to a multiple of 8 (Spark's roundNumberOfBytesToNearestWord).
constexpr int64_t RoundUp8(int64_t n) { return (n + 7) & ~int64_t{7}; }

/// Returns the size of an UnsafeRow null bitset for `num_fields` fields.
constexpr int64_t BitsetBytes(int64_t num_fields) { return ((num_fields + 63) / 64) * 8; }

}  // namespace rowbridge::spark
