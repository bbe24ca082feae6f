// The portable sizing kernels (see size_kernels.hpp), and the choice of a
// kernel set. Their loops have no branch on the data: nulls and empty lists
// are common and unpredictable.
#include "row/nested/size_kernels.hpp"

#include <algorithm>
#include <cstring>

#include "arrow/bits.hpp"
#include "row/kernel_isa.hpp"
#include "row/nested/element_writer.hpp"
#include "spark/memory_access.hpp"

namespace rowbridge::row {
namespace {

/// All ones for a live item j, 0 for a dead one.
inline int64_t LiveMask(LiveItems live, int64_t j) {
  return -static_cast<int64_t>(live.bits == nullptr || GetBit(live.bits, live.offset + j));
}

void FillLive(int64_t* out, int64_t count, int64_t value, LiveItems live) {
  if (live.bits == nullptr) {
    std::fill(out, out + count, value);
    return;
  }
  for (int64_t j = 0; j < count; ++j) out[j] = value & LiveMask(live, j);
}

void Clamp(int64_t* sizes, int64_t count, int64_t limit) {
  for (int64_t j = 0; j < count; ++j) sizes[j] = std::min(sizes[j], limit);
}

void ExclusiveScan(const int64_t* in, int64_t* out, int64_t count) {
  int64_t running = 0;
  for (int64_t c = 0; c < count; ++c) {
    const int64_t size = in[c];
    out[c] = running;
    running += size;
  }
  out[count] = running;
}

void ArraySizes(const ArraySizing& sizing) {
  const ArraySizing s = sizing;  // a local: the stores may alias it
  for (int64_t j = 0; j < s.count; ++j) {
    int64_t size = ArrayFixedBytes(s.first[j + 1] - s.first[j], s.element_size);
    if (s.prefix != nullptr)
      size = std::min(size + s.prefix[s.first[j + 1]] - s.prefix[s.first[j]], s.limit);
    s.out[j] = size & LiveMask(s.live, j);
  }
}

/// Offset ranges of offsets of type T (see OffsetRanges).
template <typename T>
RangesFound OffsetRangesOf(const OffsetRanges& ranges) {
  const OffsetRanges r = ranges;  // a local: the stores may alias it
  const auto limit = static_cast<uint64_t>(r.limit);
  const auto max_length = static_cast<uint64_t>(r.max_length);
  int64_t start = LoadElement<T>(r.offsets, 0);
  int64_t running = 0;
  bool out_of_range = false;
  bool dropped = false;
  for (int64_t j = 0; j < r.count; ++j) {
    const int64_t end = LoadElement<T>(r.offsets, j + 1);
    // Unsigned: corrupt offsets must not overflow.
    const uint64_t s = static_cast<uint64_t>(start);
    const uint64_t n = static_cast<uint64_t>(end) - s;
    const bool live = LiveMask(r.live, j) != 0;
    const bool bad = live & ((s > limit) | (n > max_length) | (n > limit - s));
    out_of_range |= bad;
    const int64_t kept = static_cast<int64_t>(n) & -static_cast<int64_t>(live & !bad);
    dropped |= static_cast<uint64_t>(kept) != n;
    running += kept;
    r.first[j + 1] = running;
    start = end;
  }
  return RangesFound{out_of_range, dropped};
}

bool PaddedLengthScan(const PaddedLengths& lengths) {
  const PaddedLengths p = lengths;  // a local: the stores may alias it
  int64_t start = LoadElement<int32_t>(p.offsets, 0);
  int64_t running = 0;
  int64_t sign = 0;
  for (int64_t c = 0; c < p.count; ++c) {
    const int64_t end = LoadElement<int32_t>(p.offsets, c + 1);
    const int64_t length = (end - start) & LiveMask(p.live, c);
    sign |= length;
    p.out[c] = running;
    running += (length + 7) & ~int64_t{7};
    start = end;
  }
  p.out[p.count] = running;
  return sign >= 0;
}

SizeKernels MakePortable() {
  SizeKernels kernels;
  kernels.fill_live = &FillLive;
  kernels.clamp = &Clamp;
  kernels.exclusive_scan = &ExclusiveScan;
  kernels.array_sizes = &ArraySizes;
  kernels.offset_ranges = &OffsetRangesOf<int32_t>;
  kernels.padded_length_scan = &PaddedLengthScan;
  return kernels;
}

SizeKernels MakeFor(KernelIsa isa) {
  SizeKernels kernels;
  EntryPointsFor(isa).size_kernels(&kernels);
  return kernels;
}

}  // namespace

RangesFound OffsetRanges64(const OffsetRanges& ranges) { return OffsetRangesOf<int64_t>(ranges); }

const SizeKernels& PortableSizeKernels() {
  static const SizeKernels kernels = MakePortable();
  return kernels;
}

const SizeKernels* SizeKernelsFor(KernelIsa isa) {
  // Sizing kernels come from AVX-512 only; the other sets take the portable.
  if (isa == KernelIsa::kAvx512 && EntryPointsFor(isa).size_kernels != nullptr) {
    static const SizeKernels kernels = MakeFor(KernelIsa::kAvx512);
    return &kernels;
  }
  return &PortableSizeKernels();
}

}  // namespace rowbridge::row
