// Structural (cheap) and value (full) checks of ArrowArray nodes.
#pragma once

#include <cstdint>
#include <string>

#include "arrow/arrow_type.hpp"
#include "rowbridge/arrow_c_data.h"
#include "rowbridge/status.hpp"

namespace rowbridge {

/// Checks that `array` is a well-formed node of `type` (not released, sane
/// length, offset and null count, the buffer and child counts the type
/// requires, the buffers it reads present) whose logical length covers
/// `required_length` elements. O(1), and allocation-free unless it fails.
/// Errors name the node as "column '<column>'" followed by `part` (e.g.
/// "dictionary"; may be empty).
Status CheckArrayNode(const ArrowArray& array, const ArrowType& type, int64_t expected_children,
                      int64_t required_length, const std::string& column, const char* part);

/// Checks every value of `array` (of `type`) at logical indices
/// [begin, begin + count) that conversion may read: offsets non-negative and
/// non-decreasing, views pointing inside their variadic buffers (the checks
/// of arrow/value_checks.hpp). Errors name the node like CheckArrayNode and
/// the value as "element <index - begin>"; nothing is allocated unless a
/// check fails. Requires a node that passed CheckArrayNode.
Status ValidateValues(const ArrowArray& array, const ArrowType& type, int64_t begin, int64_t count,
                      const std::string& column, const char* part);

/// Returns true when the node's validity bitmap must be consulted.
inline bool MayHaveNulls(const ArrowArray& array) {
  return array.null_count != 0 && array.n_buffers > 0 && array.buffers[0] != nullptr;
}

}  // namespace rowbridge
