// Unaligned loads and stores and LSB-first bitmap access: the one copy the
// Arrow checks, the IPC reader, the row writers and the benchmarks share.
// Arrow buffers carry no alignment promise, so every multi-byte read goes
// through memcpy, which compilers turn into a plain load.
#pragma once

#include <cstdint>
#include <cstring>

namespace rowbridge {

/// The T stored at `p`, at any alignment.
template <typename T>
inline T Load(const void* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

/// Element `i` of a buffer of T (offsets, indices, run ends), widened to
/// int64.
template <typename T>
inline int64_t LoadElement(const uint8_t* buffer, int64_t i) {
  return static_cast<int64_t>(Load<T>(buffer + i * static_cast<int64_t>(sizeof(T))));
}

/// Stores `v` at `p`, at any alignment.
inline void Store64(void* p, uint64_t v) { std::memcpy(p, &v, sizeof(v)); }

/// Bit `i` of an LSB-first bitmap.
inline bool GetBit(const uint8_t* bitmap, int64_t i) { return (bitmap[i >> 3] >> (i & 7)) & 1; }

/// Whether value `i` is valid under an Arrow validity bitmap, which may be
/// null (all valid).
inline bool IsValidAt(const uint8_t* validity, int64_t i) {
  return validity == nullptr || GetBit(validity, i);
}

/// Sets bit `i` of an LSB-first bitmap.
inline void SetBit(uint8_t* bitmap, int64_t i) {
  bitmap[i >> 3] = static_cast<uint8_t>(bitmap[i >> 3] | (1u << (i & 7)));
}

/// Sets bit `i` of an LSB-first bitmap to `value`.
inline void SetBitTo(uint8_t* bitmap, int64_t i, bool value) {
  const unsigned mask = 1u << (i & 7);
  bitmap[i >> 3] = static_cast<uint8_t>(value ? (bitmap[i >> 3] | mask) : (bitmap[i >> 3] & ~mask));
}

}  // namespace rowbridge
