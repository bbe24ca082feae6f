// Builders that append values row by row and finish into an ArrayNode.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "bench/arrow_node.hpp"

namespace rowbridge::bench {

/// An LSB-first validity bitmap; finishes empty (exported as NULL) when no
/// value is null.
class ValidityBuilder {
 public:
  void Append(bool valid);
  int64_t length() const { return length_; }
  int64_t null_count() const { return null_count_; }
  /// Returns the bitmap (empty when there are no nulls) and resets the builder.
  Bytes Finish();
  /// Returns the bitmap, empty or not, and resets the builder (for the
  /// values of a boolean column).
  Bytes FinishBits();

 private:
  Bytes bits_;
  int64_t length_ = 0;
  int64_t null_count_ = 0;
};

/// A column of fixed-width values of `width` bytes each (integers, floats,
/// decimals), given as little-endian bytes.
class FixedWidthBuilder {
 public:
  explicit FixedWidthBuilder(int32_t width) : width_(width) {}
  void Append(const void* value);
  void AppendNull();
  template <typename T>
  void AppendValue(T value) {
    static_assert(std::is_trivially_copyable_v<T>);
    Append(&value);
  }
  ArrayNode Finish(std::string format, std::string name);

 private:
  int32_t width_;
  Bytes values_;
  ValidityBuilder validity_;
};

/// A utf8 column (int32 offsets).
class StringBuilder {
 public:
  StringBuilder();
  void Append(std::string_view value);
  void AppendNull();
  ArrayNode Finish(std::string name);

 private:
  std::vector<int32_t> offsets_;
  Bytes data_;
  ValidityBuilder validity_;
};

/// A dictionary-encoded column: `indices` (an integer node) over `dictionary`.
ArrayNode DictionaryNode(std::string name, ArrayNode indices,
                         std::shared_ptr<const ArrayNode> dictionary);

/// A run-end encoded column of logical `length`: `run_ends` (int16, int32 or
/// int64, no nulls) and `values`, one per run.
ArrayNode RunEndNode(std::string name, int64_t length, ArrayNode run_ends, ArrayNode values);

/// A record batch: a struct of `columns`, all of `length` rows, without nulls.
ArrayNode StructNode(int64_t length, std::vector<ArrayNode> columns);

}  // namespace rowbridge::bench
