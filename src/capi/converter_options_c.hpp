// The C API's structs (rowbridge.h) and the C++ ones (converter.hpp): the
// converter options every C entry point takes, and the row batches they hand
// out.
#pragma once

#include <string>

#include "rowbridge/converter.hpp"
#include "rowbridge/rowbridge.h"
#include "rowbridge/status.hpp"

namespace rowbridge::capi {

// The C++ options carry the C enums' values.
static_assert(static_cast<int>(Validation::kCheap) == ROWBRIDGE_VALIDATION_CHEAP);
static_assert(static_cast<int>(Validation::kFull) == ROWBRIDGE_VALIDATION_FULL);
static_assert(static_cast<int>(Kernels::kAuto) == ROWBRIDGE_KERNELS_AUTO);
static_assert(static_cast<int>(Kernels::kPortable) == ROWBRIDGE_KERNELS_PORTABLE);
static_assert(static_cast<int>(Kernels::kAvx2) == ROWBRIDGE_KERNELS_AVX2);
static_assert(static_cast<int>(Kernels::kAvx512) == ROWBRIDGE_KERNELS_AVX512);
static_assert(static_cast<int>(NestedWriter::kAuto) == ROWBRIDGE_NESTED_WRITER_AUTO);
static_assert(static_cast<int>(NestedWriter::kDepthFirst) == ROWBRIDGE_NESTED_WRITER_DEPTH_FIRST);
static_assert(static_cast<int>(NestedWriter::kLevels) == ROWBRIDGE_NESTED_WRITER_LEVELS);

/// Copies `in` into `*out`; a null `in` leaves the defaults. An enum value
/// outside its range is Invalid, naming the field and the value. Borrows
/// both.
inline Status ToConverterOptions(const RowbridgeConverterOptions* in, ConverterOptions* out) {
  *out = ConverterOptions();
  if (in == nullptr) return Status::Ok();
  out->validation = static_cast<Validation>(in->validation);
  out->max_chunk_bytes = in->max_chunk_bytes;
  out->variants = in->variants != 0;
  if (in->kernels < ROWBRIDGE_KERNELS_AUTO || in->kernels > ROWBRIDGE_KERNELS_AVX512) {
    return Status::Invalid("converter options: unknown kernels " + std::to_string(in->kernels));
  }
  out->kernels = static_cast<Kernels>(in->kernels);
  if (in->nested_writer < ROWBRIDGE_NESTED_WRITER_AUTO ||
      in->nested_writer > ROWBRIDGE_NESTED_WRITER_LEVELS) {
    return Status::Invalid("converter options: unknown nested_writer " +
                           std::to_string(in->nested_writer));
  }
  out->nested_writer = static_cast<NestedWriter>(in->nested_writer);
  return Status::Ok();
}

/// Copies a chunk's view into the C struct; borrows both (the rows stay the
/// converter's).
inline void ToRowBatch(const RowBatchView& view, RowbridgeRowBatch* out) {
  out->data = view.data;
  out->row_offsets = view.row_offsets;
  out->num_rows = view.num_rows;
  out->first_row = view.first_row;
  out->data_size = view.data_size;
}

}  // namespace rowbridge::capi
