#include "ipc/ipc_schema.hpp"

#include <functional>

namespace rowbridge::ipc {
namespace {

// Field numbers of the tables of Schema.fbs.
enum SchemaField { kSchemaEndianness = 0, kSchemaFields = 1, kSchemaMetadata = 2 };
enum FieldField {
  kFieldName = 0,
  kFieldNullable = 1,
  kFieldTypeType = 2,
  kFieldType = 3,
  kFieldDictionary = 4,
  kFieldChildren = 5,
  kFieldMetadata = 6,
};
enum DictionaryField { kDictionaryId = 0, kDictionaryIndexType = 1, kDictionaryOrdered = 2 };

// The members of the Type union, in Schema.fbs order (0 = NONE).
enum TypeId : uint8_t {
  kTypeNull = 1,
  kTypeInt,
  kTypeFloatingPoint,
  kTypeBinary,
  kTypeUtf8,
  kTypeBool,
  kTypeDecimal,
  kTypeDate,
  kTypeTime,
  kTypeTimestamp,
  kTypeInterval,
  kTypeList,
  kTypeStruct,
  kTypeUnion,
  kTypeFixedSizeBinary,
  kTypeFixedSizeList,
  kTypeMap,
  kTypeDuration,
  kTypeLargeBinary,
  kTypeLargeUtf8,
  kTypeLargeList,
  kTypeRunEndEncoded,
  kTypeBinaryView,
  kTypeUtf8View,
  kTypeListView,
  kTypeLargeListView,
};

Status FieldError(const std::string& path, const std::string& problem) {
  return Status::Invalid("field '" + path + "': " + problem);
}

const char* UnitLetter(int16_t unit) {
  switch (unit) {
    case 0: return "s";
    case 1: return "m";
    case 2: return "u";
    case 3: return "n";
    default: return nullptr;
  }
}

/// Reads an Int table into a C Data format letter.
Status IntFormat(const FlatTable& table, const std::string& path, std::string* format) {
  int32_t bit_width = 0;
  uint8_t is_signed = 0;
  ROWBRIDGE_RETURN_NOT_OK(table.Scalar<int32_t>(0, 0, &bit_width));
  ROWBRIDGE_RETURN_NOT_OK(table.Scalar<uint8_t>(1, 0, &is_signed));
  switch (bit_width) {
    case 8: *format = is_signed ? "c" : "C"; return Status::Ok();
    case 16: *format = is_signed ? "s" : "S"; return Status::Ok();
    case 32: *format = is_signed ? "i" : "I"; return Status::Ok();
    case 64: *format = is_signed ? "l" : "L"; return Status::Ok();
    default: return FieldError(path, "invalid integer bit width " + std::to_string(bit_width));
  }
}

/// Reads the Type union member `type_id` (table `table`) into a format string
/// and checks the number of children the type takes.
Status TypeFormat(uint8_t type_id, const FlatTable& table, size_t num_children,
                  const std::string& path, std::string* format) {
  auto expect_children = [&](size_t count, const char* type_name) {
    if (num_children == count) return Status::Ok();
    return FieldError(path, std::string(type_name) + " takes " + std::to_string(count) +
                                " child field(s), not " + std::to_string(num_children));
  };
  int16_t unit = 0;
  switch (type_id) {
    case kTypeNull: *format = "n"; return expect_children(0, "null");
    case kTypeInt:
      ROWBRIDGE_RETURN_NOT_OK(IntFormat(table, path, format));
      return expect_children(0, "int");
    case kTypeFloatingPoint: {
      ROWBRIDGE_RETURN_NOT_OK(table.Scalar<int16_t>(0, 0, &unit));
      if (unit < 0 || unit > 2) return FieldError(path, "invalid floating point precision");
      *format = unit == 0 ? "e" : unit == 1 ? "f" : "g";
      return expect_children(0, "float");
    }
    case kTypeBinary: *format = "z"; return expect_children(0, "binary");
    case kTypeUtf8: *format = "u"; return expect_children(0, "utf8");
    case kTypeLargeBinary: *format = "Z"; return expect_children(0, "large_binary");
    case kTypeLargeUtf8: *format = "U"; return expect_children(0, "large_utf8");
    case kTypeBinaryView: *format = "vz"; return expect_children(0, "binary_view");
    case kTypeUtf8View: *format = "vu"; return expect_children(0, "utf8_view");
    case kTypeBool: *format = "b"; return expect_children(0, "bool");
    case kTypeDecimal: {
      int32_t precision = 0, scale = 0, bit_width = 128;
      ROWBRIDGE_RETURN_NOT_OK(table.Scalar<int32_t>(0, 0, &precision));
      ROWBRIDGE_RETURN_NOT_OK(table.Scalar<int32_t>(1, 0, &scale));
      ROWBRIDGE_RETURN_NOT_OK(table.Scalar<int32_t>(2, 128, &bit_width));
      if (bit_width != 32 && bit_width != 64 && bit_width != 128 && bit_width != 256) {
        return FieldError(path, "invalid decimal bit width " + std::to_string(bit_width));
      }
      *format = "d:" + std::to_string(precision) + "," + std::to_string(scale);
      if (bit_width != 128) *format += "," + std::to_string(bit_width);
      return expect_children(0, "decimal");
    }
    case kTypeDate:
      ROWBRIDGE_RETURN_NOT_OK(table.Scalar<int16_t>(0, 1, &unit));
      if (unit != 0 && unit != 1) return FieldError(path, "invalid date unit");
      *format = unit == 0 ? "tdD" : "tdm";
      return expect_children(0, "date");
    case kTypeTime: {
      int32_t bit_width = 32;
      ROWBRIDGE_RETURN_NOT_OK(table.Scalar<int16_t>(0, 1, &unit));
      ROWBRIDGE_RETURN_NOT_OK(table.Scalar<int32_t>(1, 32, &bit_width));
      const char* letter = UnitLetter(unit);
      if (letter == nullptr) return FieldError(path, "invalid time unit");
      if (bit_width != (unit <= 1 ? 32 : 64)) {
        return FieldError(
            path, "time bit width " + std::to_string(bit_width) + " does not match its unit");
      }
      *format = std::string("tt") + letter;
      return expect_children(0, "time");
    }
    case kTypeTimestamp: {
      ROWBRIDGE_RETURN_NOT_OK(table.Scalar<int16_t>(0, 0, &unit));
      const char* letter = UnitLetter(unit);
      if (letter == nullptr) return FieldError(path, "invalid timestamp unit");
      std::string_view timezone;
      bool present = false;
      ROWBRIDGE_RETURN_NOT_OK(table.String(1, &timezone, &present));
      *format = std::string("ts") + letter + ":" + std::string(timezone);
      return expect_children(0, "timestamp");
    }
    case kTypeInterval:
      ROWBRIDGE_RETURN_NOT_OK(table.Scalar<int16_t>(0, 0, &unit));
      if (unit < 0 || unit > 2) return FieldError(path, "invalid interval unit");
      *format = unit == 0 ? "tiM" : unit == 1 ? "tiD" : "tin";
      return expect_children(0, "interval");
    case kTypeDuration: {
      ROWBRIDGE_RETURN_NOT_OK(table.Scalar<int16_t>(0, 1, &unit));
      const char* letter = UnitLetter(unit);
      if (letter == nullptr) return FieldError(path, "invalid duration unit");
      *format = std::string("tD") + letter;
      return expect_children(0, "duration");
    }
    case kTypeFixedSizeBinary: {
      int32_t width = 0;
      ROWBRIDGE_RETURN_NOT_OK(table.Scalar<int32_t>(0, 0, &width));
      if (width < 0) return FieldError(path, "negative fixed_size_binary width");
      *format = "w:" + std::to_string(width);
      return expect_children(0, "fixed_size_binary");
    }
    case kTypeList: *format = "+l"; return expect_children(1, "list");
    case kTypeLargeList: *format = "+L"; return expect_children(1, "large_list");
    case kTypeListView: *format = "+vl"; return expect_children(1, "list_view");
    case kTypeLargeListView: *format = "+vL"; return expect_children(1, "large_list_view");
    case kTypeFixedSizeList: {
      int32_t size = 0;
      ROWBRIDGE_RETURN_NOT_OK(table.Scalar<int32_t>(0, 0, &size));
      if (size < 0) return FieldError(path, "negative fixed_size_list size");
      *format = "+w:" + std::to_string(size);
      return expect_children(1, "fixed_size_list");
    }
    case kTypeStruct: *format = "+s"; return Status::Ok();
    case kTypeMap: *format = "+m"; return expect_children(1, "map");
    case kTypeRunEndEncoded: *format = "+r"; return expect_children(2, "run_end_encoded");
    case kTypeUnion:
      return Status::NotSupported("field '" + path + "': union types are not supported");
    default: return FieldError(path, "unknown type id " + std::to_string(type_id));
  }
}

class SchemaParser {
 public:
  explicit SchemaParser(const SchemaLimits& limits) : limits_(limits) {}

