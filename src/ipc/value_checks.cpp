#include "ipc/value_checks.hpp"

#include <cstring>
#include <string>

#include "arrow/bits.hpp"

namespace rowbridge::ipc {
namespace {

std::string Element(int64_t i) { return "element " + std::to_string(i); }

template <typename T>
Status CheckOffsetsOf(const uint8_t* offsets, int64_t length, int64_t limit) {
  int64_t previous = Load<T>(offsets);
  if (previous < 0) return Status::Invalid("negative first offset " + std::to_string(previous));
  for (int64_t i = 1; i <= length; ++i) {
    int64_t current = LoadElement<T>(offsets, i);
    if (current < previous) {
      return Status::Invalid(Element(i - 1) + ": offsets decrease (" + std::to_string(previous) +
                             " then " + std::to_string(current) + ")");
    }
    previous = current;
  }
  if (previous > limit) {
    return Status::Invalid("last offset " + std::to_string(previous) + " is past the " +
                           std::to_string(limit) + " available");
  }
  return Status::Ok();
}

}  // namespace

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

Status CheckOffsets(const uint8_t* offsets, int32_t width, int64_t length, int64_t limit) {
  return width == 4 ? CheckOffsetsOf<int32_t>(offsets, length, limit)
                    : CheckOffsetsOf<int64_t>(offsets, length, limit);
}

Status CheckListViews(const uint8_t* validity, const uint8_t* offsets, const uint8_t* sizes,
                      int32_t width, int64_t length, int64_t child_length) {
  for (int64_t i = 0; i < length; ++i) {
    if (!IsValidAt(validity, i)) continue;
    int64_t offset = LoadInteger(offsets, width, true, i);
    int64_t size = LoadInteger(sizes, width, true, i);
    if (offset < 0 || size < 0 || size > child_length - offset) {
      return Status::Invalid(Element(i) + ": list view [" + std::to_string(offset) + ", +" +
                             std::to_string(size) + ") is outside the " +
                             std::to_string(child_length) + "-element child");
    }
  }
  return Status::Ok();
}

Status CheckViews(const uint8_t* validity, const uint8_t* views, int64_t length,
                  const int64_t* data_sizes, int64_t num_data) {
  for (int64_t i = 0; i < length; ++i) {
    if (!IsValidAt(validity, i)) continue;
    const uint8_t* view = views + i * 16;
    int32_t size = Load<int32_t>(view);
    if (size < 0) return Status::Invalid(Element(i) + ": negative view length");
    if (size <= 12) continue;
    int32_t buffer = Load<int32_t>(view + 8);
    int32_t offset = Load<int32_t>(view + 12);
    if (buffer < 0 || buffer >= num_data) {
      return Status::Invalid(Element(i) + ": view refers to data buffer " + std::to_string(buffer) +
                             " of " + std::to_string(num_data));
    }
    int64_t available = data_sizes[buffer];
    if (offset < 0 || int64_t{offset} + size > available) {
      return Status::Invalid(Element(i) + ": view [" + std::to_string(offset) + ", " +
                             std::to_string(int64_t{offset} + size) + ") is outside data buffer " +
                             std::to_string(buffer) + " of " + std::to_string(available) +
                             " bytes");
    }
  }
  return Status::Ok();
}

Status CheckRunEnds(const uint8_t* run_ends, int32_t width, int64_t count) {
  int64_t previous = 0;
  for (int64_t i = 0; i < count; ++i) {
    int64_t current = LoadInteger(run_ends, width, true, i);
    if (current <= previous) {
      return Status::Invalid("run end " + std::to_string(i) + " (" + std::to_string(current) +
                             ") is not greater than the previous (" + std::to_string(previous) +
                             ")");
    }
    previous = current;
  }
  return Status::Ok();
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

}  // namespace rowbridge::ipc
