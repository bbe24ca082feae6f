// Export of a parsed IPC schema as C Data Interface ArrowSchema structs.
#include <cstring>
#include <memory>
#include <new>

#include "ipc/ipc_schema.hpp"

namespace rowbridge::ipc {
namespace {

/// Everything one exported ArrowSchema node owns. Destroying it releases the
/// children and dictionary still attached (those not moved out by a consumer).
struct SchemaPrivate {
  std::string format;
  std::string name;
  std::string metadata;
  std::vector<ArrowSchema> child_storage;
  std::vector<ArrowSchema*> children;
  ArrowSchema dictionary{};

  ~SchemaPrivate() {
    for (ArrowSchema& child : child_storage) {
      if (child.release != nullptr) child.release(&child);
    }
    if (dictionary.release != nullptr) dictionary.release(&dictionary);
  }
};

void ReleaseSchema(ArrowSchema* schema) {
  delete static_cast<SchemaPrivate*>(schema->private_data);
  schema->release = nullptr;
}

void AppendInt32(std::string* out, int32_t value) {
  char bytes[4];
  std::memcpy(bytes, &value, 4);
  out->append(bytes, 4);
}

/// Encodes `pairs` in the C Data Interface metadata format ("" when empty).
std::string EncodeMetadata(const KeyValues& pairs) {
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

/// Moves `p` into `out` as a finished node.
void Finish(std::unique_ptr<SchemaPrivate> p, int64_t flags, bool has_dictionary,
            ArrowSchema* out) {
  out->format = p->format.c_str();
  out->name = p->name.c_str();
  out->metadata = p->metadata.empty() ? nullptr : p->metadata.data();
  out->flags = flags;
  out->n_children = static_cast<int64_t>(p->children.size());
  out->children = p->children.empty() ? nullptr : p->children.data();
  out->dictionary = has_dictionary ? &p->dictionary : nullptr;
  out->release = ReleaseSchema;
  out->private_data = p.release();
}

void ExportChildren(const std::vector<IpcField>& fields, SchemaPrivate* p);

/// Exports the value type of `field`: its format, children and flags, named
/// `name`, with `metadata`.
void ExportValue(const IpcField& field, const std::string& name, const std::string& metadata,
                 int64_t flags, ArrowSchema* out) {
  auto p = std::make_unique<SchemaPrivate>();
  p->format = field.format;
  p->name = name;
  p->metadata = metadata;
  ExportChildren(field.children, p.get());
  if (field.map_keys_sorted) flags |= ARROW_FLAG_MAP_KEYS_SORTED;
  Finish(std::move(p), flags, false, out);
}

void ExportField(const IpcField& field, ArrowSchema* out) {
  int64_t flags = field.nullable ? ARROW_FLAG_NULLABLE : 0;
  std::string metadata = EncodeMetadata(field.metadata);
  if (!field.is_dictionary) {
    ExportValue(field, field.name, metadata, flags, out);
    return;
  }
  auto p = std::make_unique<SchemaPrivate>();
  p->format = field.index_format;
  p->name = field.name;
  p->metadata = std::move(metadata);
  ExportValue(field, "", "", ARROW_FLAG_NULLABLE, &p->dictionary);
  if (field.dictionary_ordered) flags |= ARROW_FLAG_DICTIONARY_ORDERED;
  Finish(std::move(p), flags, true, out);
}

void ExportChildren(const std::vector<IpcField>& fields, SchemaPrivate* p) {
  p->child_storage.resize(fields.size());
  p->children.resize(fields.size());
  for (size_t i = 0; i < fields.size(); ++i) {
    p->child_storage[i] = ArrowSchema{};
    p->children[i] = &p->child_storage[i];
  }
  for (size_t i = 0; i < fields.size(); ++i) ExportField(fields[i], &p->child_storage[i]);
}

}  // namespace

Status ExportIpcSchema(const IpcSchema& schema, ArrowSchema* out) {
  try {
    auto p = std::make_unique<SchemaPrivate>();
    p->format = "+s";
    p->metadata = EncodeMetadata(schema.metadata);
    ExportChildren(schema.fields, p.get());
    Finish(std::move(p), 0, false, out);
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("out of memory exporting the schema");
  }
}

Status ExportValueSchema(const IpcField& field, ArrowSchema* out) {
  try {
    ExportValue(field, "", "", ARROW_FLAG_NULLABLE, out);
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("out of memory exporting a dictionary schema");
  }
}

}  // namespace rowbridge::ipc
