// Export of a parsed IPC schema as C Data Interface ArrowSchema structs.
#include "arrow/schema_export.hpp"

#include <cstring>
#include <memory>
#include <new>

#include "ipc/ipc_schema.hpp"

namespace rowbridge::ipc {
namespace {

void ExportChildren(const std::vector<IpcField>& fields, SchemaNode* p);

/// Exports the value type of `field`: its format, children and flags, named
/// `name`, with `metadata`.
void ExportValue(const IpcField& field, const std::string& name, const std::string& metadata,
                 int64_t flags, ArrowSchema* out) {
  auto p = std::make_unique<SchemaNode>();
  p->format = field.format;
  p->name = name;
  p->metadata = metadata;
  ExportChildren(field.children, p.get());
  if (field.map_keys_sorted) flags |= ARROW_FLAG_MAP_KEYS_SORTED;
  FinishSchemaNode(std::move(p), flags, false, out);
}

void ExportField(const IpcField& field, ArrowSchema* out) {
  int64_t flags = field.nullable ? ARROW_FLAG_NULLABLE : 0;
  std::string metadata = EncodeMetadata(field.metadata);
  if (!field.is_dictionary) {
    ExportValue(field, field.name, metadata, flags, out);
    return;
  }
  auto p = std::make_unique<SchemaNode>();
  p->format = field.index_format;
  p->name = field.name;
  p->metadata = std::move(metadata);
  ExportValue(field, "", "", ARROW_FLAG_NULLABLE, &p->dictionary);
  if (field.dictionary_ordered) flags |= ARROW_FLAG_DICTIONARY_ORDERED;
  FinishSchemaNode(std::move(p), flags, true, out);
}

void ExportChildren(const std::vector<IpcField>& fields, SchemaNode* p) {
  p->ResizeChildren(fields.size());
  for (size_t i = 0; i < fields.size(); ++i) ExportField(fields[i], &p->child_storage[i]);
}

}  // namespace

Status ExportIpcSchema(const IpcSchema& schema, ArrowSchema* out) {
  try {
    auto p = std::make_unique<SchemaNode>();
    p->format = "+s";
    p->metadata = EncodeMetadata(schema.metadata);
    ExportChildren(schema.fields, p.get());
    FinishSchemaNode(std::move(p), 0, false, out);
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
