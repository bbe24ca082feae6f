#include "arrow/arrow_field.hpp"

#include <cstring>

#include "arrow/bits.hpp"

namespace rowbridge {
namespace {

constexpr int kMaxDepth = 64;

bool IsInteger(ArrowTypeId id) {
  switch (id) {
    case ArrowTypeId::kInt8:
    case ArrowTypeId::kInt16:
    case ArrowTypeId::kInt32:
    case ArrowTypeId::kInt64:
    case ArrowTypeId::kUInt8:
    case ArrowTypeId::kUInt16:
    case ArrowTypeId::kUInt32:
    case ArrowTypeId::kUInt64: return true;
    default: return false;
  }
}

Status CheckChildren(const ArrowField& field, const std::string& path) {
  size_t n = field.children.size();
  auto expect = [&](size_t count) -> Status {
    if (n == count) return Status::Ok();
    return Status::Invalid("field '" + path + "' of type " + ArrowTypeName(field.type) + " has " +
                           std::to_string(n) + " children, expected " + std::to_string(count));
  };
  switch (field.type.id) {
    case ArrowTypeId::kStruct:
    case ArrowTypeId::kDenseUnion:
    case ArrowTypeId::kSparseUnion: return Status::Ok();
    case ArrowTypeId::kList:
    case ArrowTypeId::kLargeList:
    case ArrowTypeId::kFixedSizeList:
    case ArrowTypeId::kListView:
    case ArrowTypeId::kLargeListView: return expect(1);
    case ArrowTypeId::kMap: {
      ROWBRIDGE_RETURN_NOT_OK(expect(1));
      const ArrowField& entries = field.children[0];
      if (entries.type.id != ArrowTypeId::kStruct || entries.children.size() != 2 ||
          entries.is_dictionary()) {
        return Status::Invalid("field '" + path +
                               "' is a map whose child is not a struct of key and value");
      }
      return Status::Ok();
    }
    case ArrowTypeId::kRunEndEncoded: {
      ROWBRIDGE_RETURN_NOT_OK(expect(2));
      ArrowTypeId run_ends = field.children[0].type.id;
      if (run_ends != ArrowTypeId::kInt16 && run_ends != ArrowTypeId::kInt32 &&
          run_ends != ArrowTypeId::kInt64) {
        return Status::Invalid("field '" + path + "' is run-end encoded with run ends of type " +
                               ArrowTypeName(field.children[0].type) +
                               ", expected int16, int32 or int64");
      }
      return Status::Ok();
    }
    default: return expect(0);
  }
}

Status ImportField(const ArrowSchema& schema, const std::string& parent_path, int depth,
                   ArrowField* out) {
  if (schema.release == nullptr) {
    return Status::Invalid("schema node under '" + parent_path + "' is released");
  }
  if (depth > kMaxDepth) {
    return Status::Invalid("schema nesting under '" + parent_path + "' exceeds " +
                           std::to_string(kMaxDepth) + " levels");
  }
  out->name = schema.name != nullptr ? schema.name : "";
  std::string path = parent_path.empty() ? out->name : parent_path + "." + out->name;
  if (schema.format == nullptr) {
    return Status::Invalid("field '" + path + "' has no format string");
  }
  out->format = schema.format;
  ROWBRIDGE_RETURN_NOT_OK(
      ParseFormat(schema.format, &out->type).WithContext("field '" + path + "'"));
  out->nullable = (schema.flags & ARROW_FLAG_NULLABLE) != 0;
  out->map_keys_sorted = (schema.flags & ARROW_FLAG_MAP_KEYS_SORTED) != 0;
  ROWBRIDGE_RETURN_NOT_OK(
      DecodeMetadata(schema.metadata, &out->metadata).WithContext("field '" + path + "'"));
  if (schema.n_children < 0 || (schema.n_children > 0 && schema.children == nullptr)) {
    return Status::Invalid("field '" + path + "' has an invalid child list (n_children = " +
                           std::to_string(schema.n_children) + ")");
  }
  out->children.resize(static_cast<size_t>(schema.n_children));
  for (int64_t i = 0; i < schema.n_children; ++i) {
    if (schema.children[i] == nullptr) {
      return Status::Invalid("field '" + path + "' child " + std::to_string(i) + " is NULL");
    }
    ROWBRIDGE_RETURN_NOT_OK(ImportField(*schema.children[i], path, depth + 1, &out->children[i]));
  }
  ROWBRIDGE_RETURN_NOT_OK(CheckChildren(*out, path));
  if (schema.dictionary != nullptr) {
    if (!IsInteger(out->type.id)) {
      return Status::Invalid("field '" + path + "' is dictionary-encoded with index type " +
                             ArrowTypeName(out->type) + ", expected an integer type");
    }
    out->dictionary.resize(1);
    ROWBRIDGE_RETURN_NOT_OK(ImportField(*schema.dictionary, path, depth + 1, &out->dictionary[0]));
  }
  return Status::Ok();
}

}  // namespace

Status ImportSchema(const ArrowSchema& schema, ArrowField* out) {
  return ImportField(schema, "", 0, out);
}

Status DecodeMetadata(const char* metadata, std::vector<std::pair<std::string, std::string>>* out) {
  out->clear();
  if (metadata == nullptr) return Status::Ok();
  // The encoding carries no total size, so it cannot be bounds-checked; counts
  // and lengths are at least required to be non-negative and sane.
  constexpr int32_t kMaxEntries = 1 << 20;
  int32_t count = Load<int32_t>(metadata);
  if (count < 0 || count > kMaxEntries) {
    return Status::Invalid("metadata has an invalid entry count " + std::to_string(count));
  }
  const char* p = metadata + 4;
  for (int32_t i = 0; i < count; ++i) {
    std::string parts[2];
    for (std::string& part : parts) {
      int32_t length = Load<int32_t>(p);
      if (length < 0) {
        return Status::Invalid("metadata entry " + std::to_string(i) + " has a negative length");
      }
      part.assign(p + 4, static_cast<size_t>(length));
      p += 4 + length;
    }
    out->emplace_back(std::move(parts[0]), std::move(parts[1]));
  }
  return Status::Ok();
}

std::string FieldTypeName(const ArrowField& field) {
  if (field.is_dictionary()) {
    return "dictionary<" + ArrowTypeName(field.type) + ", " + FieldTypeName(field.dictionary[0]) +
           ">";
  }
  std::string name = ArrowTypeName(field.type);
  if (field.children.empty()) return name;
  name += "<";
  for (size_t i = 0; i < field.children.size(); ++i) {
    if (i > 0) name += ", ";
    const ArrowField& child = field.children[i];
    if (field.type.id == ArrowTypeId::kStruct) name += child.name + ": ";
    name += FieldTypeName(child);
    const std::string extension = ExtensionName(child);
    if (!extension.empty()) name += " (extension " + extension + ")";
  }
  return name + ">";
}

std::string ExtensionName(const ArrowField& field) {
  for (const auto& [key, value] : field.metadata) {
    if (key == kExtensionNameKey) return value;
  }
  return "";
}

std::vector<std::pair<std::string, std::string>> ExtensionMetadata(const ArrowField& field) {
  std::vector<std::pair<std::string, std::string>> out;
  if (ExtensionName(field).empty()) return out;
  for (const char* wanted : {kExtensionNameKey, kExtensionMetadataKey}) {
    for (const auto& pair : field.metadata) {
      if (pair.first == wanted) {
        out.push_back(pair);
        break;
      }
    }
  }
  return out;
}

bool SameLayout(const ArrowField& a, const ArrowSchema& b) {
  if (b.format == nullptr || a.format != b.format) return false;
  if (a.is_dictionary() != (b.dictionary != nullptr)) return false;
  if (b.n_children != static_cast<int64_t>(a.children.size())) return false;
  for (size_t i = 0; i < a.children.size(); ++i) {
    if (b.children[i] == nullptr || !SameLayout(a.children[i], *b.children[i])) return false;
  }
  return !a.is_dictionary() || SameLayout(a.dictionary[0], *b.dictionary);
}

}  // namespace rowbridge
