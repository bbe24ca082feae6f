#include "support/owned_arrow/array_node.hpp"

#include <cstring>

namespace rowbridge::owned_arrow {
namespace {

/// The children's and the dictionary's structs of an exported schema or
/// array (`Exported`), which own their own private data.
template <typename Exported>
struct ExportedDescendants {
  std::vector<std::unique_ptr<Exported>> children;
  std::vector<Exported*> child_pointers;
  std::unique_ptr<Exported> dictionary;
};

/// What an exported schema owns: its strings and its descendants' structs.
struct SchemaPrivate : ExportedDescendants<ArrowSchema> {
  std::string format;
  std::string name;
  std::string metadata;
};

/// What an exported array owns: its buffer list, the copies of its buffers
/// (none when borrowed) and its descendants' structs.
struct ArrayPrivate : ExportedDescendants<ArrowArray> {
  std::vector<std::unique_ptr<uint8_t[]>> copies;
  std::vector<const void*> buffers;
};

/// The release callback of a schema or an array exported here (`Private` its
/// private data): releases the children and the dictionary, then frees what
/// `exported` owns.
template <typename Private, typename Exported>
void ReleaseExported(Exported* exported) {
  auto* owned = static_cast<Private*>(exported->private_data);
  for (Exported* child : owned->child_pointers) {
    if (child->release != nullptr) child->release(child);
  }
  if (owned->dictionary != nullptr && owned->dictionary->release != nullptr) {
    owned->dictionary->release(owned->dictionary.get());
  }
  delete owned;
  exported->release = nullptr;
}

/// The pointer `buffer` exports as under `mode`: a copy belongs to `owned`
/// (the exported array's private data), a borrowed pointer to the node.
const void* ExportBuffer(const std::optional<Bytes>& buffer, BufferExport mode,
                         ArrayPrivate* owned) {
  if (!buffer.has_value()) return nullptr;
  if (mode == BufferExport::kBorrow) return buffer->empty() ? nullptr : buffer->data();
  // Exact size: a read past the end is a heap overflow under AddressSanitizer.
  std::unique_ptr<uint8_t[]> copy(new uint8_t[buffer->empty() ? 1 : buffer->size()]);
  if (!buffer->empty()) std::memcpy(copy.get(), buffer->data(), buffer->size());
  owned->copies.push_back(std::move(copy));
  return owned->copies.back().get();
}

}  // namespace

void ExportSchema(const ArrayNode& node, ArrowSchema* out) {
  auto owned = std::make_unique<SchemaPrivate>();
  owned->format = node.format;
  owned->name = node.name;
  owned->metadata = node.metadata;
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
  out->metadata = owned->metadata.empty() ? nullptr : owned->metadata.data();
  out->flags = node.nullable ? ARROW_FLAG_NULLABLE : 0;
  out->n_children = static_cast<int64_t>(owned->child_pointers.size());
  out->children = owned->child_pointers.empty() ? nullptr : owned->child_pointers.data();
  out->dictionary = owned->dictionary.get();
  out->release = &ReleaseExported<SchemaPrivate, ArrowSchema>;
  out->private_data = owned.release();
}

void ExportArray(const ArrayNode& node, ArrowArray* out, BufferExport mode) {
  auto owned = std::make_unique<ArrayPrivate>();
  for (const std::optional<Bytes>& buffer : node.buffers) {
    owned->buffers.push_back(ExportBuffer(buffer, mode, owned.get()));
  }
  for (const ArrayNode& child : node.children) {
    owned->children.push_back(std::make_unique<ArrowArray>());
    ExportArray(child, owned->children.back().get(), mode);
    owned->child_pointers.push_back(owned->children.back().get());
  }
  if (node.dictionary != nullptr) {
    owned->dictionary = std::make_unique<ArrowArray>();
    ExportArray(*node.dictionary, owned->dictionary.get(), mode);
  }
  out->length = node.length;
  out->null_count = node.null_count;
  out->offset = node.offset;
  out->n_buffers = static_cast<int64_t>(owned->buffers.size());
  out->n_children = static_cast<int64_t>(owned->child_pointers.size());
  out->buffers = owned->buffers.empty() ? nullptr : owned->buffers.data();
  out->children = owned->child_pointers.empty() ? nullptr : owned->child_pointers.data();
  out->dictionary = owned->dictionary.get();
  out->release = &ReleaseExported<ArrayPrivate, ArrowArray>;
  out->private_data = owned.release();
}

}  // namespace rowbridge::owned_arrow
