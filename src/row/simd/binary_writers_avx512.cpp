// The string and binary writers (columns and array elements) built with
// AVX-512 masked byte moves: a value of up to 64 bytes is one masked load,
// which reads only its own bytes, and one masked store of round8(length)
// bytes, zeros after the value included, so no copy branches on the length.
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
#include <immintrin.h>

#include "row/binary_kernel.hpp"
#include "row/nested/binary_element_kernel.hpp"
#include "row/simd/kernel_isa.hpp"

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
};

}  // namespace

bool BinaryWriterSetAvx512(ArrowTypeId id, WriterSet* out) {
  return BinaryWriterSetFor<MaskedCopy>(id, out);
}

bool BinaryElementWriterSetAvx512(ArrowTypeId id, ElementWriterSet* out) {
  return BinaryElementWriterSetFor<MaskedCopy>(id, out);
}

}  // namespace rowbridge::row
