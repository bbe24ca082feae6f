// NestedNode: the write plan of a struct, list or map column, one node per
// level, compiled once when the schema is registered and immutable after.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "arrow/arrow_field.hpp"
#include "row/column_plan.hpp"
#include "row/nested/element_placement.hpp"
#include "row/nested/element_writer.hpp"
#include "row/nested/size_kernels.hpp"

namespace rowbridge::row {

enum class NodeKind : uint8_t { kLeaf, kStruct, kList, kMap };

/// How a list-like node locates the elements of value p.
enum class ListLayout : uint8_t {
  kOffsets32,  // list, map: [offsets[p], offsets[p + 1])
  kOffsets64,  // large_list
  kFixedSize,  // fixed_size_list: [p * size, (p + 1) * size)
  kViews32,    // list_view: [offsets[p], offsets[p] + sizes[p])
  kViews64,    // large_list_view
};

struct NestedNode {
  NodeKind kind = NodeKind::kLeaf;
  std::string path;       // e.g. "c0.element.x", for errors
  std::string type_name;  // the Arrow type of the node's field, for errors
  Encoding encoding = Encoding::kPlain;
  ArrowType array_type;  // of the node's own array: indices, run_end_encoded or the value type
  ArrowType value_type;  // of the values after the encoding
  ArrowType index_type;  // dictionary indices or run ends
  int64_t value_children = 0;  // children of the value array (struct fields; 1 for lists and maps)
  /// Full validation rejects a null here: a non-nullable field or a map key.
  bool rejects_nulls = false;
  bool is_map_key = false;

  /// As a field of a nested row: the slot and null bit within that row.
  ColumnTarget target;
  /// As an array element: 1, 2, 4 or 8 bytes in the array's fixed part.
  int32_t element_size = 8;

  /// Leaves: the writers as a struct field and as an array element.
  WriterSet field_writers;
  ElementWriterSet element_writers;
  /// A leaf field that writes variable-region bytes (strings, 16-byte values).
  bool writes_variable = false;

  /// Structs: the nested row's layout.
  int64_t bitset_bytes = 0;
  int64_t fixed_bytes = 0;     // bitset + slots
  int64_t constant_bytes = 0;  // 16 per large decimal and calendar interval field
  bool needs_cursors = false;  // more than one field writes variable-region bytes

  /// Lists and maps.
  ListLayout layout = ListLayout::kOffsets32;
  /// Places nested elements (of this node, as a list's or map's element).
  PlaceElementsFn place_elements = nullptr;
  /// The kernels of the node's sizing loops (never null once compiled).
  const SizeKernels* size_kernels = nullptr;
  int32_t list_size = 0;  // fixed_size_list

  /// The top-level node: the scratch bytes a dead item of any node of the
  /// tree is written to (a struct's fixed part and 16-byte values, a map's
  /// key-array size and its arrays' numElements).
  int64_t dead_bytes = 0;

  /// Struct fields in order; a list's element; a map's key and value.
  std::vector<NestedNode> children;
};

/// True for the Spark types written as nested values.
inline bool IsNestedSparkType(const SparkType& type) {
  return type.id == SparkTypeId::kStruct || type.id == SparkTypeId::kArray ||
         type.id == SparkTypeId::kMap;
}

/// Compiles the plan of a top-level struct, list or map column `field`
/// whose Spark type is `spark`, with the kernels of `isa`.
Status CompileNestedColumn(const ArrowField& field, const SparkType& spark, KernelIsa isa,
                           std::shared_ptr<const NestedNode>* out);

/// The writers of a top-level nested column (its slot in the batch row and
/// the nested values), to be called on columns bound by BindNestedColumn.
WriterSet NestedColumnWriters();

}  // namespace rowbridge::row
