#include "support/owned_arrow/node_builders.hpp"

#include <utility>

namespace rowbridge::owned_arrow {

void ValidityBuilder::Append(bool valid) {
  if ((length_ & 7) == 0) bits_.push_back(0);
  if (valid) {
    bits_.back() = static_cast<uint8_t>(bits_.back() | (1u << (length_ & 7)));
  } else {
    ++null_count_;
  }
  ++length_;
}

std::optional<Bytes> ValidityBuilder::Finish() {
  const bool any_null = null_count_ > 0;
  Bytes bits = FinishBits();
  if (!any_null) return std::nullopt;
  return bits;
}

Bytes ValidityBuilder::FinishBits() {
  Bytes bits = std::move(bits_);
  bits_ = Bytes();
  length_ = 0;
  null_count_ = 0;
  return bits;
}

ArrayNode RunEnd(std::string name, int64_t length, ArrayNode run_ends, ArrayNode values) {
  ArrayNode node;
  node.format = "+r";
  node.name = std::move(name);
  node.length = length;
  run_ends.name = "run_ends";
  run_ends.nullable = false;
  values.name = "values";
  node.children.push_back(std::move(run_ends));
  node.children.push_back(std::move(values));
  return node;
}

ArrayNode Batch(std::vector<ArrayNode> columns) {
  ArrayNode node;
  node.format = "+s";
  node.nullable = false;
  node.length = columns.empty() ? 0 : columns[0].length;
  node.buffers = {std::nullopt};  // no validity: a record batch has no null rows
  node.children = std::move(columns);
  return node;
}

}  // namespace rowbridge::owned_arrow
