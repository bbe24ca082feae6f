// The string and binary writers (columns and array elements) built with
// AVX-512 masked byte moves: a value of up to 64 bytes is one masked load,
// which reads only its own bytes, and one masked store of round8(length)
// bytes, zeros after the value included, so no copy branches on the length.
// The sizes of a plain column's offset-addressed values are added 8 at a
// time from their offsets (MaskedCopy::AddPaddedLengths), and a plain child
// of such values is written as array elements an array at a time
// (PlainOffsetStringElements).
//
// This file alone is compiled with -mavx512f -mavx512bw -mavx512vl -mbmi2
// (src/CMakeLists.txt) and used only when the CPU runs them (kernel_isa.cpp).
// Every kernel instantiated here takes MaskedCopy, local to this file, so
// its code has internal linkage and cannot replace the portable code of the
// same templates elsewhere. Nothing here builds a string or an error (the
// type checks and messages stay in the portable callers), since that would
// emit std::string's inline members compiled for AVX-512 as weak symbols;
// check_isa_symbols.cmake checks that this object defines no other global
// or weak symbol than its entry points.
// GCC 12's unmasked AVX-512 intrinsics pass _mm512_undefined_*() as their
// merge source, which -Wmaybe-uninitialized reports once inlined.
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

#include "row/binary_kernel.hpp"
#include "row/nested/binary_element_kernel.hpp"
#include "row/simd/avx512_lanes.hpp"
#include "row/simd/isa_kernels.hpp"

namespace rowbridge::row {
namespace {

struct MaskedCopy {
  static inline void CopyPadded(uint8_t* dst, const uint8_t* src, int64_t length) {
    if (length > 64) [[unlikely]] {
      int64_t whole = (length - 1) & ~int64_t{63};  // leaves 1..64 bytes for the tail
      for (int64_t done = 0; done < whole; done += 64) {
        _mm512_storeu_si512(dst + done, _mm512_loadu_si512(src + done));
      }
      dst += whole;
      src += whole;
      length -= whole;
    }
    const auto bytes = static_cast<unsigned>(length);
    const __mmask64 load = _bzhi_u64(~uint64_t{0}, bytes);
    const __mmask64 store = _bzhi_u64(~uint64_t{0}, (bytes + 7) & ~7u);
    _mm512_mask_storeu_epi8(dst, store, _mm512_maskz_loadu_epi8(load, src));
  }

  /// Adds round8(length) of `count` values to `sizes` from their offsets
  /// (count + 1 entries), a null value's length as 0 (its bits in `validity`
  /// from `validity_bit` on; all valid when it is null); false when a valid
  /// value's length is negative.
  template <typename Offset>
  static bool AddPaddedLengths(const uint8_t* offsets, const uint8_t* validity,
                               int64_t validity_bit, int64_t count, int64_t* sizes) {
    __m512i sign = _mm512_setzero_si512();
    if (validity == nullptr) {
      for (int64_t j = 0; j < count; j += 8)
        sign = AddEight<Offset>(offsets, j, count, 0xff, sizes, sign);
    } else {
      for (int64_t block = 0; block < count; block += 64) {
        const int64_t in_block = count - block < 64 ? count - block : 64;
        const uint64_t valid = LoadBits(validity, validity_bit + block, in_block);
        for (int64_t j = block; j < block + in_block; j += 8) {
          sign = AddEight<Offset>(offsets, j, count, static_cast<__mmask8>(valid >> (j - block)),
                                  sizes, sign);
        }
      }
    }
    return _mm512_cmplt_epi64_mask(sign, _mm512_setzero_si512()) == 0;
  }

  /// Adds round8(length) of values j.. j + 7 (those below `count`; length 0
  /// outside `valid`) to `sizes`; returns `sign` ORed with the lengths.
  template <typename Offset>
  static __m512i AddEight(const uint8_t* offsets, int64_t j, int64_t count, __mmask8 valid,
                          int64_t* sizes, __m512i sign) {
    const auto lanes = static_cast<__mmask8>(
        _bzhi_u32(0xff, static_cast<unsigned>(count - j < 8 ? count - j : 8)));
    const __m512i length = _mm512_maskz_sub_epi64(
        lanes & valid, Offsets<Offset>(offsets, j + 1, lanes), Offsets<Offset>(offsets, j, lanes));
    const __m512i padded = _mm512_and_si512(_mm512_add_epi64(length, _mm512_set1_epi64(7)),
                                            _mm512_set1_epi64(~int64_t{7}));
    _mm512_mask_storeu_epi64(sizes + j, lanes,
                             _mm512_add_epi64(_mm512_maskz_loadu_epi64(lanes, sizes + j), padded));
    return _mm512_or_si512(sign, length);
  }

