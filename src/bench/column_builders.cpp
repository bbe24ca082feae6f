#include "bench/column_builders.hpp"

#include <utility>

namespace rowbridge::bench {

void ValidityBuilder::Append(bool valid) {
  if ((length_ & 7) == 0) bits_.push_back(0);
  if (valid) {
    bits_.back() = static_cast<uint8_t>(bits_.back() | (1u << (length_ & 7)));
  } else {
    ++null_count_;
  }
  ++length_;
}

Bytes ValidityBuilder::Finish() {
  const bool any_null = null_count_ > 0;
  Bytes bits = FinishBits();
  return any_null ? bits : Bytes();
}

Bytes ValidityBuilder::FinishBits() {
  Bytes bits = std::move(bits_);
  bits_ = Bytes();
  length_ = 0;
  null_count_ = 0;
  return bits;
}

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
  Bytes offsets(offsets_.size() * sizeof(int32_t));
  std::memcpy(offsets.data(), offsets_.data(), offsets.size());
  // A data buffer may be NULL only when the column has no values at all.
  if (data_.empty() && node.length > 0) data_.push_back(0);
  node.buffers.push_back(validity_.Finish());
  node.buffers.push_back(std::move(offsets));
  node.buffers.push_back(std::move(data_));
  offsets_.assign(1, 0);
  data_ = Bytes();
  return node;
}

ArrayNode DictionaryNode(std::string name, ArrayNode indices,
                         std::shared_ptr<const ArrayNode> dictionary) {
  indices.name = std::move(name);
  indices.dictionary = std::move(dictionary);
  return indices;
}

ArrayNode RunEndNode(std::string name, int64_t length, ArrayNode run_ends, ArrayNode values) {
  ArrayNode node;
  node.format = std::string("+r");
  node.name = std::move(name);
  node.length = length;
  run_ends.name = "run_ends";
  run_ends.flags = 0;
  values.name = "values";
  node.children.push_back(std::move(run_ends));
  node.children.push_back(std::move(values));
  return node;
}

ArrayNode StructNode(int64_t length, std::vector<ArrayNode> columns) {
  ArrayNode node;
  node.format = std::string("+s");
  node.flags = 0;
  node.length = length;
  node.buffers.emplace_back();  // no validity: a record batch has no null rows
  node.children = std::move(columns);
  return node;
}

}  // namespace rowbridge::bench
