// The loops of a nested span's sizing that run once per item of a level
// (nested_expand.cpp, nested_sizes.cpp), as kernels: a portable build and
// per-ISA ones (simd/), picked when a plan is compiled. They take plain
// pointers and integers only, so that a per-ISA build uses no library type
// with inline members.
#pragma once

#include <cstdint>

namespace rowbridge::row {

/// Which of a run of items are live: item j is when bit `offset + j` of
/// `bits` is set, every item when `bits` is null. Kernels read only the
/// bytes that hold the bits of their items.
struct LiveItems {
  const uint8_t* bits = nullptr;
  int64_t offset = 0;
};

/// The element ranges of `count` consecutive lists whose 32-bit offsets are
/// `offsets` (count + 1 of them, validated or not). A live list keeps its
/// elements when its range is inside the child's `limit` values and holds at
/// most `max_length`; a dead or out-of-range list keeps none.
struct OffsetRanges {
  const uint8_t* offsets = nullptr;
  int64_t count = 0;
  LiveItems live;
  int64_t limit = 0;
  int64_t max_length = 0;
  /// Out: first[j + 1] = the elements kept by lists [0, j]; first[0] is the
  /// caller's (0).
  int64_t* first = nullptr;
};

/// What an OffsetRanges pass found.
struct RangesFound {
  bool out_of_range = false;  // a live list's range is outside the child
  bool dropped = false;       // a list with elements kept none (dead or out of range)
};

/// The sizes of `count` UnsafeArrayData values whose elements are the
/// candidates [first[j], first[j + 1]): 8 + null bits + the elements' slots,
/// padded to 8, plus (when `prefix` is set) the elements' variable bytes,
/// prefix[first[j + 1]] - prefix[first[j]], the sum capped at `limit`. A
/// dead item's size is 0.
struct ArraySizing {
  const int64_t* first = nullptr;  // count + 1 entries
  int64_t count = 0;
  int64_t element_size = 8;  // 1, 2, 4 or 8
  const int64_t* prefix = nullptr;
  int64_t limit = 0;
  LiveItems live;
  int64_t* out = nullptr;
};

/// The variable-region bytes of `count` string or binary values with 32-bit
/// `offsets` (count + 1 of them), as exclusive prefix sums: out[c] = the
/// round8(length) of the live values before c, out[count] their total; a
/// dead value counts 0.
struct PaddedLengths {
  const uint8_t* offsets = nullptr;
  int64_t count = 0;
  LiveItems live;
  int64_t* out = nullptr;  // count + 1 entries
};

struct SizeKernels {
  /// out[j] = `value` for a live item j < count, 0 for a dead one.
  void (*fill_live)(int64_t* out, int64_t count, int64_t value, LiveItems live) = nullptr;
  /// sizes[j] = min(sizes[j], limit) for j < count.
  void (*clamp)(int64_t* sizes, int64_t count, int64_t limit) = nullptr;
  /// out[c] = in[0] + ... + in[c - 1] for c <= count; `out` may be `in`.
  void (*exclusive_scan)(const int64_t* in, int64_t* out, int64_t count) = nullptr;
  void (*array_sizes)(const ArraySizing& sizing) = nullptr;
  RangesFound (*offset_ranges)(const OffsetRanges& ranges) = nullptr;
  /// False (`out` unspecified) when a live value's length is negative: the
  /// caller's size pass then names it.
  bool (*padded_length_scan)(const PaddedLengths& lengths) = nullptr;
};

/// The portable kernels.
const SizeKernels& PortableSizeKernels();

/// SizeKernels::offset_ranges for 64-bit offsets (large lists), portable only.
RangesFound OffsetRanges64(const OffsetRanges& ranges);

enum class KernelIsa : uint8_t;  // row/kernel_isa.hpp

/// The kernels of `isa` (see row/kernel_isa.hpp); never null.
const SizeKernels* SizeKernelsFor(KernelIsa isa);

}  // namespace rowbridge::row