  Status ParseField(const FlatTable& table, const std::string& parent_path, size_t index,
                    int32_t depth, IpcField* out) {
    if (++count_ > limits_.max_fields) {
      return Status::Invalid("schema has more than " + std::to_string(limits_.max_fields) +
                             " fields");
    }
    if (depth > limits_.max_depth) {
      return Status::Invalid("schema nests fields deeper than " +
                             std::to_string(limits_.max_depth) + " levels");
    }
    std::string_view name;
    bool present = false;
    ROWBRIDGE_RETURN_NOT_OK(table.String(kFieldName, &name, &present));
    out->name = std::string(name);
    std::string label = present ? out->name : "[" + std::to_string(index) + "]";
    out->path = parent_path.empty() ? label : parent_path + "." + label;
    uint8_t nullable = 0;
    ROWBRIDGE_RETURN_NOT_OK(table.Scalar<uint8_t>(kFieldNullable, 0, &nullable));
    out->nullable = nullable != 0;
    ROWBRIDGE_RETURN_NOT_OK(ReadKeyValues(table, kFieldMetadata, &out->metadata));

    FlatVector children;
    ROWBRIDGE_RETURN_NOT_OK(table.Vector(kFieldChildren, 4, &children));
    if (children.size() > limits_.max_fields - count_) {
      return Status::Invalid("schema has more than " + std::to_string(limits_.max_fields) +
                             " fields");
    }
    out->children.resize(static_cast<size_t>(children.size()));
    for (int64_t i = 0; i < children.size(); ++i) {
      FlatTable child;
      ROWBRIDGE_RETURN_NOT_OK(children.TableAt(i, "Field", &child));
      ROWBRIDGE_RETURN_NOT_OK(ParseField(child, out->path, static_cast<size_t>(i), depth + 1,
                                         &out->children[static_cast<size_t>(i)]));
    }

    uint8_t type_id = 0;
    ROWBRIDGE_RETURN_NOT_OK(table.Scalar<uint8_t>(kFieldTypeType, 0, &type_id));
    FlatTable type_table;
    ROWBRIDGE_RETURN_NOT_OK(table.Table(kFieldType, "Type", &type_table, &present));
    if (!present) return FieldError(out->path, "the field has no type");
    ROWBRIDGE_RETURN_NOT_OK(
        TypeFormat(type_id, type_table, out->children.size(), out->path, &out->format));
    if (type_id == kTypeMap) {
      uint8_t sorted = 0;
      ROWBRIDGE_RETURN_NOT_OK(type_table.Scalar<uint8_t>(0, 0, &sorted));
      out->map_keys_sorted = sorted != 0;
    }
    ROWBRIDGE_RETURN_NOT_OK(CheckChildren(*out));
    Status parsed = ParseFormat(out->format.c_str(), &out->type);
    if (!parsed.ok()) return parsed.WithContext("field '" + out->path + "'");

    FlatTable dictionary;
    ROWBRIDGE_RETURN_NOT_OK(
        table.Table(kFieldDictionary, "DictionaryEncoding", &dictionary, &present));
    if (present) ROWBRIDGE_RETURN_NOT_OK(ParseDictionary(dictionary, out));
    return Status::Ok();
  }

