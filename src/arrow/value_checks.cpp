#include "arrow/value_checks.hpp"

#include <string>

#include "arrow/bits.hpp"

namespace rowbridge {
namespace {

std::string Element(int64_t i) { return "element " + std::to_string(i); }

/// The error for offsets [first, first + count] that do not decrease but end
/// past `limit`: names the first element whose start or end is past it.
template <typename OffsetType>
Status OffsetPastLimit(const uint8_t* offsets, int64_t first, int64_t count, int64_t limit) {
  int64_t i = 0;
  while (i < count && LoadElement<OffsetType>(offsets, first + i) <= limit) ++i;
  int64_t offset = LoadElement<OffsetType>(offsets, first + i);
  return Status::Invalid(Element(i == 0 ? 0 : i - 1) + ": offset " + std::to_string(offset) +
                         " is outside [0, " + std::to_string(limit) + "]");
}

}  // namespace

template <typename OffsetType>
Status CheckOffsets(const uint8_t* offsets, int64_t first, int64_t count, int64_t limit) {
  if (count <= 0) return Status::Ok();
  int64_t previous = LoadElement<OffsetType>(offsets, first);
  if (previous < 0)
    return Status::Invalid(Element(0) + ": negative offset " + std::to_string(previous));
  for (int64_t i = 1; i <= count; ++i) {
    int64_t current = LoadElement<OffsetType>(offsets, first + i);
    if (current < previous) {
      return Status::Invalid(Element(i - 1) + ": offsets decrease (" + std::to_string(previous) +
                             " then " + std::to_string(current) + ")");
    }
    previous = current;
  }
  // Non-decreasing: the last offset is the largest.
  if (previous > limit) return OffsetPastLimit<OffsetType>(offsets, first, count, limit);
  return Status::Ok();
}

Status CheckOffsetsOfWidth(const uint8_t* offsets, int32_t width, int64_t count, int64_t limit) {
  return width == 4 ? CheckOffsets<int32_t>(offsets, 0, count, limit)
                    : CheckOffsets<int64_t>(offsets, 0, count, limit);
}

template <typename OffsetType>
Status CheckListViews(const uint8_t* validity, const uint8_t* offsets, const uint8_t* sizes,
                      int64_t first, int64_t count, int64_t child_length) {
  for (int64_t i = 0; i < count; ++i) {
    int64_t at = first + i;
    if (!IsValidAt(validity, at)) continue;
    int64_t offset = LoadElement<OffsetType>(offsets, at);
    int64_t size = LoadElement<OffsetType>(sizes, at);
    if (offset < 0 || size < 0 || size > child_length - offset) {
      return Status::Invalid(Element(i) + ": list view [" + std::to_string(offset) + ", +" +
                             std::to_string(size) + ") is outside the " +
                             std::to_string(child_length) + "-element child");
    }
  }
  return Status::Ok();
}

Status CheckListViewsOfWidth(const uint8_t* validity, const uint8_t* offsets, const uint8_t* sizes,
                             int32_t width, int64_t count, int64_t child_length) {
  return width == 4 ? CheckListViews<int32_t>(validity, offsets, sizes, 0, count, child_length)
                    : CheckListViews<int64_t>(validity, offsets, sizes, 0, count, child_length);
}

Status CheckViews(const uint8_t* validity, const uint8_t* views, int64_t first, int64_t count,
                  const uint8_t* data_sizes, const void* const* data, int64_t data_count) {
  for (int64_t i = 0; i < count; ++i) {
    int64_t at = first + i;
    if (!IsValidAt(validity, at)) continue;
    const uint8_t* view = views + at * 16;
    int32_t length = Load<int32_t>(view);
    if (length < 0) return Status::Invalid(Element(i) + ": negative view length");
    if (length <= 12) continue;
    int32_t buffer = Load<int32_t>(view + 8);
    int32_t offset = Load<int32_t>(view + 12);
    if (buffer < 0 || buffer >= data_count) {
      return Status::Invalid(Element(i) + ": view refers to data buffer " + std::to_string(buffer) +
                             " of " + std::to_string(data_count));
    }
    int64_t available = LoadElement<int64_t>(data_sizes, buffer);
    if (offset < 0 || int64_t{offset} + length > available) {
      return Status::Invalid(Element(i) + ": view [" + std::to_string(offset) + ", " +
                             std::to_string(int64_t{offset} + length) +
                             ") is outside data buffer " + std::to_string(buffer) + " of " +
                             std::to_string(available) + " bytes");
    }
    if (data[buffer] == nullptr) {
      return Status::Invalid(Element(i) + ": data buffer " + std::to_string(buffer) + " is NULL");
    }
  }
  return Status::Ok();
}

template <typename RunEndType>
Status CheckRunEnds(const uint8_t* run_ends, int64_t first, int64_t count) {
  int64_t previous = 0;
  for (int64_t run = 0; run < count; ++run) {
    int64_t end = LoadElement<RunEndType>(run_ends, first + run);
    if (end <= previous) {
      std::string what = "run " + std::to_string(run) + ": run end " + std::to_string(end);
      return Status::Invalid(run == 0 ? what + " is not positive"
                                      : what + " is not greater than the previous (" +
                                            std::to_string(previous) + ")");
    }
    previous = end;
  }
  return Status::Ok();
}

Status CheckRunEndsOfWidth(const uint8_t* run_ends, int32_t width, int64_t count) {
  switch (width) {
    case 2: return CheckRunEnds<int16_t>(run_ends, 0, count);
    case 4: return CheckRunEnds<int32_t>(run_ends, 0, count);
    default: return CheckRunEnds<int64_t>(run_ends, 0, count);
  }
}

Status CheckIndices(const uint8_t* validity, const uint8_t* indices, int32_t width, bool is_signed,
                    int64_t length, int64_t dictionary_length) {
  for (int64_t i = 0; i < length; ++i) {
    if (!IsValidAt(validity, i)) continue;
    int64_t index = LoadInteger(indices, width, is_signed, i);
    if (index < 0 || index >= dictionary_length) {
      return Status::Invalid(Element(i) + ": dictionary index " + std::to_string(index) +
                             " is outside the " + std::to_string(dictionary_length) +
                             "-value dictionary");
    }
  }
  return Status::Ok();
}

int64_t LoadInteger(const uint8_t* data, int32_t width, bool is_signed, int64_t index) {
  const uint8_t* p = data + index * width;
  switch (width) {
    case 1: return is_signed ? int64_t{Load<int8_t>(p)} : int64_t{Load<uint8_t>(p)};
    case 2: return is_signed ? int64_t{Load<int16_t>(p)} : int64_t{Load<uint16_t>(p)};
    case 4: return is_signed ? int64_t{Load<int32_t>(p)} : int64_t{Load<uint32_t>(p)};
    default: {
      uint64_t value = Load<uint64_t>(p);
      // An unsigned 64-bit value above INT64_MAX reads as -1: always invalid.
      if (!is_signed && value > static_cast<uint64_t>(INT64_MAX)) return -1;
      return static_cast<int64_t>(value);
    }
  }
}

template Status CheckOffsets<int32_t>(const uint8_t*, int64_t, int64_t, int64_t);
template Status CheckOffsets<int64_t>(const uint8_t*, int64_t, int64_t, int64_t);
template Status CheckListViews<int32_t>(const uint8_t*, const uint8_t*, const uint8_t*, int64_t,
                                        int64_t, int64_t);
template Status CheckListViews<int64_t>(const uint8_t*, const uint8_t*, const uint8_t*, int64_t,
                                        int64_t, int64_t);
template Status CheckRunEnds<int16_t>(const uint8_t*, int64_t, int64_t);
template Status CheckRunEnds<int32_t>(const uint8_t*, int64_t, int64_t);
template Status CheckRunEnds<int64_t>(const uint8_t*, int64_t, int64_t);

}  // namespace rowbridge
