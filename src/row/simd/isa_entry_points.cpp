// One table of entry points per instruction set (row/kernel_isa.hpp). This
// file is compiled for the baseline: it only takes the addresses of the
// per-ISA kernels.
#include "row/simd/isa_kernels.hpp"

namespace rowbridge::row {

#if defined(ROWBRIDGE_HAVE_AVX512_KERNELS)
extern const IsaEntryPoints kAvx512EntryPoints;
const IsaEntryPoints kAvx512EntryPoints = {
    &BinaryWriterSetAvx512,   &BinaryElementWriterSetAvx512,
    &BulkElementWriterAvx512, &PlaceElementsAvx512,
    &SizeKernelsAvx512,       &ResolveDepthFirstAvx512,
};
#endif

#if defined(ROWBRIDGE_HAVE_AVX2_KERNELS)
extern const IsaEntryPoints kAvx2EntryPoints;
// AVX2 has a build of the depth-first writer only; its other kernels are the
// portable ones.
const IsaEntryPoints kAvx2EntryPoints = {
    nullptr, nullptr, nullptr, nullptr, nullptr, &ResolveDepthFirstAvx2,
};
#endif

}  // namespace rowbridge::row