  int64_t count() const { return count_; }

 private:
  static Status CheckChildren(const IpcField& field) {
    if (field.format == "+m") {
      const IpcField& entries = field.children[0];
      if (entries.format != "+s" || entries.children.size() != 2 || entries.is_dictionary) {
        return FieldError(field.path, "a map's child must be a struct of a key and a value");
      }
    }
    if (field.format == "+r") {
      const IpcField& run_ends = field.children[0];
      if ((run_ends.format != "s" && run_ends.format != "i" && run_ends.format != "l") ||
          run_ends.is_dictionary) {
        return FieldError(field.path,
                          "run ends must be int16, int32 or int64, not '" + run_ends.format + "'");
      }
    }
    return Status::Ok();
  }

  static Status ParseDictionary(const FlatTable& table, IpcField* out) {
    out->is_dictionary = true;
    ROWBRIDGE_RETURN_NOT_OK(table.Scalar<int64_t>(kDictionaryId, 0, &out->dictionary_id));
    uint8_t ordered = 0;
    ROWBRIDGE_RETURN_NOT_OK(table.Scalar<uint8_t>(kDictionaryOrdered, 0, &ordered));
    out->dictionary_ordered = ordered != 0;
    FlatTable index_type;
    bool present = false;
    ROWBRIDGE_RETURN_NOT_OK(table.Table(kDictionaryIndexType, "Int", &index_type, &present));
    out->index_format = "i";
    if (present) ROWBRIDGE_RETURN_NOT_OK(IntFormat(index_type, out->path, &out->index_format));
    return ParseFormat(out->index_format.c_str(), &out->index_type);
  }

