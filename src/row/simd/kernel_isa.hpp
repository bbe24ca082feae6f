// Which instruction set the byte-copying writers (strings and binaries, as
// columns and as array elements), the nested element placement and the
// nested sizing loops are built for. Kernels are picked once, when a plan is compiled: the portable ones,
// or those of a per-ISA source file (simd/*_avx512.cpp, simd/*_avx2.cpp)
// when the CPU runs them. AVX2 has a build of the depth-first writer only;
// its other kernels are the portable ones. Setting the environment variable
// ROWBRIDGE_KERNELS=portable (or =avx2) forces those kernels.
#pragma once

#include <cstdint>

#include "arrow/arrow_type.hpp"
#include "row/column_writer.hpp"
#include "row/nested/element_placement.hpp"
#include "row/nested/element_writer.hpp"
#include "row/nested/size_kernels.hpp"

namespace rowbridge::row {

enum class KernelIsa : uint8_t {
  kPortable,  // baseline x86-64 (or any other architecture)
  kAvx2,      // AVX2: 32-byte moves, lanes cleared by compares
  kAvx512,    // AVX-512 F/BW/VL and BMI2: masked byte loads and stores
};

/// Every kernel ISA, for tests that run each available one.
inline constexpr KernelIsa kKernelIsas[] = {KernelIsa::kPortable, KernelIsa::kAvx2, KernelIsa::kAvx512};

/// "portable", "avx2" or "avx512".
const char* KernelIsaName(KernelIsa isa);

/// The kernels plans compiled now use: the override if one is set, else the
/// best the CPU runs (detected once), unless ROWBRIDGE_KERNELS names an
/// available one.
KernelIsa ActiveKernelIsa();

/// True when this build has kernels for `isa` and the CPU runs them.
bool KernelIsaAvailable(KernelIsa isa);

/// Makes plans compiled from now on use `isa` (which must be available);
/// for tests that run every kernel on the same inputs. Not thread-safe
/// against concurrent plan compilation.
void OverrideKernelIsaForTesting(KernelIsa isa);
/// Removes the override.
void ClearKernelIsaOverrideForTesting();

#if defined(ROWBRIDGE_HAVE_AVX512_KERNELS)
// The per-ISA entry points build no string and return no error (a string's
// inline members compiled there could replace the portable ones library-wide);
// their callers check types and build messages.

/// The AVX-512 builds of the binary writers (BinaryWriterSetFor) and of the
/// binary element writers (BinaryElementWriterSetFor); false for a type that
/// is not binary-like.
bool BinaryWriterSetAvx512(ArrowTypeId id, WriterSet* out);
bool BinaryElementWriterSetAvx512(ArrowTypeId id, ElementWriterSet* out);
/// The AVX-512 writer of plain (not gathered) array elements of
/// `element_size` bytes whose Arrow values are the Spark bytes.
ElementWriteFn BulkElementWriterAvx512(int32_t element_size, bool all_valid);
/// The AVX-512 element placement (see nested/element_placement.hpp).
void PlaceElementsAvx512(const ElementPlacement& placement);
/// Sets `*out` to the AVX-512 sizing kernels (see nested/size_kernels.hpp).
void SizeKernelsAvx512(SizeKernels* out);
#endif

}  // namespace rowbridge::row
