// Writers for strings and binaries: bytes appended to the variable region,
// zero-padded to 8, with (offset << 32) | size in the slot.
#include "row/binary_kernel.hpp"
#include "row/simd/kernel_isa.hpp"

namespace rowbridge::row {

Status BinaryWriters(const ArrowType& type, WriterSet* out) {
  bool found = false;
#if defined(ROWBRIDGE_HAVE_AVX512_KERNELS)
  if (ActiveKernelIsa() == KernelIsa::kAvx512) found = BinaryWriterSetAvx512(type.id, out);
  else
#endif
    found = BinaryWriterSetFor<PortableCopy>(type.id, out);
  if (found) return Status::Ok();
  return Status::NotSupported("no binary writer for " + ArrowTypeName(type));
}

}  // namespace rowbridge::row
