// O(values) checks of Arrow buffers: offsets, list views, binary views, run
// ends and dictionary indices. The one copy that the converter's full
// validation, the nested binds and the IPC reader share. Each reads buffers
// whose sizes the caller has already checked, allocates nothing unless a
// check fails, and returns Invalid with a message that names the element by
// its position from `first` ("element 3: ..."); the caller prefixes the
// column or field.
#pragma once

#include <cstdint>

#include "rowbridge/status.hpp"

namespace rowbridge {

/// Reads offsets [first, first + count] of OffsetType (int32_t or int64_t).
/// Returns Ok when they are non-negative, non-decreasing and at most `limit`
/// (the length of the child or data they index), and for `count` 0 without
/// reading anything.
template <typename OffsetType>
Status CheckOffsets(const uint8_t* offsets, int64_t first, int64_t count, int64_t limit);

/// CheckOffsets from element 0 for offsets of `width` (4 or 8) bytes.
Status CheckOffsetsOfWidth(const uint8_t* offsets, int32_t width, int64_t count, int64_t limit);

/// Reads the list-view offsets and sizes of OffsetType (int32_t or int64_t)
/// of elements [first, first + count) and the validity bit of each (at the
/// same index; `validity` null: all valid). Returns Ok when every valid
/// element has offset >= 0, size >= 0 and offset + size <= `child_length`.
template <typename OffsetType>
Status CheckListViews(const uint8_t* validity, const uint8_t* offsets, const uint8_t* sizes,
                      int64_t first, int64_t count, int64_t child_length);

/// CheckListViews from element 0 for offsets and sizes of `width` (4 or 8)
/// bytes.
Status CheckListViewsOfWidth(const uint8_t* validity, const uint8_t* offsets, const uint8_t* sizes,
                             int32_t width, int64_t count, int64_t child_length);

/// Reads the 16-byte binary views of elements [first, first + count), the
/// validity bit of each (`validity` null: all valid), and the int64 sizes
/// (at any alignment) and pointers of the `data_count` data buffers.
/// Returns Ok when every valid view has a non-negative length and, when its
/// value is not inline, lies inside a data buffer that is not null.
Status CheckViews(const uint8_t* validity, const uint8_t* views, int64_t first, int64_t count,
                  const uint8_t* data_sizes, const void* const* data, int64_t data_count);

/// Reads run ends [first, first + count) of RunEndType (int16_t, int32_t or
/// int64_t). Returns Ok when they are positive and strictly increasing (the
/// caller checks the last against the logical length). Errors name the run
/// ("run 3: ...").
template <typename RunEndType>
Status CheckRunEnds(const uint8_t* run_ends, int64_t first, int64_t count);

/// CheckRunEnds from run 0 for run ends of `width` (2, 4 or 8) bytes.
Status CheckRunEndsOfWidth(const uint8_t* run_ends, int32_t width, int64_t count);

/// Reads dictionary indices [0, length) of `width` bytes (`is_signed`) and
/// the validity bit of each (`validity` null: all valid). Returns Ok when
/// each valid index is in [0, dictionary_length).
Status CheckIndices(const uint8_t* validity, const uint8_t* indices, int32_t width, bool is_signed,
                    int64_t length, int64_t dictionary_length);

/// Returns element `index` of an integer buffer of `width` (1, 2, 4 or 8)
/// bytes, widened to int64; an unsigned 64-bit value above INT64_MAX reads
/// as -1.
int64_t LoadInteger(const uint8_t* data, int32_t width, bool is_signed, int64_t index);

extern template Status CheckOffsets<int32_t>(const uint8_t*, int64_t, int64_t, int64_t);
extern template Status CheckOffsets<int64_t>(const uint8_t*, int64_t, int64_t, int64_t);
extern template Status CheckListViews<int32_t>(const uint8_t*, const uint8_t*, const uint8_t*,
                                               int64_t, int64_t, int64_t);
extern template Status CheckListViews<int64_t>(const uint8_t*, const uint8_t*, const uint8_t*,
                                               int64_t, int64_t, int64_t);
extern template Status CheckRunEnds<int16_t>(const uint8_t*, int64_t, int64_t);
extern template Status CheckRunEnds<int32_t>(const uint8_t*, int64_t, int64_t);
extern template Status CheckRunEnds<int64_t>(const uint8_t*, int64_t, int64_t);

}  // namespace rowbridge
