// Array elements of 1, 2, 4 or 8 bytes whose Arrow values are already the
// Spark bytes (a plain child), built with AVX-512 masked moves: up to 64
// bytes of elements are one masked load, which reads only the valid
// elements (null ones load as zero), and one masked store of the array's
// elements. Compiled and linked like binary_writers_avx512.cpp.
#include <immintrin.h>

#include <algorithm>

#include "row/nested/element_writer.hpp"
#include "row/simd/avx512_lanes.hpp"
#include "row/simd/isa_kernels.hpp"

namespace rowbridge::row {
namespace {

/// Writes the null bits of `n` (more than kLanes) elements and moves their
/// values, a 64-element word of null bits at a time, kLanes elements at a time.
template <int kSize, bool kAllValid>
void LongArray(uint8_t* array, int64_t n, const uint8_t* values, const ColumnInput& input,
               int64_t begin, int64_t validity_bytes) {
  constexpr int64_t kLanes = 64 / kSize;
  uint8_t* elements = array + ArrayHeaderBytes(n);
  for (int64_t word = 0; word * 64 < n; ++word) {
    const int64_t first = word * 64;
    const auto bits = static_cast<unsigned>(std::min<int64_t>(64, n - first));
    const uint64_t present = _bzhi_u64(~uint64_t{0}, bits);
    uint64_t valid = present;
    if constexpr (!kAllValid) {
      valid = ReadBits(input.validity, input.validity_offset + begin + first, bits, validity_bytes);
      Store64(array + 8 + word * 8, ~valid & present);
    }
    for (unsigned lane = 0; lane < bits; lane += kLanes) {
      MaskedMove<kSize>(elements + (first + lane) * kSize, values + (first + lane) * kSize,
                        valid >> lane, _bzhi_u64(present >> lane, kLanes));
    }
  }
}

template <int kSize, bool kAllValid>
Status MaskedBulkElements(const ColumnTarget&, const ColumnInput& input_ref,
                          const ArraySink& sink_ref) {
  // At most kShort elements: one masked move, one word of null bits read with
  // one 8-byte load (kShort + 7 bits) when the bitmap has the bytes.
  constexpr int64_t kLanes = 64 / kSize;
  constexpr int64_t kShort = kLanes < 56 ? kLanes : 56;
  const ColumnInput input = input_ref;
  const ArraySink sink = sink_ref;
  const uint8_t* const values = input.values + input.offset * kSize;
  const uint8_t* const validity = input.validity;
  const int64_t validity_offset = input.validity_offset;
  // Whole 8-byte loads of the bitmap are safe from bit 0 up to this one.
  const int64_t load_limit = (sink.validity_bytes - 8) * 8;
  uint64_t spare = 0;  // where an empty array's (zero) null word goes
  int64_t begin = sink.first[0];
  for (int64_t k = 0; k < sink.count; ++k) {
    const int64_t end = sink.first[k + 1];
    const int64_t n = end - begin;
    uint8_t* array = sink.base + sink.positions[k];
    if (n <= kShort) {
      const uint64_t present = _bzhi_u64(~uint64_t{0}, static_cast<unsigned>(n));
      uint64_t valid = present;
      if constexpr (!kAllValid) {
        const int64_t bit = validity_offset + begin;
        if (bit <= load_limit) [[likely]] {
          valid = (Load<uint64_t>(validity + (bit >> 3)) >> (bit & 7)) & present;
        } else {
          valid = ReadBits(validity, bit, n, sink.validity_bytes);
        }
        // An empty array has no null word: its zero goes to `spare`.
        uint8_t* null_word = n != 0 ? array + 8 : reinterpret_cast<uint8_t*>(&spare);
        Store64(null_word, ~valid & present);
      }
      MaskedMove<kSize>(array + 8 + 8 * (n != 0), values + begin * kSize, valid, present);
    } else {
      LongArray<kSize, kAllValid>(array, n, values + begin * kSize, input, begin,
                                  sink.validity_bytes);
    }
    begin = end;
  }
  return Status::Ok();
}

template <int kSize>
ElementWriteFn Pick(bool all_valid) {
  return all_valid ? &MaskedBulkElements<kSize, true> : &MaskedBulkElements<kSize, false>;
}

}  // namespace

ElementWriteFn BulkElementWriterAvx512(int32_t element_size, bool all_valid) {
  switch (element_size) {
    case 1: return Pick<1>(all_valid);
    case 2: return Pick<2>(all_valid);
    case 4: return Pick<4>(all_valid);
    case 8: return Pick<8>(all_valid);
    default: return nullptr;
  }
}

}  // namespace rowbridge::row
