// O(values) checks of decoded buffers: offsets, list views, string views,
// run ends and dictionary indices. Each takes buffers whose sizes the caller
// has already checked against the array length, and returns Invalid with a
// message that names the element (the caller adds the field and batch).
#pragma once

#include <cstdint>

#include "rowbridge/status.hpp"

namespace rowbridge::ipc {

/// Offsets [0, length] of `width` (4 or 8) bytes: non-negative,
/// non-decreasing, the last at most `limit`.
Status CheckOffsets(const uint8_t* offsets, int32_t width, int64_t length, int64_t limit);

/// List-view offsets and sizes of `width` bytes: for each valid element,
/// offset >= 0, size >= 0 and offset + size <= `child_length`. `validity` may
/// be null (all valid).
Status CheckListViews(const uint8_t* validity, const uint8_t* offsets, const uint8_t* sizes,
                      int32_t width, int64_t length, int64_t child_length);

/// Binary views: for each valid element, a non-negative length, and a long
/// value inside one of the `num_data` data buffers of `data_sizes` bytes.
Status CheckViews(const uint8_t* validity, const uint8_t* views, int64_t length,
                  const int64_t* data_sizes, int64_t num_data);

/// Run ends of `width` bytes: positive and strictly increasing (the caller
/// checks the last against the logical length).
Status CheckRunEnds(const uint8_t* run_ends, int32_t width, int64_t count);

/// Dictionary indices of `width` bytes (`is_signed`): each valid one in
/// [0, dictionary_length).
Status CheckIndices(const uint8_t* validity, const uint8_t* indices, int32_t width, bool is_signed,
                    int64_t length, int64_t dictionary_length);

/// Reads element `index` of an integer buffer of `width` bytes.
int64_t LoadInteger(const uint8_t* data, int32_t width, bool is_signed, int64_t index);

}  // namespace rowbridge::ipc
