#include "spark/type_mapping.hpp"

#include "spark/decimal_math.hpp"

namespace rowbridge::spark {
namespace {

Status Unsupported(const std::string& path, const ArrowField& field, const std::string& why) {
  const std::string extension = ExtensionName(field);
  return Status::NotSupported("column '" + path + "' has type " + FieldTypeName(field) +
                              (extension.empty() ? "" : " (extension " + extension + ")") +
                              ", which Spark rows cannot carry" +
                              (why.empty() ? "" : " (" + why + ")"));
}

Status MapDecimal(const ArrowField& field, const std::string& path, SparkType* out) {
  const ArrowType& type = field.type;
  if (type.precision < 1 || type.precision > 38) {
    return Unsupported(path, field, "precision must be 1 to 38");
  }
  if (type.scale < 0 || type.scale > type.precision) {
    return Unsupported(path, field, "scale must be 0 to the precision");
  }
  if (type.precision > kMaxSmallDecimalDigits && type.bit_width < 128) {
    return Status::Invalid("column '" + path + "' has type " + FieldTypeName(field) +
                           ", whose width cannot hold its precision");
  }
  out->id = SparkTypeId::kDecimal;
  out->precision = type.precision;
  out->scale = type.scale;
  return Status::Ok();
}

Status MapFlat(const ArrowField& field, const std::string& path, SparkType* out) {
  switch (field.type.id) {
    case ArrowTypeId::kNull: out->id = SparkTypeId::kNull; break;
    case ArrowTypeId::kBool: out->id = SparkTypeId::kBoolean; break;
    case ArrowTypeId::kInt8: out->id = SparkTypeId::kByte; break;
    case ArrowTypeId::kInt16:
    case ArrowTypeId::kUInt8: out->id = SparkTypeId::kShort; break;
    case ArrowTypeId::kInt32:
    case ArrowTypeId::kUInt16: out->id = SparkTypeId::kInteger; break;
    case ArrowTypeId::kInt64:
    case ArrowTypeId::kUInt32: out->id = SparkTypeId::kLong; break;
    case ArrowTypeId::kUInt64:
      out->id = SparkTypeId::kDecimal;
      out->precision = 20;
      out->scale = 0;
      break;
    case ArrowTypeId::kFloat32: out->id = SparkTypeId::kFloat; break;
    case ArrowTypeId::kFloat64: out->id = SparkTypeId::kDouble; break;
    case ArrowTypeId::kDecimal: return MapDecimal(field, path, out);
    case ArrowTypeId::kDate32:
    case ArrowTypeId::kDate64: out->id = SparkTypeId::kDate; break;
    case ArrowTypeId::kTimestamp:
      out->id = field.type.has_timezone ? SparkTypeId::kTimestamp : SparkTypeId::kTimestampNtz;
      break;
    case ArrowTypeId::kDuration: out->id = SparkTypeId::kDayTimeInterval; break;
    case ArrowTypeId::kTime32:
    case ArrowTypeId::kTime64: out->id = SparkTypeId::kTime; break;
    case ArrowTypeId::kIntervalYearMonth: out->id = SparkTypeId::kYearMonthInterval; break;
    case ArrowTypeId::kIntervalMonthDayNano: out->id = SparkTypeId::kCalendarInterval; break;
    case ArrowTypeId::kUtf8:
    case ArrowTypeId::kLargeUtf8:
    case ArrowTypeId::kUtf8View: out->id = SparkTypeId::kString; break;
    case ArrowTypeId::kBinary:
    case ArrowTypeId::kLargeBinary:
    case ArrowTypeId::kBinaryView:
    case ArrowTypeId::kFixedSizeBinary: out->id = SparkTypeId::kBinary; break;
    default: return Unsupported(path, field, "");
  }
  return Status::Ok();
}

bool IsVariantChildType(ArrowTypeId id) {
  return id == ArrowTypeId::kBinary || id == ArrowTypeId::kLargeBinary ||
         id == ArrowTypeId::kBinaryView;
}

}  // namespace

bool IsVariantStruct(const ArrowField& field) {
  if (field.type.id != ArrowTypeId::kStruct || field.is_dictionary()) return false;
  bool has_value = false;
  bool tagged_metadata = false;
  for (const ArrowField& child : field.children) {
    has_value |= child.name == "value";
    if (child.name != "metadata") continue;
    for (const auto& [key, value] : child.metadata)
      tagged_metadata |= key == "variant" && value == "true";
  }
  return has_value && tagged_metadata;
}

Status CheckVariantStruct(const ArrowField& field, const std::string& path) {
  const auto& children = field.children;
  bool form = children.size() == 2 && children[0].name == "value" && children[1].name == "metadata";
  for (const ArrowField& child : children) {
    form &= !child.is_dictionary() && IsVariantChildType(child.type.id);
  }
  if (!form) {
    return Unsupported(
        path, field,
        "a variant must have the children value then metadata, each binary, large_binary "
        "or binary_view, as Spark's ArrowUtils writes it");
  }
  return Status::Ok();
}

const ArrowField& ValueField(const ArrowField& field) {
  if (field.is_dictionary()) return field.dictionary[0];
  if (field.type.id == ArrowTypeId::kRunEndEncoded) return field.children[1];
  return field;
}

Status MapToSpark(const ArrowField& field, const std::string& path, SparkField* out,
                  bool variants) {
  out->name = field.name;
  out->nullable = field.nullable;
  // An extension type reads as its storage type, which is the field's format (§2).
  out->metadata = ExtensionMetadata(field);
  const ArrowField& values = ValueField(field);
  if (&values != &field) {
    if (values.is_dictionary() || values.type.id == ArrowTypeId::kRunEndEncoded) {
      return Unsupported(path, field, "nested dictionary or run-end encodings");
    }
    SparkField inner;
    ROWBRIDGE_RETURN_NOT_OK(MapToSpark(values, path, &inner, variants));
    out->type = std::move(inner.type);
    return Status::Ok();
  }
  SparkType& type = out->type;
  if (field.variant_bytes) {
    type.id = SparkTypeId::kVariant;
    return Status::Ok();
  }
  if (variants && IsVariantStruct(field)) {
    ROWBRIDGE_RETURN_NOT_OK(CheckVariantStruct(field, path));
    type.id = SparkTypeId::kVariant;
    return Status::Ok();
  }
  switch (field.type.id) {
    case ArrowTypeId::kStruct:
      type.id = SparkTypeId::kStruct;
      type.fields.resize(field.children.size());
      for (size_t i = 0; i < field.children.size(); ++i) {
        ROWBRIDGE_RETURN_NOT_OK(MapToSpark(field.children[i], path + "." + field.children[i].name,
                                           &type.fields[i], variants));
      }
      return Status::Ok();
    case ArrowTypeId::kList:
    case ArrowTypeId::kLargeList:
    case ArrowTypeId::kFixedSizeList:
    case ArrowTypeId::kListView:
    case ArrowTypeId::kLargeListView:
      type.id = SparkTypeId::kArray;
      type.fields.resize(1);
      ROWBRIDGE_RETURN_NOT_OK(
          MapToSpark(field.children[0], path + ".element", &type.fields[0], variants));
      type.fields[0].name = "element";
      return Status::Ok();
    case ArrowTypeId::kMap: {
      const ArrowField& entries = field.children[0];
      type.id = SparkTypeId::kMap;
      type.fields.resize(2);
      ROWBRIDGE_RETURN_NOT_OK(
          MapToSpark(entries.children[0], path + ".key", &type.fields[0], variants));
      ROWBRIDGE_RETURN_NOT_OK(
          MapToSpark(entries.children[1], path + ".value", &type.fields[1], variants));
      type.fields[0].name = "key";
      type.fields[1].name = "value";
      return Status::Ok();
    }
    default: return MapFlat(field, path, &type);
  }
}

}  // namespace rowbridge::spark
