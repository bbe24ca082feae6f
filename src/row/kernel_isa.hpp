// Which instruction set a plan's kernels are built for: the byte-copying
// writers (strings and binaries, as columns and as array elements), the
// nested element placement, the nested sizing loops and the depth-first
// writer. A plan picks once, when it is compiled (ConverterOptions::kernels):
// the portable kernels, or those of a per-ISA source file in simd/ that the
// CPU runs. Each instruction set gives its kernels through one table of entry
// points (IsaEntryPoints), so the writers here and in nested/ never include
// simd/; only simd/ includes them. The choice comes from the options only:
// the plan passes its KernelIsa down to every resolution (writer sets,
// element writers, placement, sizing kernels, the depth-first plan).
#pragma once

#include <cstdint>

#include "arrow/arrow_type.hpp"
#include "row/nested/element_placement.hpp"
#include "row/nested/element_writer.hpp"
#include "rowbridge/converter.hpp"
#include "rowbridge/status.hpp"

namespace rowbridge::row {

struct WriterSet;
struct SizeKernels;
struct DepthFirstPlan;

enum class KernelIsa : uint8_t {
  kPortable,  // baseline x86-64 (or any other architecture)
  kAvx2,      // AVX2: 32-byte moves, lanes cleared by compares
  kAvx512,    // AVX-512 F/BW/VL and BMI2: masked byte loads and stores
};

/// Every kernel ISA, for tests that run each available one.
inline constexpr KernelIsa kKernelIsas[] = {KernelIsa::kPortable, KernelIsa::kAvx2,
                                            KernelIsa::kAvx512};

/// "portable", "avx2" or "avx512".
const char* KernelIsaName(KernelIsa isa);

/// True when this build has kernels for `isa` and the CPU runs them.
bool KernelIsaAvailable(KernelIsa isa);

/// The kernels of `choice`: for kAuto the best the CPU runs (detected once);
/// a named set must be available (Invalid otherwise).
Status ResolveKernels(Kernels choice, KernelIsa* out);

/// The public name of `isa` (ConverterOptions::kernels, never kAuto).
Kernels KernelsOf(KernelIsa isa);

/// The kernels one instruction set provides; a null member means the
/// portable kernel serves. The per-ISA entry points build no string and
/// return no error (a string's inline members compiled there could replace
/// the portable ones library-wide); their callers check types and build
/// messages.
struct IsaEntryPoints {
  /// The binary writers of columns (see BinaryWriters) and of array
  /// elements (see VariableElementWriters); false for a type that is not
  /// binary-like.
  bool (*binary_writer_set)(ArrowTypeId id, WriterSet* out) = nullptr;
  bool (*binary_element_writer_set)(ArrowTypeId id, ElementWriterSet* out) = nullptr;
  /// The writer of plain (not gathered) array elements of `element_size`
  /// bytes whose Arrow values are the Spark bytes.
  ElementWriteFn (*bulk_element_writer)(int32_t element_size, bool all_valid) = nullptr;
  /// The element placement (see nested/element_placement.hpp).
  PlaceElementsFn place_elements = nullptr;
  /// Sets `*out` to the sizing kernels (see nested/size_kernels.hpp).
  void (*size_kernels)(SizeKernels* out) = nullptr;
  /// Sets the children pointers and writers of a depth-first plan.
  void (*resolve_depth_first)(DepthFirstPlan* plan) = nullptr;
};

/// The entry points of `isa` (all null for kPortable, or for a set this
/// build lacks).
const IsaEntryPoints& EntryPointsFor(KernelIsa isa);

}  // namespace rowbridge::row
