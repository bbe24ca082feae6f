// Readers of string and binary values (offsets, views, fixed-size) and the
// padded copy of their bytes, shared by the slot and array element writers.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "row/column_writer.hpp"
#include "spark/memory_access.hpp"

namespace rowbridge::row {

/// Copies 16 bytes.
inline void Copy16(uint8_t* dst, const uint8_t* src) { std::memcpy(dst, src, 16); }

/// The branch class of a length in CopyBytes.
inline int CopyClass(int64_t length) {
  return (length > 0) + (length >= 4) + (length >= 8) + (length > 16) + (length > 32) +
         (length > 64);
}

/// Copies `length` bytes with a few possibly overlapping wide moves, calling
/// memcpy only for values longer than 64 bytes.
inline void CopyBytes(uint8_t* dst, const uint8_t* src, int64_t length) {
  if (length > 16) {
    if (length > 64) {
      std::memcpy(dst, src, static_cast<size_t>(length));
      return;
    }
    Copy16(dst, src);
    if (length > 32) {
      Copy16(dst + 16, src + 16);
      Copy16(dst + length - 32, src + length - 32);
    }
    Copy16(dst + length - 16, src + length - 16);
  } else if (length >= 8) {
    uint64_t head = Load<uint64_t>(src);
    uint64_t tail = Load<uint64_t>(src + length - 8);
    Store64(dst, head);
    Store64(dst + length - 8, tail);
  } else if (length >= 4) {
    uint32_t head = Load<uint32_t>(src);
    uint32_t tail = Load<uint32_t>(src + length - 4);
    std::memcpy(dst, &head, 4);
    std::memcpy(dst + length - 4, &tail, 4);
  } else if (length > 0) {
    dst[0] = src[0];
    dst[length >> 1] = src[length >> 1];
    dst[length - 1] = src[length - 1];
  }
}

/// The portable copy of a variable-length value: `length` bytes, then zeros
/// up to the next multiple of 8 (the destination holds round8(length) bytes;
/// the source is read only within its `length` bytes). Writer templates take
/// a Copier with this `CopyPadded`; simd/ holds the per-ISA ones.
struct PortableCopy {
  static void CopyPadded(uint8_t* dst, const uint8_t* src, int64_t length) {
    if (length & 7) Store64(dst + (length & ~int64_t{7}), 0);
    CopyBytes(dst, src, length);
  }
};

template <typename OffsetType>
struct OffsetSource {
  using Offset = OffsetType;
  static int64_t Length(const ColumnInput& input, int64_t index) {
    const uint8_t* offsets = input.values + index * sizeof(OffsetType);
    return static_cast<int64_t>(Load<OffsetType>(offsets + sizeof(OffsetType))) -
           static_cast<int64_t>(Load<OffsetType>(offsets));
  }
  /// Computed on integers: the offset of a value nobody reads (under a null
  /// parent, or past a span's end) may be garbage, and pointer arithmetic
  /// with it would be undefined even though the bytes are never read.
  static const uint8_t* Data(const ColumnInput& input, int64_t index) {
    const auto offset =
        static_cast<int64_t>(Load<OffsetType>(input.values + index * sizeof(OffsetType)));
    return reinterpret_cast<const uint8_t*>(reinterpret_cast<uintptr_t>(input.data) +
                                            static_cast<uintptr_t>(offset));
  }
  /// True when a plain column's batch of `num_rows` rows is long enough to
  /// pay for a look at its first 64 lengths (nulls included) and they all
  /// take the same branches of CopyBytes.
  static bool LengthsPredictable(const ColumnInput& input, int64_t num_rows) {
    constexpr int64_t kMinRows = 1024;
    constexpr int64_t kSample = 64;
    if (num_rows < kMinRows) return false;
    const uint8_t* offsets = input.values + input.offset * static_cast<int64_t>(sizeof(OffsetType));
    int64_t shortest = INT64_MAX;
    int64_t longest = 0;
    for (int64_t k = 0; k < kSample; ++k) {
      const int64_t length =
          static_cast<int64_t>(Load<OffsetType>(offsets + (k + 1) * sizeof(OffsetType))) -
          static_cast<int64_t>(Load<OffsetType>(offsets + k * sizeof(OffsetType)));
      shortest = std::min(shortest, length);
      longest = std::max(longest, length);
    }
    return CopyClass(shortest) == CopyClass(longest);
  }

  /// Starts loading the bytes of the `num_rows` values from value `index` on
  /// (their first kMaxLines cache lines). PrefetchOffsetData (prefetch.hpp)
  /// does the same for either offset width, but this copy, specialized on the
  /// source, is faster on the record schema (docs/BENCHMARKS.md, "Tried").
  static void PrefetchData(const ColumnInput& input, int64_t index, int64_t num_rows) {
    constexpr int64_t kMaxLines = 16;
    const auto begin = reinterpret_cast<uintptr_t>(Data(input, index));
    const auto bytes = num_rows > 0
                           ? static_cast<int64_t>(
                                 reinterpret_cast<uintptr_t>(Data(input, index + num_rows)) - begin)
                           : 0;
    const int64_t lines = std::clamp<int64_t>(bytes / 64 + 1, 1, kMaxLines);
    for (int64_t line = 0; line < lines; ++line)
      __builtin_prefetch(reinterpret_cast<const void*>(begin + static_cast<uintptr_t>(line) * 64));
  }
};

/// Arrow's 16-byte views: int32 length, then up to 12 inline bytes, or a
/// 4-byte prefix, an int32 buffer index and an int32 offset.
struct ViewSource {
  static constexpr int64_t kInlineBytes = 12;
  static int64_t Length(const ColumnInput& input, int64_t index) {
    return Load<int32_t>(input.values + index * 16);
  }
  static const uint8_t* Data(const ColumnInput& input, int64_t index) {
    const uint8_t* view = input.values + index * 16;
    if (Load<int32_t>(view) <= kInlineBytes) return view + 4;
    int32_t buffer = Load<int32_t>(view + 8);
    int32_t offset = Load<int32_t>(view + 12);
    return input.variadic[buffer] + offset;
  }
};

struct FixedSizeSource {
  static int64_t Length(const ColumnInput& input, int64_t) { return input.fixed_size; }
  static const uint8_t* Data(const ColumnInput& input, int64_t index) {
    return input.values + index * input.fixed_size;
  }
};

/// True when `Copier` can add the padded lengths of a run of `Source`'s
/// values to their sizes at once (`AddPaddedLengths`, see binary_kernel.hpp).
template <typename Copier, typename Source, typename = void>
struct HasPaddedLengths : std::false_type {};
template <typename Copier, typename Source>
struct HasPaddedLengths<
    Copier, Source,
    std::void_t<typename Source::Offset,
                decltype(&Copier::template AddPaddedLengths<typename Source::Offset>)>>
    : std::true_type {};

template <typename Source, typename = void>
struct HasPrefetchData : std::false_type {};
template <typename Source>
struct HasPrefetchData<Source, std::void_t<decltype(&Source::PrefetchData)>> : std::true_type {};

}  // namespace rowbridge::row
