#include "arrow/array_checks.hpp"

#include <cstring>

#include "arrow/value_checks.hpp"

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

/// `status`, its message prefixed with the node's label.
Status Labelled(const Status& status, const NodeLabel& label) {
  return status.ok() ? status : status.WithContext(label.Text());
}

/// The offsets of a string or binary array: the data buffer's size is not
/// part of the C Data interface, so they have no upper limit.
template <typename OffsetType>
Status ValidateOffsets(const ArrowArray& array, int64_t begin, int64_t count,
                       const NodeLabel& label) {
  const auto* offsets = static_cast<const uint8_t*>(array.buffers[1]);
  return Labelled(CheckOffsets<OffsetType>(offsets, array.offset + begin, count, INT64_MAX), label);
}

Status ValidateViews(const ArrowArray& array, int64_t begin, int64_t count,
                     const NodeLabel& label) {
  int64_t data_count = array.n_buffers - 3;
  const auto* sizes = static_cast<const uint8_t*>(array.buffers[array.n_buffers - 1]);
  if (data_count > 0 && sizes == nullptr) {
    return Status::Invalid(label.Text() + ": the variadic buffer sizes are missing");
  }
  const auto* validity =
      MayHaveNulls(array) ? static_cast<const uint8_t*>(array.buffers[0]) : nullptr;
  return Labelled(CheckViews(validity, static_cast<const uint8_t*>(array.buffers[1]),
                             array.offset + begin, count, sizes, array.buffers + 2, data_count),
                  label);
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
                      const std::string& column, const char* part) {
  if (count <= 0) return Status::Ok();
  NodeLabel what{column, part};
  switch (type.id) {
    case ArrowTypeId::kUtf8:
    case ArrowTypeId::kBinary: return ValidateOffsets<int32_t>(array, begin, count, what);
    case ArrowTypeId::kLargeUtf8:
    case ArrowTypeId::kLargeBinary: return ValidateOffsets<int64_t>(array, begin, count, what);
    case ArrowTypeId::kUtf8View:
    case ArrowTypeId::kBinaryView: return ValidateViews(array, begin, count, what);
    default: return Status::Ok();
  }
}

}  // namespace rowbridge
