// Writers for strings and binaries: bytes appended to the variable region,
// zero-padded to 8, with (offset << 32) | size in the slot.
#include "row/binary_kernel.hpp"
#include "row/simd/kernel_isa.hpp"

namespace rowbridge::row {

Status BinaryWriters(const ArrowType& type, WriterSet* out) {
#if defined(ROWBRIDGE_HAVE_AVX512_KERNELS)
  if (ActiveKernelIsa() == KernelIsa::kAvx512) return BinaryWritersAvx512(type, out);
#endif
  return MakeBinaryWriters<PortableCopy>(type, out);
}

}  // namespace rowbridge::row
