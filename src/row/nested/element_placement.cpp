// The portable element placement, and the choice of a kernel.
#include "row/nested/element_placement.hpp"

#include "row/kernel_isa.hpp"
#include "row/nested/element_writer.hpp"
#include "spark/memory_access.hpp"

namespace rowbridge::row {

// One loop over the elements of all the arrays, without a branch: arrays
// hold a few elements, and a loop per array mispredicts its exit every time,
// as a branch on null elements would at every null.
void PlaceElementsPortable(const ElementPlacement& placement) {
  const ElementPlacement p = placement;  // a local: stores may alias anything
  const int64_t first_item = p.first[0];
  const int64_t end_item = p.first[p.count];
  int64_t k = 0;
  int64_t cursor = 0;
  uint64_t nulls = 0;
  for (int64_t c = first_item; c < end_item; ++c) {
    k += c == p.first[k + 1];  // arrays are not empty: at most one step
    const int64_t begin = p.first[k];
    const int64_t n = p.first[k + 1] - begin;
    const int64_t e = c - begin;
    const int64_t array_position = p.positions[k];
    const uint64_t fresh = -static_cast<uint64_t>(e == 0);
    cursor = static_cast<int64_t>((static_cast<uint64_t>(ArrayFixedBytes(n, 8)) & fresh) |
                                  (static_cast<uint64_t>(cursor) & ~fresh));
    const bool live = p.live_bits == nullptr || GetBit(p.live_bits, p.live_offset + c);
    const uint64_t valid = -static_cast<uint64_t>(live);
    const int64_t size = p.item_size[c];
    Store64(p.base + array_position + ArrayHeaderBytes(n) + 8 * e,
            OffsetAndSize(cursor, size) & valid);
    p.child_positions[c - first_item] =
        static_cast<int64_t>((static_cast<uint64_t>(array_position + cursor) & valid) |
                             (static_cast<uint64_t>(p.scratch) & ~valid));
    if (p.live_bits != nullptr) {
      // The word of null bits so far, stored at every element (no load).
      nulls &= -static_cast<uint64_t>((e & 63) != 0);
      nulls |= (~valid & 1) << (e & 63);
      Store64(p.base + array_position + 8 + (e >> 6) * 8, nulls);
    }
    cursor += size;
  }
}

PlaceElementsFn PlaceElementsKernel(KernelIsa isa) {
  const IsaEntryPoints& entry_points = EntryPointsFor(isa);
  return entry_points.place_elements != nullptr ? entry_points.place_elements
                                                : &PlaceElementsPortable;
}

}  // namespace rowbridge::row
