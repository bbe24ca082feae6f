// The entry points each per-ISA source file in this folder defines. Only
// this folder includes it: the rest of the library reaches them through the
// instruction set's table (EntryPointsFor in row/kernel_isa.hpp), which
// isa_entry_points.cpp fills. Their contracts are those of the table's
// members.
#pragma once

#include <cstdint>

#include "arrow/arrow_type.hpp"
#include "row/kernel_isa.hpp"

namespace rowbridge::row {

#if defined(ROWBRIDGE_HAVE_AVX512_KERNELS)
bool BinaryWriterSetAvx512(ArrowTypeId id, WriterSet* out);
bool BinaryElementWriterSetAvx512(ArrowTypeId id, ElementWriterSet* out);
ElementWriteFn BulkElementWriterAvx512(int32_t element_size, bool all_valid);
void PlaceElementsAvx512(const ElementPlacement& placement);
void SizeKernelsAvx512(SizeKernels* out);
void ResolveDepthFirstAvx512(DepthFirstPlan* plan);
#endif

#if defined(ROWBRIDGE_HAVE_AVX2_KERNELS)
void ResolveDepthFirstAvx2(DepthFirstPlan* plan);
#endif

}  // namespace rowbridge::row
