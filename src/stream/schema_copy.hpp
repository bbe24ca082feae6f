// Deep copies of C Data Interface schemas.
#pragma once

#include "rowbridge/arrow_c_data.h"
#include "rowbridge/status.hpp"

namespace rowbridge::stream::detail {

/// Copies `source` (not released; borrowed) and all its children and
/// dictionaries into `out`, whose release frees the copy. `out` is
/// uninitialized. Fails only when out of memory or on a malformed source
/// (null format, negative child count, truncated metadata).
Status CopySchema(const ArrowSchema& source, ArrowSchema* out);

}  // namespace rowbridge::stream::detail