  SchemaLimits limits_;
  int64_t count_ = 0;
};

/// True when two fields have the same value layout, recursively.
bool SameValueLayout(const IpcField& a, const IpcField& b) {
  if (a.format != b.format || a.children.size() != b.children.size()) return false;
  if (a.is_dictionary != b.is_dictionary) return false;
  if (a.is_dictionary && (a.dictionary_id != b.dictionary_id || a.index_format != b.index_format)) {
    return false;
  }
  for (size_t i = 0; i < a.children.size(); ++i) {
    if (!SameValueLayout(a.children[i], b.children[i])) return false;
  }
  return true;
}

Status CheckDictionaries(const IpcSchema& schema) {
  std::map<int64_t, const IpcField*> seen;
  std::function<Status(const IpcField&)> visit = [&](const IpcField& field) -> Status {
    if (field.is_dictionary) {
      auto [it, inserted] = seen.emplace(field.dictionary_id, &field);
      if (!inserted && !SameValueLayout(*it->second, field)) {
        return Status::Invalid("dictionary id " + std::to_string(field.dictionary_id) +
                               " is used by fields '" + it->second->path + "' and '" + field.path +
                               "' of different value types");
      }
    }
    for (const IpcField& child : field.children) ROWBRIDGE_RETURN_NOT_OK(visit(child));
    return Status::Ok();
  };
  for (const IpcField& field : schema.fields) ROWBRIDGE_RETURN_NOT_OK(visit(field));
  return Status::Ok();
}

}  // namespace

Status ReadKeyValues(const FlatTable& table, int field, KeyValues* out) {
  out->clear();
  FlatVector pairs;
  ROWBRIDGE_RETURN_NOT_OK(table.Vector(field, 4, &pairs));
  for (int64_t i = 0; i < pairs.size(); ++i) {
    FlatTable pair;
    ROWBRIDGE_RETURN_NOT_OK(pairs.TableAt(i, "KeyValue", &pair));
    std::string_view key, value;
    bool present = false;
    ROWBRIDGE_RETURN_NOT_OK(pair.String(0, &key, &present));
    ROWBRIDGE_RETURN_NOT_OK(pair.String(1, &value, &present));
    out->emplace_back(std::string(key), std::string(value));
  }
  return Status::Ok();
}

void IndexDictionaries(IpcSchema* schema) {
  schema->dictionaries.clear();
  std::function<void(const IpcField&)> visit = [&](const IpcField& field) {
    if (field.is_dictionary) schema->dictionaries.emplace(field.dictionary_id, &field);
    for (const IpcField& child : field.children) visit(child);
  };
  for (const IpcField& field : schema->fields) visit(field);
}

Status ParseSchema(const FlatTable& schema, const SchemaLimits& limits, IpcSchema* out) {
  int16_t endianness = 0;
  ROWBRIDGE_RETURN_NOT_OK(schema.Scalar<int16_t>(kSchemaEndianness, 0, &endianness));
  if (endianness != 0) {
    return Status::NotSupported(
        "big-endian data (Schema.endianness = Big) is not supported: rowbridge reads "
        "little-endian Arrow IPC only");
  }
  ROWBRIDGE_RETURN_NOT_OK(ReadKeyValues(schema, kSchemaMetadata, &out->metadata));
  FlatVector fields;
  ROWBRIDGE_RETURN_NOT_OK(schema.Vector(kSchemaFields, 4, &fields));
  if (fields.size() > limits.max_fields) {
    return Status::Invalid("schema has more than " + std::to_string(limits.max_fields) + " fields");
  }
  SchemaParser parser(limits);
  out->fields.clear();
  out->fields.resize(static_cast<size_t>(fields.size()));
  for (int64_t i = 0; i < fields.size(); ++i) {
    FlatTable field;
    ROWBRIDGE_RETURN_NOT_OK(fields.TableAt(i, "Field", &field));
    ROWBRIDGE_RETURN_NOT_OK(parser.ParseField(field, "", static_cast<size_t>(i), 1,
                                              &out->fields[static_cast<size_t>(i)]));
  }
  out->total_fields = parser.count();
  ROWBRIDGE_RETURN_NOT_OK(CheckDictionaries(*out));
  IndexDictionaries(out);
  return Status::Ok();
}

}  // namespace rowbridge::ipc
