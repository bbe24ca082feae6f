#include "ipc/ipc_schema_writer.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "arrow/arrow_field.hpp"

namespace rowbridge::ipc {
namespace {

// Type union members (Schema.fbs).
enum TypeTag : uint8_t {
  kNullTag = 1,
  kIntTag,
  kFloatingPointTag,
  kBinaryTag,
  kUtf8Tag,
  kBoolTag,
  kDecimalTag,
  kDateTag,
  kTimeTag,
  kTimestampTag,
  kIntervalTag,
  kListTag,
  kStructTag,
  kUnionTag,
  kFixedSizeBinaryTag,
  kFixedSizeListTag,
  kMapTag,
  kDurationTag,
  kLargeBinaryTag,
  kLargeUtf8Tag,
  kLargeListTag,
};

int16_t Unit(TimeUnit unit) { return static_cast<int16_t>(unit); }  // SECOND=0 .. NANOSECOND=3

/// The Type table of `field`'s type and its union tag.
Status BuildType(const WriterField& field, FlatBuilder* builder, uint8_t* tag,
                 FlatBuilder::Ref* out) {
  const ArrowType& type = field.type;
  const std::string& path = field.path;
  FlatBuilder::TableFields fields;
  auto integer = [&](int32_t bits, bool is_signed) {
    *tag = kIntTag;
    fields.Scalar<int32_t>(0, bits);
    fields.Scalar<uint8_t>(1, is_signed ? 1 : 0);
  };
  switch (type.id) {
    case ArrowTypeId::kNull: *tag = kNullTag; break;
    case ArrowTypeId::kBool: *tag = kBoolTag; break;
    case ArrowTypeId::kInt8: integer(8, true); break;
    case ArrowTypeId::kInt16: integer(16, true); break;
    case ArrowTypeId::kInt32: integer(32, true); break;
    case ArrowTypeId::kInt64: integer(64, true); break;
    case ArrowTypeId::kUInt8: integer(8, false); break;
    case ArrowTypeId::kUInt16: integer(16, false); break;
    case ArrowTypeId::kUInt32: integer(32, false); break;
    case ArrowTypeId::kUInt64: integer(64, false); break;
    case ArrowTypeId::kFloat16:
    case ArrowTypeId::kFloat32:
    case ArrowTypeId::kFloat64:
      *tag = kFloatingPointTag;  // HALF=0, SINGLE=1, DOUBLE=2
      fields.Scalar<int16_t>(0, type.id == ArrowTypeId::kFloat16   ? 0
                                : type.id == ArrowTypeId::kFloat32 ? 1
                                                                   : 2);
      break;
    case ArrowTypeId::kDecimal:
      *tag = kDecimalTag;
      fields.Scalar<int32_t>(0, type.precision);
      fields.Scalar<int32_t>(1, type.scale);
      fields.Scalar<int32_t>(2, type.bit_width);
      break;
    case ArrowTypeId::kDate32:
    case ArrowTypeId::kDate64:
      *tag = kDateTag;  // DAY=0, MILLISECOND=1
      fields.Scalar<int16_t>(0, type.id == ArrowTypeId::kDate32 ? 0 : 1);
      break;
    case ArrowTypeId::kTime32:
    case ArrowTypeId::kTime64:
      *tag = kTimeTag;
      fields.Scalar<int16_t>(0, Unit(type.unit));
      fields.Scalar<int32_t>(1, type.id == ArrowTypeId::kTime32 ? 32 : 64);
      break;
    case ArrowTypeId::kTimestamp:
      *tag = kTimestampTag;
      fields.Scalar<int16_t>(0, Unit(type.unit));
      if (type.has_timezone) fields.Object(1, builder->String(type.timezone));
      break;
    case ArrowTypeId::kDuration:
      *tag = kDurationTag;
      fields.Scalar<int16_t>(0, Unit(type.unit));
      break;
    case ArrowTypeId::kIntervalYearMonth:
    case ArrowTypeId::kIntervalDayTime:
    case ArrowTypeId::kIntervalMonthDayNano:
      *tag = kIntervalTag;  // YEAR_MONTH=0, DAY_TIME=1, MONTH_DAY_NANO=2
      fields.Scalar<int16_t>(0, type.id == ArrowTypeId::kIntervalYearMonth ? 0
                                : type.id == ArrowTypeId::kIntervalDayTime ? 1
                                                                           : 2);
      break;
    case ArrowTypeId::kUtf8: *tag = kUtf8Tag; break;
    case ArrowTypeId::kLargeUtf8: *tag = kLargeUtf8Tag; break;
    case ArrowTypeId::kBinary: *tag = kBinaryTag; break;
    case ArrowTypeId::kLargeBinary: *tag = kLargeBinaryTag; break;
    case ArrowTypeId::kFixedSizeBinary:
      *tag = kFixedSizeBinaryTag;
      fields.Scalar<int32_t>(0, type.fixed_size);
      break;
    case ArrowTypeId::kStruct: *tag = kStructTag; break;
    case ArrowTypeId::kList: *tag = kListTag; break;
    case ArrowTypeId::kLargeList: *tag = kLargeListTag; break;
    case ArrowTypeId::kFixedSizeList:
      *tag = kFixedSizeListTag;
      fields.Scalar<int32_t>(0, type.fixed_size);
      break;
    case ArrowTypeId::kMap:
      *tag = kMapTag;
      fields.Scalar<uint8_t>(0, field.keys_sorted ? 1 : 0);
      break;
    default:
      return Status::NotSupported("field '" + path + "': the IPC writer does not write " +
                                  ArrowTypeName(type));
  }
  *out = builder->Table(std::move(fields));
  return Status::Ok();
}

Status CheckWritable(const ArrowType& type, const std::string& path) {
  switch (type.id) {
    case ArrowTypeId::kUtf8View:
    case ArrowTypeId::kBinaryView:
    case ArrowTypeId::kListView:
    case ArrowTypeId::kLargeListView:
    case ArrowTypeId::kRunEndEncoded:
    case ArrowTypeId::kDenseUnion:
    case ArrowTypeId::kSparseUnion:
      return Status::NotSupported("field '" + path + "': the IPC writer does not write " +
                                  ArrowTypeName(type));
    default: return Status::Ok();
  }
}

Status Describe(const ArrowSchema& schema, const std::string& parent, int depth, WriterField* out) {
  out->name = schema.name == nullptr ? "" : schema.name;
  out->path = parent.empty() ? out->name : parent + "." + out->name;
  const std::string& path = out->path;
  if (depth > 64) return Status::NotSupported("field '" + path + "': nested deeper than 64");
  if (schema.format == nullptr) return Status::Invalid("field '" + path + "': no format");
  if (schema.dictionary != nullptr) {
    return Status::NotSupported("field '" + path + "': dictionary encoding is not written");
  }
  Status parsed = ParseFormat(schema.format, &out->type);
  if (!parsed.ok()) return parsed.WithContext("field '" + path + "'");
  ROWBRIDGE_RETURN_NOT_OK(CheckWritable(out->type, path));
  out->nullable = (schema.flags & ARROW_FLAG_NULLABLE) != 0;
  out->keys_sorted = (schema.flags & ARROW_FLAG_MAP_KEYS_SORTED) != 0;
  ROWBRIDGE_RETURN_NOT_OK(
      DecodeMetadata(schema.metadata, &out->metadata).WithContext("field '" + path + "'"));
  out->children.resize(static_cast<size_t>(std::max<int64_t>(schema.n_children, 0)));
  for (int64_t i = 0; i < schema.n_children; ++i) {
    if (schema.children == nullptr || schema.children[i] == nullptr) {
      return Status::Invalid("field '" + path + "': child " + std::to_string(i) + " is null");
    }
    ROWBRIDGE_RETURN_NOT_OK(
        Describe(*schema.children[i], path, depth + 1, &out->children[static_cast<size_t>(i)]));
  }
  return Status::Ok();
}

FlatBuilder::Ref BuildField(const WriterField& field, FlatBuilder* builder) {
  uint8_t tag = 0;
  FlatBuilder::Ref type_table;
  (void)BuildType(field, builder, &tag, &type_table);  // Describe checked the type
  std::vector<FlatBuilder::Ref> children;
  for (const WriterField& child : field.children) children.push_back(BuildField(child, builder));
  FlatBuilder::TableFields table;
  table.Object(0, builder->String(field.name));
  table.Scalar<uint8_t>(1, field.nullable ? 1 : 0);
  table.Scalar<uint8_t>(2, tag);
  table.Object(3, type_table);
  table.Object(5, builder->Vector(children));
  if (!field.metadata.empty()) {
    std::vector<FlatBuilder::Ref> pairs;
    for (const auto& [key, value] : field.metadata) {
      FlatBuilder::TableFields pair;  // KeyValue: key, value
      pair.Object(0, builder->String(key));
      pair.Object(1, builder->String(value));
      pairs.push_back(builder->Table(std::move(pair)));
    }
    table.Object(6, builder->Vector(pairs));  // custom_metadata
  }
  return builder->Table(std::move(table));
}

}  // namespace

Status DescribeSchema(const ArrowSchema& schema, std::vector<WriterField>* out) {
  if (schema.format == nullptr || std::string(schema.format) != "+s") {
    return Status::Invalid("IPC writer: the schema must be a struct of the columns");
  }
  out->assign(static_cast<size_t>(std::max<int64_t>(schema.n_children, 0)), WriterField());
  for (int64_t i = 0; i < schema.n_children; ++i) {
    if (schema.children == nullptr || schema.children[i] == nullptr) {
      return Status::Invalid("IPC writer: column " + std::to_string(i) + " is null");
    }
    ROWBRIDGE_RETURN_NOT_OK(Describe(*schema.children[i], "", 1, &(*out)[static_cast<size_t>(i)]));
  }
  return Status::Ok();
}

FlatBuilder::Ref BuildSchema(const std::vector<WriterField>& columns, FlatBuilder* builder) {
  std::vector<FlatBuilder::Ref> fields;
  for (const WriterField& column : columns) fields.push_back(BuildField(column, builder));
  FlatBuilder::TableFields table;
  table.Scalar<int16_t>(0, 0);  // little endian
  table.Object(1, builder->Vector(fields));
  return builder->Table(std::move(table));
}

}  // namespace rowbridge::ipc
