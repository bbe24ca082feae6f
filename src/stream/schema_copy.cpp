// CopySchema: every node owns its strings and its children, which may be
// moved out and released on their own (as the C Data Interface allows).
#include "stream/schema_copy.hpp"

#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "arrow/bits.hpp"

namespace rowbridge::stream::detail {
namespace {

struct NodeData {
  std::string format;
  std::string name;
  std::string metadata;
  bool has_name = false;
  std::vector<ArrowSchema*> children;
  ArrowSchema* dictionary = nullptr;
};

void ReleaseNode(ArrowSchema* schema) {
  auto* data = static_cast<NodeData*>(schema->private_data);
  for (ArrowSchema* child : data->children) {
    if (child->release != nullptr) child->release(child);
    delete child;
  }
  if (data->dictionary != nullptr) {
    if (data->dictionary->release != nullptr) data->dictionary->release(data->dictionary);
    delete data->dictionary;
  }
  delete data;
  schema->release = nullptr;
}

/// The byte length of C Data Interface metadata (0 for none).
Status MetadataLength(const char* metadata, size_t* out) {
  *out = 0;
  if (metadata == nullptr) return Status::Ok();
  int32_t pairs = Load<int32_t>(metadata);
  if (pairs < 0) return Status::Invalid("schema metadata with a negative pair count");
  size_t at = 4;
  for (int32_t i = 0; i < 2 * pairs; ++i) {
    int32_t length = Load<int32_t>(metadata + at);
    if (length < 0) return Status::Invalid("schema metadata with a negative length");
    at += 4 + static_cast<size_t>(length);
  }
  *out = at;
  return Status::Ok();
}

/// Fills `out` from `source`; on failure `out` stays released.
Status CopyNode(const ArrowSchema& source, ArrowSchema* out, int depth) {
  *out = ArrowSchema{};
  if (depth > 1000) return Status::Invalid("schema nested deeper than 1000 levels");
  if (source.format == nullptr) return Status::Invalid("schema node without a format");
  if (source.n_children < 0 || (source.n_children > 0 && source.children == nullptr)) {
    return Status::Invalid("schema node with an invalid child count");
  }
  size_t metadata_length = 0;
  ROWBRIDGE_RETURN_NOT_OK(MetadataLength(source.metadata, &metadata_length));
  auto owned = std::make_unique<NodeData>();
  owned->format = source.format;
  owned->has_name = source.name != nullptr;
  if (owned->has_name) owned->name = source.name;
  owned->metadata.assign(source.metadata == nullptr ? "" : source.metadata, metadata_length);
  NodeData* data = owned.release();
  out->flags = source.flags;
  out->private_data = data;
  out->release = ReleaseNode;  // from here on, releasing `out` frees what is built
  Status status;
  try {
    data->children.reserve(static_cast<size_t>(source.n_children));
    for (int64_t i = 0; i < source.n_children && status.ok(); ++i) {
      data->children.push_back(new ArrowSchema{});
      status = CopyNode(*source.children[i], data->children.back(), depth + 1);
    }
    if (status.ok() && source.dictionary != nullptr) {
      data->dictionary = new ArrowSchema{};
      status = CopyNode(*source.dictionary, data->dictionary, depth + 1);
    }
  } catch (const std::bad_alloc&) {
    status = Status::OutOfMemory("out of memory copying a schema");
  }
  if (!status.ok()) {
    ReleaseNode(out);
    return status;
  }
  out->format = data->format.c_str();
  out->name = data->has_name ? data->name.c_str() : nullptr;
  out->metadata = source.metadata == nullptr ? nullptr : data->metadata.data();
  out->n_children = source.n_children;
  out->children = data->children.empty() ? nullptr : data->children.data();
  out->dictionary = data->dictionary;
  return Status::Ok();
}

}  // namespace

Status CopySchema(const ArrowSchema& source, ArrowSchema* out) {
  if (source.release == nullptr) return Status::Invalid("cannot copy a released schema");
  try {
    return CopyNode(source, out, 0);
  } catch (const std::bad_alloc&) {
    *out = ArrowSchema{};
    return Status::OutOfMemory("out of memory copying a schema");
  }
}

}  // namespace rowbridge::stream::detail
