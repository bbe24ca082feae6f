// The C converter options (rowbridge.h) as the C++ ones (converter.hpp), for
// every C entry point that takes them.
#pragma once

#include <string>

#include "rowbridge/converter.hpp"
#include "rowbridge/rowbridge.h"
#include "rowbridge/status.hpp"

namespace rowbridge::capi {

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

}  // namespace rowbridge::capi
