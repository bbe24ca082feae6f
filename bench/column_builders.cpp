#include "bench/column_builders.hpp"

#include <utility>

namespace rowbridge::bench {

using owned_arrow::ToBytes;

void FixedWidthBuilder::Append(const void* value) {
  const auto* bytes = static_cast<const uint8_t*>(value);
  values_.insert(values_.end(), bytes, bytes + width_);
  validity_.Append(true);
}

void FixedWidthBuilder::AppendNull() {
  values_.resize(values_.size() + static_cast<size_t>(width_), 0);
  validity_.Append(false);
}

ArrayNode FixedWidthBuilder::Finish(std::string format, std::string name) {
  ArrayNode node;
  node.format = std::move(format);
  node.name = std::move(name);
  node.length = validity_.length();
  node.null_count = validity_.null_count();
  node.buffers.push_back(validity_.Finish());
  node.buffers.push_back(std::move(values_));
  values_ = Bytes();
  return node;
}

StringBuilder::StringBuilder() : offsets_{0} {}

void StringBuilder::Append(std::string_view value) {
  data_.insert(data_.end(), value.begin(), value.end());
  offsets_.push_back(static_cast<int32_t>(data_.size()));
  validity_.Append(true);
}

void StringBuilder::AppendNull() {
  offsets_.push_back(static_cast<int32_t>(data_.size()));
  validity_.Append(false);
}

ArrayNode StringBuilder::Finish(std::string name) {
  ArrayNode node;
  node.format = std::string("u");
  node.name = std::move(name);
  node.length = validity_.length();
  node.null_count = validity_.null_count();
  // A data buffer may be NULL only when the column has no values at all.
  if (data_.empty() && node.length > 0) data_.push_back(0);
  node.buffers.push_back(validity_.Finish());
  node.buffers.push_back(ToBytes(offsets_));
  node.buffers.push_back(std::move(data_));
  offsets_.assign(1, 0);
  data_ = Bytes();
  return node;
}

ArrayNode DictionaryNode(std::string name, ArrayNode indices,
                         std::shared_ptr<ArrayNode> dictionary) {
  indices.name = std::move(name);
  indices.dictionary = std::move(dictionary);
  return indices;
}

}  // namespace rowbridge::bench
