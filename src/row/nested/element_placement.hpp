// Placing nested array elements: each element of a tile's arrays whose
// values are nested (structs, lists, maps) gets its 8-byte slot (offset
// within the array and size, or zero and a null bit) and the position its
// value is written at. A portable kernel and per-ISA ones (simd/), picked
// when the plan is compiled.
#pragma once

#include <cstdint>

namespace rowbridge::row {

/// What an element placement reads and writes; plain pointers, so that the
/// per-ISA kernels use no library type with inline members.
struct ElementPlacement {
  uint8_t* base = nullptr;             // the tile's output
  const int64_t* positions = nullptr;  // of array k, relative to base
  const int64_t* first = nullptr;  // array k holds candidates [first[k], first[k + 1]); none empty
  int64_t count = 0;               // arrays
  const int64_t* item_size = nullptr;  // bytes of candidate c's value (0 when dead)
  const uint8_t* live_bits = nullptr;  // bit live_offset + c: candidate c is live; null: all are
  int64_t live_offset = 0;
  int64_t* child_positions = nullptr;  // out: candidate c's position at [c - first[0]]
  int64_t scratch = 0;                 // the position of dead values
};

using PlaceElementsFn = void (*)(const ElementPlacement& placement);

/// The portable kernel: one branch-free loop over all the elements.
void PlaceElementsPortable(const ElementPlacement& placement);

enum class KernelIsa : uint8_t;  // row/kernel_isa.hpp

/// The kernel of `isa` (see row/kernel_isa.hpp).
PlaceElementsFn PlaceElementsKernel(KernelIsa isa);

}  // namespace rowbridge::row
