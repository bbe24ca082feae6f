// Export of decoded ArrayData trees as C Data Interface ArrowArray structs.
#pragma once

#include <memory>

#include "ipc/array_data.hpp"
#include "rowbridge/arrow_c_data.h"
#include "rowbridge/status.hpp"

namespace rowbridge::ipc {

/// Exports `data` (recursively: children and dictionary) into `out`, which
/// must be uninitialized or released. Every exported node shares ownership of
/// its ArrayData, so the result stays valid after the reader is gone and any
/// child may be moved out and released on its own (C Data release rules).
/// The caller owns `out` and releases it with `out->release(out)`. On failure
/// (OutOfMemory) `out` is untouched.
Status ExportArrayData(std::shared_ptr<const ArrayData> data, ArrowArray* out);

}  // namespace rowbridge::ipc
