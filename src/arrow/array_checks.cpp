#include "arrow/array_checks.hpp"

#include <cstring>

#include "arrow/bits.hpp"

namespace rowbridge {
namespace {

/// Names a node in errors: "column 'NAME'" plus an optional part.
struct NodeLabel {
  const std::string& column;
  const char* part;
  std::string Text() const {
    std::string label = "column '" + column + "'";
    if (part != nullptr && part[0] != '\0') label += std::string(" ") + part;
    return label;
  }
};

template <typename OffsetType>
Status ValidateOffsets(const ArrowArray& array, int64_t begin, int64_t count,
                       int64_t first_reported, const NodeLabel& label) {
  const auto* offsets = static_cast<const uint8_t*>(array.buffers[1]);
  int64_t physical = array.offset + begin;
  int64_t previous = LoadElement<OffsetType>(offsets, physical);
  if (previous < 0) {
    return Status::Invalid(label.Text() + " row " + std::to_string(first_reported) +
                           ": negative offset " + std::to_string(previous));
  }
  for (int64_t i = 1; i <= count; ++i) {
    int64_t current = LoadElement<OffsetType>(offsets, physical + i);
    if (current < previous) {
      return Status::Invalid(label.Text() + " row " + std::to_string(first_reported + i - 1) +
                             ": offsets decrease (" + std::to_string(previous) + " then " +
                             std::to_string(current) + ")");
    }
    previous = current;
  }
  return Status::Ok();
}

Status ValidateViews(const ArrowArray& array, int64_t begin, int64_t count, int64_t first_reported,
                     const NodeLabel& label) {
  const auto* views = static_cast<const uint8_t*>(array.buffers[1]);
  const auto* validity = static_cast<const uint8_t*>(array.buffers[0]);
  bool has_nulls = MayHaveNulls(array);
  int64_t variadic_count = array.n_buffers - 3;
  const auto* sizes = static_cast<const int64_t*>(array.buffers[array.n_buffers - 1]);
  if (variadic_count > 0 && sizes == nullptr) {
    return Status::Invalid(label.Text() + ": the variadic buffer sizes are missing");
  }
  for (int64_t i = 0; i < count; ++i) {
    int64_t physical = array.offset + begin + i;
    if (has_nulls && ((validity[physical >> 3] >> (physical & 7)) & 1) == 0) continue;
    const uint8_t* view = views + physical * 16;
    int32_t length = Load<int32_t>(view);
    auto element = [&]() { return label.Text() + " row " + std::to_string(first_reported + i); };
    if (length < 0) return Status::Invalid(element() + ": negative view length");
    if (length <= 12) continue;
    int32_t buffer = Load<int32_t>(view + 8);
    int32_t offset = Load<int32_t>(view + 12);
    if (buffer < 0 || buffer >= variadic_count) {
      return Status::Invalid(element() + ": view refers to data buffer " + std::to_string(buffer) +
                             " of " + std::to_string(variadic_count));
    }
    int64_t size = Load<int64_t>(sizes + buffer);
    if (offset < 0 || int64_t{offset} + length > size) {
      return Status::Invalid(element() + ": view [" + std::to_string(offset) + ", " +
                             std::to_string(int64_t{offset} + length) +
                             ") is outside data buffer " + std::to_string(buffer) + " of " +
                             std::to_string(size) + " bytes");
    }
    if (array.buffers[2 + buffer] == nullptr) {
      return Status::Invalid(element() + ": data buffer " + std::to_string(buffer) + " is NULL");
    }
  }
  return Status::Ok();
}

bool IsView(ArrowTypeId id) {
  return id == ArrowTypeId::kUtf8View || id == ArrowTypeId::kBinaryView;
}

}  // namespace

namespace {

enum class Problem {
  kNone,
  kReleased,
  kBadLengthOrOffset,
  kTooShort,
  kBadNullCount,
  kBufferCount,
  kChildCount,
  kNullBufferList,
  kNullChildList,
  kNullChild,
  kMissingValidity,
  kNullBuffer,
};

/// Finds the first structural problem of `array` without allocating;
/// `*index` receives the child or buffer index the problem concerns.
Problem Diagnose(const ArrowArray& array, const ArrowType& type, int64_t expected_children,
                 int64_t required_length, int64_t* index) {
  if (array.release == nullptr) return Problem::kReleased;
  if (array.length < 0 || array.offset < 0 || array.length > INT64_MAX - array.offset) {
    return Problem::kBadLengthOrOffset;
  }
  if (array.length < required_length) return Problem::kTooShort;
  if (array.null_count < -1 || array.null_count > array.length) return Problem::kBadNullCount;
  int64_t expected_buffers = ExpectedBufferCount(type);
  if (IsView(type.id) ? array.n_buffers < expected_buffers : array.n_buffers != expected_buffers) {
    return Problem::kBufferCount;
  }
  if (array.n_children != expected_children) return Problem::kChildCount;
  if (array.n_buffers > 0 && array.buffers == nullptr) return Problem::kNullBufferList;
  if (array.n_children > 0 && array.children == nullptr) return Problem::kNullChildList;
  for (int64_t i = 0; i < array.n_children; ++i) {
    *index = i;
    if (array.children[i] == nullptr) return Problem::kNullChild;
  }
  if (type.id == ArrowTypeId::kNull || type.id == ArrowTypeId::kRunEndEncoded)
    return Problem::kNone;
  if (array.null_count > 0 && array.buffers[0] == nullptr) return Problem::kMissingValidity;
  if (array.length > 0) {
    int64_t data_buffers = IsView(type.id) ? 1 : expected_buffers - 1;
    for (int64_t i = 1; i <= data_buffers; ++i) {
      *index = i;
      if (array.buffers[i] == nullptr) return Problem::kNullBuffer;
    }
  }
  return Problem::kNone;
}

std::string Describe(Problem problem, const ArrowArray& array, const ArrowType& type,
                     int64_t expected_children, int64_t required_length, int64_t index) {
  std::string type_name = ArrowTypeName(type);
  switch (problem) {
    case Problem::kNone: return "no problem";
    case Problem::kReleased: return "the array is released";
    case Problem::kBadLengthOrOffset:
      return "invalid length " + std::to_string(array.length) + " or offset " +
             std::to_string(array.offset);
    case Problem::kTooShort:
      return "length " + std::to_string(array.length) + " is shorter than the " +
             std::to_string(required_length) + " elements the batch needs";
    case Problem::kBadNullCount:
      return "null_count " + std::to_string(array.null_count) + " is outside [-1, length " +
             std::to_string(array.length) + "]";
    case Problem::kBufferCount:
      return std::to_string(array.n_buffers) + " buffers, but " + type_name + " needs " +
             std::to_string(ExpectedBufferCount(type));
    case Problem::kChildCount:
      return std::to_string(array.n_children) + " children, but " + type_name + " needs " +
             std::to_string(expected_children);
    case Problem::kNullBufferList: return "the buffer list is NULL";
    case Problem::kNullChildList: return "the child list is NULL";
    case Problem::kNullChild: return "child " + std::to_string(index) + " is NULL";
    case Problem::kMissingValidity:
      return "null_count is " + std::to_string(array.null_count) +
             " but the validity bitmap is NULL";
    case Problem::kNullBuffer:
      return "buffer " + std::to_string(index) + " of " + type_name + " is NULL";
  }
  return "unknown problem";
}

}  // namespace

Status CheckArrayNode(const ArrowArray& array, const ArrowType& type, int64_t expected_children,
                      int64_t required_length, const std::string& column, const char* part) {
  int64_t index = 0;
  Problem problem = Diagnose(array, type, expected_children, required_length, &index);
  if (problem == Problem::kNone) return Status::Ok();
  std::string label = "column '" + column + "'";
  if (part != nullptr && part[0] != '\0') label += std::string(" ") + part;
  return Status::Invalid(label + ": " +
                         Describe(problem, array, type, expected_children, required_length, index));
}

Status ValidateValues(const ArrowArray& array, const ArrowType& type, int64_t begin, int64_t count,
                      int64_t first_reported, const std::string& column, const char* part) {
  if (count <= 0) return Status::Ok();
  NodeLabel what{column, part};
  switch (type.id) {
    case ArrowTypeId::kUtf8:
    case ArrowTypeId::kBinary:
      return ValidateOffsets<int32_t>(array, begin, count, first_reported, what);
    case ArrowTypeId::kLargeUtf8:
    case ArrowTypeId::kLargeBinary:
      return ValidateOffsets<int64_t>(array, begin, count, first_reported, what);
    case ArrowTypeId::kUtf8View:
    case ArrowTypeId::kBinaryView: return ValidateViews(array, begin, count, first_reported, what);
    default: return Status::Ok();
  }
}

}  // namespace rowbridge
