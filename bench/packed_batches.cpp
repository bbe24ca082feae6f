#include "bench/packed_batches.hpp"

#include <cstring>

namespace rowbridge::bench {

using owned_arrow::ArrayNode;
using owned_arrow::Bytes;

namespace {

/// Packed arrays own nothing: the block is freed with the PackedBatches.
void MarkReleased(ArrowArray* array) { array->release = nullptr; }

int64_t AlignUp(int64_t n, int64_t alignment) {
  return (n + alignment - 1) / alignment * alignment;
}

}  // namespace

class PackedBatches::Placer {
 public:
  explicit Placer(uint8_t* base) : base_(base) {}

  int64_t used() const { return cursor_; }

  /// Returns room for `bytes` bytes at `alignment`, or null when measuring.
  uint8_t* Take(int64_t bytes, int64_t alignment) {
    cursor_ = AlignUp(cursor_, alignment);
    uint8_t* p = base_ == nullptr ? nullptr : base_ + cursor_;
    cursor_ += bytes;
    return p;
  }

  /// Places `node` and its descendants: structs and lists first, then data.
  ArrowArray* Place(const ArrayNode& node) {
    std::vector<std::pair<const ArrayNode*, ArrowArray*>> placed;
    ArrowArray* root = PlaceStructs(node, &placed);
    for (auto& [source, array] : placed) PlaceBuffers(*source, array);
    return root;
  }

 private:
  ArrowArray* PlaceStructs(const ArrayNode& node,
                           std::vector<std::pair<const ArrayNode*, ArrowArray*>>* placed) {
    auto* array = reinterpret_cast<ArrowArray*>(Take(sizeof(ArrowArray), 8));
    auto* buffers =
        reinterpret_cast<const void**>(Take(8 * static_cast<int64_t>(node.buffers.size()), 8));
    auto* children =
        reinterpret_cast<ArrowArray**>(Take(8 * static_cast<int64_t>(node.children.size()), 8));
    placed->emplace_back(&node, array);
    std::vector<ArrowArray*> child_arrays;
    for (const ArrayNode& child : node.children)
      child_arrays.push_back(PlaceStructs(child, placed));
    ArrowArray* dictionary = nullptr;
    if (node.dictionary != nullptr) {
      auto found = dictionaries_.find(node.dictionary.get());
      if (found != dictionaries_.end()) {
        dictionary = found->second;
      } else {
        dictionary = PlaceStructs(*node.dictionary, placed);
        dictionaries_[node.dictionary.get()] = dictionary;
      }
    }
    if (base_ == nullptr) return nullptr;
    array->length = node.length;
    array->null_count = node.null_count;
    array->offset = node.offset;
    array->n_buffers = static_cast<int64_t>(node.buffers.size());
    array->n_children = static_cast<int64_t>(node.children.size());
    array->buffers = node.buffers.empty() ? nullptr : buffers;
    array->children = node.children.empty() ? nullptr : children;
    for (size_t i = 0; i < child_arrays.size(); ++i) children[i] = child_arrays[i];
    array->dictionary = dictionary;
    array->release = &MarkReleased;
    array->private_data = nullptr;
    return array;
  }

  void PlaceBuffers(const ArrayNode& node, ArrowArray* array) {
    for (size_t i = 0; i < node.buffers.size(); ++i) {
      const std::optional<Bytes>& buffer = node.buffers[i];
      // An absent or empty buffer has no bytes to place: it is NULL.
      const bool placed = buffer.has_value() && !buffer->empty();
      uint8_t* data = placed ? Take(static_cast<int64_t>(buffer->size()), 64) : nullptr;
      if (base_ == nullptr) continue;
      if (data != nullptr) std::memcpy(data, buffer->data(), buffer->size());
      const_cast<const void**>(array->buffers)[i] = data;
    }
  }

  uint8_t* base_;
  int64_t cursor_ = 0;
  std::map<const ArrayNode*, ArrowArray*> dictionaries_;
};

PackedBatches::PackedBatches(const std::vector<ArrayNode>& roots) {
  Placer measure(nullptr);
  for (const ArrayNode& root : roots) measure.Place(root);
  size_ = measure.used();
  storage_.reset(new uint64_t[static_cast<size_t>(AlignUp(size_, 64) / 8 + 8)]);
  // Start at a 64-byte boundary so that every buffer is 64-byte aligned.
  auto address = reinterpret_cast<uintptr_t>(storage_.get());
  auto* base = reinterpret_cast<uint8_t*>(AlignUp(static_cast<int64_t>(address), 64));
  Placer place(base);
  for (const ArrayNode& root : roots) batches_.push_back(place.Place(root));
}

}  // namespace rowbridge::bench