  /// The `lanes` offsets from entry `index` on, as int64 (0 elsewhere).
  template <typename Offset>
  static __m512i Offsets(const uint8_t* offsets, int64_t index, __mmask8 lanes) {
    const uint8_t* at = offsets + index * static_cast<int64_t>(sizeof(Offset));
    if constexpr (sizeof(Offset) == 4) {
      return _mm512_maskz_cvtepi32_epi64(lanes, _mm256_maskz_loadu_epi32(lanes, at));
    } else {
      return _mm512_maskz_loadu_epi64(lanes, at);
    }
  }
};

/// The element writers of a plain child of offset-addressed strings or
/// binaries: each array's elements eight at a time, their lengths, offsets
/// within the array (a prefix sum across the lanes) and slots in vectors,
/// the slots and null bits stored at once; the copies wait in a buffer,
/// flat over the arrays, and run in one loop whose exit is predictable
/// (a loop per array would mispredict the end of short arrays).
template <typename Offset>
struct PlainOffsetStringElements {
  static constexpr int64_t kPending = 256;

  template <bool kAllValid>
  static Status Write(const ColumnTarget&, const ColumnInput& input_ref,
                      const ArraySink& sink_ref) {
    const ColumnInput input = input_ref;
    const ArraySink sink = sink_ref;
    uint8_t* const base = sink.base;
    const uint8_t* const offsets =
        input.values + input.offset * static_cast<int64_t>(sizeof(Offset));
    const uint8_t* const data = input.data;
    const __m512i padding = _mm512_set1_epi64(7);
    const __m512i align = _mm512_set1_epi64(~int64_t{7});
    // The copies not yet made: destination (from base), source (from data), length.
    alignas(64) int64_t at[kPending + 8];
    alignas(64) int64_t from[kPending + 8];
    alignas(64) int64_t length[kPending + 8];
    int64_t pending = 0;
    auto copy_pending = [&] {
      for (int64_t i = 0; i < pending; ++i) {
        const uint8_t* src = data + from[i];
        __builtin_prefetch(src + 512);
        MaskedCopy::CopyPadded(base + at[i], src, length[i]);
      }
      pending = 0;
    };
    for (int64_t k = 0; k < sink.count; ++k) {
      const SlotArray a = SlotArrayAt(base, sink.positions, sink.first, k);
      int64_t cursor = a.fixed;
      uint64_t nulls = 0;
      for (int64_t e = 0; e < a.n; e += 8) {
        const int64_t count = StepCount(a.n, e);
        const __mmask8 lanes = StepLanes(count);
        const int64_t c = a.begin + e;
        __mmask8 valid = lanes;
        if constexpr (!kAllValid)
          valid = EightBits(input.validity, input.validity_offset + c, count);
        const __m512i first = MaskedCopy::Offsets<Offset>(offsets, c, lanes);
        const __m512i bytes = _mm512_maskz_sub_epi64(
            valid, MaskedCopy::Offsets<Offset>(offsets, c + 1, lanes), first);
        const __m512i padded = _mm512_and_si512(_mm512_add_epi64(bytes, padding), align);
        const __m512i sum = PrefixSum(padded);
        const __m512i offsets_in_array =
            _mm512_add_epi64(_mm512_set1_epi64(cursor), _mm512_sub_epi64(sum, padded));
        const __m512i slots =
            _mm512_maskz_or_epi64(valid, _mm512_slli_epi64(offsets_in_array, 32), bytes);
        _mm512_mask_storeu_epi64(a.array + a.header + 8 * e, lanes, slots);
        if constexpr (!kAllValid) StoreNullsSoFar(a.array, e, lanes, valid, &nulls);
        _mm512_storeu_si512(at + pending,
                            _mm512_add_epi64(_mm512_set1_epi64(a.position), offsets_in_array));
        _mm512_storeu_si512(from + pending, _mm512_maskz_mov_epi64(valid, first));
        _mm512_storeu_si512(length + pending, bytes);
        pending += count;
        if (pending >= kPending) copy_pending();
        cursor += _mm256_extract_epi64(_mm512_extracti64x4_epi64(sum, 1), 3);
      }
    }
    copy_pending();
    return Status::Ok();
  }
};

template <typename Offset>
void UsePlainOffsetStringElements(ElementWriterSet* set) {
  set->write[0][0] = &PlainOffsetStringElements<Offset>::template Write<false>;
  set->write[0][1] = &PlainOffsetStringElements<Offset>::template Write<true>;
}

}  // namespace

bool BinaryWriterSetAvx512(ArrowTypeId id, WriterSet* out) {
  return BinaryWriterSetFor<MaskedCopy>(id, out);
}

bool BinaryElementWriterSetAvx512(ArrowTypeId id, ElementWriterSet* out) {
  if (!BinaryElementWriterSetFor<MaskedCopy>(id, out)) return false;
  switch (id) {
    case ArrowTypeId::kUtf8:
    case ArrowTypeId::kBinary: UsePlainOffsetStringElements<int32_t>(out); break;
    case ArrowTypeId::kLargeUtf8:
    case ArrowTypeId::kLargeBinary: UsePlainOffsetStringElements<int64_t>(out); break;
    default: break;
  }
  return true;
}

}  // namespace rowbridge::row
