#include "bench/arrow_node.hpp"

namespace rowbridge::bench {
namespace {

/// What an exported schema owns: its strings and its children's structs.
struct SchemaPrivate {
  std::string format;
  std::string name;
  std::vector<std::unique_ptr<ArrowSchema>> children;
  std::vector<ArrowSchema*> child_pointers;
  std::unique_ptr<ArrowSchema> dictionary;
};

void ReleaseSchema(ArrowSchema* schema) {
  auto* owned = static_cast<SchemaPrivate*>(schema->private_data);
  for (ArrowSchema* child : owned->child_pointers) {
    if (child->release != nullptr) child->release(child);
  }
  if (owned->dictionary != nullptr && owned->dictionary->release != nullptr) {
    owned->dictionary->release(owned->dictionary.get());
  }
  delete owned;
  schema->release = nullptr;
}

/// What an exported array owns: its buffer list and its children's structs.
struct ArrayPrivate {
  std::vector<const void*> buffers;
  std::vector<std::unique_ptr<ArrowArray>> children;
  std::vector<ArrowArray*> child_pointers;
  std::unique_ptr<ArrowArray> dictionary;
};

void ReleaseArray(ArrowArray* array) {
  auto* owned = static_cast<ArrayPrivate*>(array->private_data);
  for (ArrowArray* child : owned->child_pointers) {
    if (child->release != nullptr) child->release(child);
  }
  if (owned->dictionary != nullptr && owned->dictionary->release != nullptr) {
    owned->dictionary->release(owned->dictionary.get());
  }
  delete owned;
  array->release = nullptr;
}

}  // namespace

void ExportSchema(const ArrayNode& node, ArrowSchema* out) {
  auto owned = std::make_unique<SchemaPrivate>();
  owned->format = node.format;
  owned->name = node.name;
  for (const ArrayNode& child : node.children) {
    owned->children.push_back(std::make_unique<ArrowSchema>());
    ExportSchema(child, owned->children.back().get());
    owned->child_pointers.push_back(owned->children.back().get());
  }
  if (node.dictionary != nullptr) {
    owned->dictionary = std::make_unique<ArrowSchema>();
    ExportSchema(*node.dictionary, owned->dictionary.get());
  }
  out->format = owned->format.c_str();
  out->name = owned->name.c_str();
  out->metadata = nullptr;
  out->flags = node.flags;
  out->n_children = static_cast<int64_t>(owned->child_pointers.size());
  out->children = owned->child_pointers.empty() ? nullptr : owned->child_pointers.data();
  out->dictionary = owned->dictionary.get();
  out->release = &ReleaseSchema;
  out->private_data = owned.release();
}

void ExportArray(const ArrayNode& node, ArrowArray* out) {
  auto owned = std::make_unique<ArrayPrivate>();
  for (const Bytes& buffer : node.buffers) {
    owned->buffers.push_back(buffer.empty() ? nullptr : buffer.data());
  }
  for (const ArrayNode& child : node.children) {
    owned->children.push_back(std::make_unique<ArrowArray>());
    ExportArray(child, owned->children.back().get());
    owned->child_pointers.push_back(owned->children.back().get());
  }
  if (node.dictionary != nullptr) {
    owned->dictionary = std::make_unique<ArrowArray>();
    ExportArray(*node.dictionary, owned->dictionary.get());
  }
  out->length = node.length;
  out->null_count = node.null_count;
  out->offset = 0;
  out->n_buffers = static_cast<int64_t>(owned->buffers.size());
  out->n_children = static_cast<int64_t>(owned->child_pointers.size());
  out->buffers = owned->buffers.empty() ? nullptr : owned->buffers.data();
  out->children = owned->child_pointers.empty() ? nullptr : owned->child_pointers.data();
  out->dictionary = owned->dictionary.get();
  out->release = &ReleaseArray;
  out->private_data = owned.release();
}

}  // namespace rowbridge::bench
