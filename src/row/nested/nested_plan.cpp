#include "row/nested/nested_plan.hpp"

#include <algorithm>

#include "row/value_ops.hpp"
#include "spark/memory_access.hpp"
#include "spark/type_mapping.hpp"

namespace rowbridge::row {
namespace {

Status CompileNode(const ArrowField& field, const SparkType& spark, const std::string& path,
                   KernelIsa isa, NestedNode* out);

Status CompileLeaf(const NestedNode& node, KernelIsa isa, NestedNode* out) {
  ROWBRIDGE_RETURN_NOT_OK(ResolveSlotWriters(node.value_type, isa, &out->field_writers));
  out->writes_variable = out->field_writers.write_alone[0][0] != nullptr;
  bool fixed_width = VisitValueOp(node.value_type, [](auto) {});
  if (fixed_width) {
    return FixedWidthElementWriters(node.value_type, node.element_size, isa, &out->element_writers);
  }
  return VariableElementWriters(node.value_type, isa, &out->element_writers);
}

Status CompileStruct(const ArrowField& value, const SparkType& spark, KernelIsa isa,
                     NestedNode* out) {
  int64_t num_fields = static_cast<int64_t>(value.children.size());
  out->kind = NodeKind::kStruct;
  out->value_children = num_fields;
  out->bitset_bytes = spark::BitsetBytes(num_fields);
  out->fixed_bytes = out->bitset_bytes + 8 * num_fields;
  out->children.resize(value.children.size());
  int64_t variable_fields = 0;
  for (int64_t i = 0; i < num_fields; ++i) {
    const ArrowField& child = value.children[static_cast<size_t>(i)];
    const SparkField& spark_field = spark.fields[static_cast<size_t>(i)];
    NestedNode& node = out->children[static_cast<size_t>(i)];
    ROWBRIDGE_RETURN_NOT_OK(
        CompileNode(child, spark_field.type, out->path + "." + child.name, isa, &node));
    ColumnTarget& target = node.target;
    target.slot_offset = static_cast<int32_t>(out->bitset_bytes + 8 * i);
    target.null_word_offset = static_cast<int32_t>((i / 64) * 8);
    target.null_mask = uint64_t{1} << (i % 64);
    if (node.kind == NodeKind::kLeaf) {
      variable_fields += node.writes_variable ? 1 : 0;
      out->constant_bytes += node.field_writers.constant_variable_bytes;
    } else {
      ++variable_fields;
    }
  }
  out->needs_cursors = variable_fields > 1;
  return Status::Ok();
}

ListLayout LayoutOf(ArrowTypeId id) {
  switch (id) {
    case ArrowTypeId::kLargeList: return ListLayout::kOffsets64;
    case ArrowTypeId::kFixedSizeList: return ListLayout::kFixedSize;
    case ArrowTypeId::kListView: return ListLayout::kViews32;
    case ArrowTypeId::kLargeListView: return ListLayout::kViews64;
    default: return ListLayout::kOffsets32;
  }
}

Status CompileNode(const ArrowField& field, const SparkType& spark, const std::string& path,
                   KernelIsa isa, NestedNode* out) {
  out->path = path;
  out->type_name = FieldTypeName(field);
  out->array_type = field.type;
  out->rejects_nulls = !field.nullable;
  if (field.is_dictionary()) {
    out->encoding = Encoding::kDictionary;
    out->index_type = field.type;
  } else if (field.type.id == ArrowTypeId::kRunEndEncoded) {
    out->encoding = Encoding::kRunEnd;
    out->index_type = field.children[0].type;
  }
  const ArrowField& value = spark::ValueField(field);
  out->value_type = value.type;
  out->element_size = SparkArrayElementSize(spark);
  out->target.precision = spark.precision;
  out->target.name = path;
  out->target.type_name = out->type_name;
  switch (spark.id) {
    case SparkTypeId::kStruct: return CompileStruct(value, spark, isa, out);
    case SparkTypeId::kArray:
      out->kind = NodeKind::kList;
      out->layout = LayoutOf(value.type.id);
      out->list_size = value.type.fixed_size;
      out->value_children = 1;
      out->children.resize(1);
      return CompileNode(value.children[0], spark.fields[0].type, path + ".element", isa,
                         &out->children[0]);
    case SparkTypeId::kMap: {
      const ArrowField& entries = value.children[0];
      out->kind = NodeKind::kMap;
      out->layout = ListLayout::kOffsets32;
      out->value_children = 1;
      out->children.resize(2);
      ROWBRIDGE_RETURN_NOT_OK(CompileNode(entries.children[0], spark.fields[0].type, path + ".key",
                                          isa, &out->children[0]));
      out->children[0].rejects_nulls = true;
      out->children[0].is_map_key = true;
      return CompileNode(entries.children[1], spark.fields[1].type, path + ".value", isa,
                         &out->children[1]);
    }
    default:
      out->kind = NodeKind::kLeaf;
      return CompileLeaf(*out, isa, out).WithContext("column '" + path + "'");
  }
}

void SetKernels(PlaceElementsFn place, const SizeKernels* sizes, NestedNode* node) {
  node->place_elements = place;
  node->size_kernels = sizes;
  for (NestedNode& child : node->children) SetKernels(place, sizes, &child);
}

int64_t DeadBytes(const NestedNode& node) {
  int64_t bytes = node.kind == NodeKind::kStruct ? node.fixed_bytes + node.constant_bytes : 16;
  for (const NestedNode& child : node.children) bytes = std::max(bytes, DeadBytes(child));
  return bytes;
}

}  // namespace

Status CompileNestedColumn(const ArrowField& field, const SparkType& spark, KernelIsa isa,
                           std::shared_ptr<const NestedNode>* out) {
  auto node = std::make_shared<NestedNode>();
  ROWBRIDGE_RETURN_NOT_OK(CompileNode(field, spark, field.name, isa, node.get()));
  node->dead_bytes = DeadBytes(*node);
  SetKernels(PlaceElementsKernel(isa), SizeKernelsFor(isa), node.get());
  *out = std::move(node);
  return Status::Ok();
}

}  // namespace rowbridge::row
