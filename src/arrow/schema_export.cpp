#include "arrow/schema_export.hpp"

#include <cstring>
#include <new>

namespace rowbridge {

void SchemaNode::ResizeChildren(size_t n) {
  child_storage.resize(n);
  children.resize(n);
  for (size_t i = 0; i < n; ++i) {
    child_storage[i] = ArrowSchema{};
    children[i] = &child_storage[i];
  }
}

SchemaNode::~SchemaNode() {
  for (ArrowSchema& child : child_storage) {
    if (child.release != nullptr) child.release(&child);
  }
  if (dictionary.release != nullptr) dictionary.release(&dictionary);
}

namespace {

void ReleaseSchema(ArrowSchema* schema) {
  delete static_cast<SchemaNode*>(schema->private_data);
  schema->release = nullptr;
}

void AppendInt32(std::string* out, int32_t value) {
  char bytes[4];
  std::memcpy(bytes, &value, 4);
  out->append(bytes, 4);
}

/// Exports one node; throws std::bad_alloc (leaving `out` untouched).
void ExportNode(const ArrowField& field, ArrowSchema* out) {
  auto node = std::make_unique<SchemaNode>();
  node->format = field.format;
  node->name = field.name;
  node->metadata = EncodeMetadata(field.metadata);
  node->ResizeChildren(field.children.size());
  for (size_t i = 0; i < field.children.size(); ++i)
    ExportNode(field.children[i], &node->child_storage[i]);
  const int64_t flags = (field.nullable ? ARROW_FLAG_NULLABLE : 0) |
                        (field.map_keys_sorted ? ARROW_FLAG_MAP_KEYS_SORTED : 0);
  FinishSchemaNode(std::move(node), flags, false, out);
}

bool HasDictionary(const ArrowField& field) {
  if (field.is_dictionary()) return true;
  for (const ArrowField& child : field.children) {
    if (HasDictionary(child)) return true;
  }
  return false;
}

}  // namespace

std::string EncodeMetadata(const std::vector<std::pair<std::string, std::string>>& pairs) {
  std::string out;
  if (pairs.empty()) return out;
  AppendInt32(&out, static_cast<int32_t>(pairs.size()));
  for (const auto& [key, value] : pairs) {
    AppendInt32(&out, static_cast<int32_t>(key.size()));
    out += key;
    AppendInt32(&out, static_cast<int32_t>(value.size()));
    out += value;
  }
  return out;
}

void FinishSchemaNode(std::unique_ptr<SchemaNode> node, int64_t flags, bool has_dictionary,
                      ArrowSchema* out) {
  out->format = node->format.c_str();
  out->name = node->name.c_str();
  out->metadata = node->metadata.empty() ? nullptr : node->metadata.data();
  out->flags = flags;
  out->n_children = static_cast<int64_t>(node->children.size());
  out->children = node->children.empty() ? nullptr : node->children.data();
  out->dictionary = has_dictionary ? &node->dictionary : nullptr;
  out->release = ReleaseSchema;
  out->private_data = node.release();
}

Status ExportField(const ArrowField& field, ArrowSchema* out) {
  if (HasDictionary(field)) return Status::NotSupported("exporting a dictionary-encoded field");
  try {
    ExportNode(field, out);
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("out of memory exporting a schema");
  }
}

}  // namespace rowbridge
