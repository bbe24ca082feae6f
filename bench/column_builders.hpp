// Builders that append values row by row and finish into an ArrayNode.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "support/owned_arrow/array_node.hpp"
#include "support/owned_arrow/node_builders.hpp"

namespace rowbridge::bench {

using owned_arrow::ArrayNode;
using owned_arrow::Bytes;
using owned_arrow::ValidityBuilder;

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
                         std::shared_ptr<ArrayNode> dictionary);

}  // namespace rowbridge::bench
