// The physical floor of CONTRACTS.md §6: copy every input byte range a conversion
// reads into the output buffer, then zero the rest of the output size.
#pragma once

#include <cstdint>
#include <vector>

#include "rowbridge/arrow_c_data.h"
#include "rowbridge/status.hpp"

namespace rowbridge::bench {

struct ByteRange {
  const uint8_t* data = nullptr;
  int64_t size = 0;
};

/// The floor's work for one batch: the input ranges, in column order, and the
/// size of the batch's converted rows.
struct FloorBatch {
  std::vector<ByteRange> ranges;
  int64_t input_bytes = 0;   // the sum of the ranges' sizes
  int64_t output_bytes = 0;  // row bytes of the batch's conversion

  /// The buffer size RunFloor needs.
  int64_t buffer_bytes() const { return input_bytes > output_bytes ? input_bytes : output_bytes; }
};

/// Collects the input ranges of `batch` (a struct array of `schema`; both
/// borrowed, and the ranges point into `batch`'s buffers): for each column in
/// order, the validity bytes of the batch's rows when a bitmap is present,
/// then the values or offsets of those rows, then their string bytes. A
/// dictionary, or a run-end column's run ends and values, count whole. A
/// struct adds its validity, then its fields' ranges; a list or map its
/// validity and offsets, then the ranges of the elements (keys, then
/// values) they delimit.
Status CollectInputRanges(const ArrowArray& batch, const ArrowSchema& schema, FloorBatch* out);

/// Copies `batch.ranges` back to back to `out`, then zeroes `out` up to
/// `batch.output_bytes`. `out` holds at least `batch.buffer_bytes()` bytes.
void RunFloor(const FloorBatch& batch, uint8_t* out);

}  // namespace rowbridge::bench
