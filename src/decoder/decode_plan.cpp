#include "decoder/decode_plan.hpp"

#include "spark/memory_access.hpp"
#include "spark/type_mapping.hpp"

namespace rowbridge::decoder {
namespace {

Status Unsupported(const ArrowField& field, const std::string& path, const std::string& hint) {
  return Status::NotSupported("field '" + path + "': rows do not decode to " +
                              FieldTypeName(field) + hint);
}

/// Appends the node of `field`, then its children's subtrees, to `plan`.
Status AddNode(const ArrowField& field, const std::string& path, DecodePlan* plan) {
  if (field.is_dictionary()) return Unsupported(field, path, " (decode to its value type)");
  DecodeNode node;
  node.path = path;
  node.nullable = field.nullable;
  const ArrowType& type = field.type;
  std::vector<std::pair<const ArrowField*, std::string>> children;
  auto fixed = [&](int32_t width) {
    node.kind = DecodeKind::kFixed;
    node.width = width;
    node.element_size = width;
  };
  if (spark::IsVariantStruct(field)) {
    ROWBRIDGE_RETURN_NOT_OK(spark::CheckVariantStruct(field, path));
    for (const ArrowField& child : field.children) {
      if (child.type.id == ArrowTypeId::kBinaryView)
        return Unsupported(child, path + "." + child.name, "");
      children.emplace_back(&child, path + "." + child.name);
    }
    node.kind = DecodeKind::kVariant;
  } else switch (type.id) {
      case ArrowTypeId::kNull: node.kind = DecodeKind::kNull; break;
      case ArrowTypeId::kBool:
        node.kind = DecodeKind::kBoolean;
        node.element_size = 1;
        break;
      case ArrowTypeId::kInt8: fixed(1); break;
      case ArrowTypeId::kInt16: fixed(2); break;
      case ArrowTypeId::kInt32:
      case ArrowTypeId::kFloat32:
      case ArrowTypeId::kDate32:
      case ArrowTypeId::kIntervalYearMonth: fixed(4); break;
      case ArrowTypeId::kInt64:
      case ArrowTypeId::kFloat64: fixed(8); break;
      case ArrowTypeId::kTimestamp:
      case ArrowTypeId::kDuration:
        if (type.unit != TimeUnit::kMicro)
          return Unsupported(field, path, " (rows hold microseconds)");
        fixed(8);
        break;
      case ArrowTypeId::kTime64:
        if (type.unit != TimeUnit::kNano)
          return Unsupported(field, path, " (rows hold nanoseconds)");
        fixed(8);
        break;
      case ArrowTypeId::kDecimal:
        if (type.bit_width != 128 || type.precision > 38)
          return Unsupported(field, path, " (decode to decimal128)");
        node.kind = type.precision <= 18 ? DecodeKind::kSmallDecimal : DecodeKind::kLargeDecimal;
        node.precision = type.precision;
        break;
      case ArrowTypeId::kUtf8:
      case ArrowTypeId::kBinary: node.kind = DecodeKind::kString32; break;
      case ArrowTypeId::kLargeUtf8:
      case ArrowTypeId::kLargeBinary: node.kind = DecodeKind::kString64; break;
      case ArrowTypeId::kIntervalMonthDayNano: node.kind = DecodeKind::kCalendarInterval; break;
      case ArrowTypeId::kStruct:
        node.kind = DecodeKind::kStruct;
        node.fixed_bytes = spark::BitsetBytes(static_cast<int64_t>(field.children.size())) +
                           8 * static_cast<int64_t>(field.children.size());
        for (const ArrowField& child : field.children)
          children.emplace_back(&child, path + "." + child.name);
        break;
      case ArrowTypeId::kList:
      case ArrowTypeId::kLargeList:
        node.kind = type.id == ArrowTypeId::kList ? DecodeKind::kList32 : DecodeKind::kList64;
        children.emplace_back(&field.children[0], path + ".element");
        break;
      case ArrowTypeId::kMap: {
        node.kind = DecodeKind::kMap;
        const ArrowField& entries = field.children[0];
        children.emplace_back(&entries.children[0], path + ".key");
        children.emplace_back(&entries.children[1], path + ".value");
        break;
      }
      default: return Unsupported(field, path, "");
    }
  const size_t index = plan->nodes.size();
  plan->nodes.push_back(std::move(node));
  for (const auto& [child, child_path] : children) {
    const int32_t child_index = static_cast<int32_t>(plan->nodes.size());
    ROWBRIDGE_RETURN_NOT_OK(AddNode(*child, child_path, plan));
    plan->nodes[index].children.push_back(child_index);
  }
  DecodeNode& added = plan->nodes[index];
  if (added.kind == DecodeKind::kStruct && !added.children.empty() &&
      added.children.size() <= kMaxLeafFields) {
    added.leaf_fields = true;
    for (size_t i = 0; i < added.children.size(); ++i) {
      const DecodeNode& child = plan->nodes[static_cast<size_t>(added.children[i])];
      const bool string =
          child.kind == DecodeKind::kString32 || child.kind == DecodeKind::kString64;
      added.leaf_fields &=
          string || child.kind == DecodeKind::kBoolean || child.kind == DecodeKind::kFixed;
      added.leaf_strings |= static_cast<uint32_t>(string) << i;
      added.leaf_required |= static_cast<uint32_t>(!child.nullable) << i;
    }
  }
  return Status::Ok();
}

}  // namespace

Status CompileDecodePlan(const ArrowField& schema, DecodePlan* out) {
  if (schema.type.id != ArrowTypeId::kStruct || schema.is_dictionary()) {
    return Status::Invalid("the rows' schema must be a struct, got " + FieldTypeName(schema));
  }
  DecodePlan plan;
  plan.spark_schema.id = SparkTypeId::kStruct;
  const int64_t num_fields = static_cast<int64_t>(schema.children.size());
  plan.fixed_row_bytes = spark::BitsetBytes(num_fields) + 8 * num_fields;
  for (const ArrowField& column : schema.children) {
    SparkField spark;
    ROWBRIDGE_RETURN_NOT_OK(spark::MapToSpark(column, column.name, &spark));
    plan.spark_schema.fields.push_back(std::move(spark));
    plan.columns.push_back(static_cast<int32_t>(plan.nodes.size()));
    ROWBRIDGE_RETURN_NOT_OK(AddNode(column, column.name, &plan));
  }
  *out = std::move(plan);
  return Status::Ok();
}

}  // namespace rowbridge::decoder
