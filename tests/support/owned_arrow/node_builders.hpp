// What the benchmarks' builders and the tests' builders both assemble nodes
// from: buffers of values, validity bitmaps, and the nodes whose shape is
// fixed (a run-end encoded column, a record batch).
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "support/owned_arrow/array_node.hpp"

namespace rowbridge::owned_arrow {

/// The bytes of `values`, in memory order.
template <typename T>
Bytes ToBytes(const std::vector<T>& values) {
  static_assert(std::is_trivially_copyable_v<T>);
  Bytes bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

/// An LSB-first bitmap appended bit by bit, counting the zero bits as nulls:
/// a validity bitmap, or the values of a boolean column.
class ValidityBuilder {
 public:
  void Append(bool valid);
  int64_t length() const { return length_; }
  int64_t null_count() const { return null_count_; }
  /// Returns the bitmap, or nullopt (exported as a NULL buffer) when no
  /// value is null, and resets the builder.
  std::optional<Bytes> Finish();
  /// Returns the bitmap, whatever it holds, and resets the builder (for the
  /// values of a boolean column).
  Bytes FinishBits();

 private:
  Bytes bits_;
  int64_t length_ = 0;
  int64_t null_count_ = 0;
};

/// A run-end encoded column ("+r") of logical `length`: `run_ends` (int16,
/// int32 or int64, made non-nullable) and `values`, one per run.
ArrayNode RunEnd(std::string name, int64_t length, ArrayNode run_ends, ArrayNode values);

/// A record batch: a non-nullable struct ("+s") of `columns`, without a
/// validity buffer, as long as its first column (no rows without columns).
ArrayNode Batch(std::vector<ArrayNode> columns);

}  // namespace rowbridge::owned_arrow
