#include "decoder/canonical_arrow.hpp"

namespace rowbridge::decoder {
namespace {

std::string FormatOf(const SparkType& type) {
  switch (type.id) {
    case SparkTypeId::kNull: return "n";
    case SparkTypeId::kBoolean: return "b";
    case SparkTypeId::kByte: return "c";
    case SparkTypeId::kShort: return "s";
    case SparkTypeId::kInteger: return "i";
    case SparkTypeId::kLong: return "l";
    case SparkTypeId::kFloat: return "f";
    case SparkTypeId::kDouble: return "g";
    case SparkTypeId::kDecimal:
      return "d:" + std::to_string(type.precision) + "," + std::to_string(type.scale);
    case SparkTypeId::kString: return "u";
    case SparkTypeId::kBinary: return "z";
    case SparkTypeId::kDate: return "tdD";
    case SparkTypeId::kTimestamp: return "tsu:UTC";
    case SparkTypeId::kTimestampNtz: return "tsu:";
    case SparkTypeId::kYearMonthInterval: return "tiM";
    case SparkTypeId::kDayTimeInterval: return "tDu";
    case SparkTypeId::kCalendarInterval: return "tin";
    case SparkTypeId::kTime: return "ttn";
    case SparkTypeId::kVariant: return "+s";
    case SparkTypeId::kStruct: return "+s";
    case SparkTypeId::kArray: return "+l";
    case SparkTypeId::kMap: return "+m";
  }
  return "";
}

using Metadata = std::vector<std::pair<std::string, std::string>>;

/// Whether Arrow readers take the extension `name` over `type`, the type rows
/// decode to: rows never decode to the fixed-size storage of arrow.uuid and the
/// tensors, and arrow.bool8 and arrow.json have one storage each here.
bool WritesBack(const std::string& name, const ArrowType& type) {
  if (name == "arrow.uuid" || name == "arrow.fixed_shape_tensor" ||
      name == "arrow.variable_shape_tensor") {
    return false;
  }
  if (name == "arrow.bool8") return type.id == ArrowTypeId::kInt8;
  if (name == "arrow.json") return type.id == ArrowTypeId::kUtf8;
  return true;
}

/// The field metadata of a field of `type` whose SparkField has `metadata`: the
/// extension keys, where the extension can have that storage.
Metadata ExtensionOf(const Metadata& metadata, const ArrowType& type) {
  for (const auto& [key, value] : metadata) {
    if (key == kExtensionNameKey && WritesBack(value, type)) return metadata;
  }
  return {};
}

Status CanonicalField(const SparkType& type, const std::string& name, bool nullable,
                      const Metadata& metadata, ArrowField* out) {
  ArrowField field;
  field.name = name;
  field.nullable = nullable;
  field.format = FormatOf(type);
  ROWBRIDGE_RETURN_NOT_OK(
      ParseFormat(field.format.c_str(), &field.type).WithContext("field '" + name + "'"));
  field.metadata = ExtensionOf(metadata, field.type);
  const size_t expected = type.id == SparkTypeId::kArray ? 1 : type.id == SparkTypeId::kMap ? 2 : 0;
  // A variant's children are its own, not fields of the Spark type.
  if (type.id != SparkTypeId::kStruct && type.fields.size() != expected) {
    return Status::Invalid("field '" + name + "': a " + type.ToString() + " with " +
                           std::to_string(type.fields.size()) + " fields");
  }
  if (type.id == SparkTypeId::kVariant) {
    // As Spark's ArrowUtils writes it: only the metadata child is tagged.
    const char* names[2] = {"value", "metadata"};
    for (const char* child_name : names) {
      ArrowField child;
      child.name = child_name;
      child.nullable = false;
      child.format = "z";
      ROWBRIDGE_RETURN_NOT_OK(ParseFormat(child.format.c_str(), &child.type));
      field.children.push_back(std::move(child));
    }
    field.children[1].metadata = {{"variant", "true"}};
  } else if (type.id == SparkTypeId::kMap) {
    ArrowField entries;
    entries.name = "entries";
    entries.nullable = false;
    entries.format = "+s";
    ROWBRIDGE_RETURN_NOT_OK(ParseFormat(entries.format.c_str(), &entries.type));
    entries.children.resize(2);
    const SparkField& key = type.fields[0];
    const SparkField& value = type.fields[1];
    ROWBRIDGE_RETURN_NOT_OK(
        CanonicalField(key.type, "key", false, key.metadata, &entries.children[0]));
    ROWBRIDGE_RETURN_NOT_OK(
        CanonicalField(value.type, "value", value.nullable, value.metadata, &entries.children[1]));
    field.children.push_back(std::move(entries));
  } else {
    for (const SparkField& child : type.fields) {
      field.children.emplace_back();
      ROWBRIDGE_RETURN_NOT_OK(CanonicalField(child.type, child.name, child.nullable, child.metadata,
                                             &field.children.back()));
    }
  }
  *out = std::move(field);
  return Status::Ok();
}

}  // namespace

Status CanonicalArrowField(const SparkType& type, const std::string& name, bool nullable,
                           ArrowField* out) {
  return CanonicalField(type, name, nullable, {}, out);
}

}  // namespace rowbridge::decoder
