#include "row/registered_batch.hpp"

namespace rowbridge::row {
namespace {
void ReleaseNothing(ArrowArray*) {}
}  // namespace

RegisteredBatch::RegisteredBatch(const ArrowField& schema) { Build(schema, &root_); }

void RegisteredBatch::Build(const ArrowField& field, Node* node) {
  node->buffers.assign(static_cast<size_t>(ExpectedBufferCount(field.type)), nullptr);
  for (const ArrowField& child : field.children) {
    node->children.push_back(std::make_unique<Node>());
    Build(child, node->children.back().get());
    node->child_pointers.push_back(&node->children.back()->array);
  }
  if (field.is_dictionary()) {
    node->dictionary = std::make_unique<Node>();
    Build(field.dictionary[0], node->dictionary.get());
  }
  ArrowArray& array = node->array;
  array.n_buffers = static_cast<int64_t>(node->buffers.size());
  array.buffers = node->buffers.empty() ? nullptr : node->buffers.data();
  array.n_children = static_cast<int64_t>(node->child_pointers.size());
  array.children = node->child_pointers.empty() ? nullptr : node->child_pointers.data();
  array.dictionary = node->dictionary ? &node->dictionary->array : nullptr;
  array.release = &ReleaseNothing;
}

}  // namespace rowbridge::row
