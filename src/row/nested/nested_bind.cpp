// Binding a nested column's arrays, once per batch: every node of the tree
// is checked structurally (buffer and child counts, lengths covering what
// its parent may reference); at full validation every list offset and view
// is checked too. What the conversion dereferences per item (list ranges,
// dictionary indices, run ends) is checked again when a span is expanded.
#include <cstring>

#include "arrow/array_checks.hpp"
#include "arrow/value_checks.hpp"
#include "row/nested/nested_state.hpp"

namespace rowbridge::row {
namespace {

Status NodeError(const NestedNode& plan, const std::string& message) {
  return Status::Invalid("column '" + plan.path + "': " + message);
}

/// `status`, its message prefixed with the node's column.
Status InNode(const NestedNode& plan, const Status& status) {
  return status.ok() ? status : status.WithContext("column '" + plan.path + "'");
}

/// Full validation of a list's or map's offsets: non-decreasing from the
/// array's first element to its last, within [0, element_length].
template <typename OffsetType>
Status ValidateOffsets(const NestedNode& plan, const ArrowArray& array, const uint8_t* offsets,
                       int64_t element_length) {
  return InNode(plan,
                CheckOffsets<OffsetType>(offsets, array.offset, array.length, element_length));
}

/// Full validation of a list view: every valid view inside the child.
template <typename OffsetType>
Status ValidateViews(const NestedNode& plan, const ArrowArray& array, const NodeState& node) {
  const uint8_t* validity =
      MayHaveNulls(array) ? static_cast<const uint8_t*>(array.buffers[0]) : nullptr;
  return InNode(plan, CheckListViews<OffsetType>(validity, node.list_offsets, node.list_sizes,
                                                 array.offset, array.length, node.element_length));
}

template <typename RunEndType>
Status ValidateRunEnds(const NestedNode& plan, const ArrowArray& run_ends) {
  return InNode(plan, CheckRunEnds<RunEndType>(static_cast<const uint8_t*>(run_ends.buffers[1]),
                                               run_ends.offset, run_ends.length));
}

/// Checks the node's own array and finds the array holding its values.
Status BindEncoding(NodeState* node, const ArrowArray& array, int64_t required_length,
                    Validation validation) {
  const NestedNode& plan = *node->plan;
  node->array = &array;
  node->run_ends = nullptr;
  switch (plan.encoding) {
    case Encoding::kPlain:
      ROWBRIDGE_RETURN_NOT_OK(CheckArrayNode(array, plan.value_type, plan.value_children,
                                             required_length, plan.path, ""));
      if (array.dictionary != nullptr) {
        return NodeError(
            plan, "the array is dictionary-encoded but the schema in force is " + plan.type_name);
      }
      node->values = &array;
      return Status::Ok();
    case Encoding::kDictionary:
      ROWBRIDGE_RETURN_NOT_OK(
          CheckArrayNode(array, plan.index_type, 0, required_length, plan.path, ""));
      if (array.dictionary == nullptr) {
        return NodeError(plan,
                         "the schema says dictionary-encoded but the array has no dictionary");
      }
      ROWBRIDGE_RETURN_NOT_OK(CheckArrayNode(*array.dictionary, plan.value_type,
                                             plan.value_children, 0, plan.path, "dictionary"));
      node->values = array.dictionary;
      return Status::Ok();
    case Encoding::kRunEnd: {
      ROWBRIDGE_RETURN_NOT_OK(
          CheckArrayNode(array, plan.array_type, 2, required_length, plan.path, ""));
      if (array.null_count > 0) return NodeError(plan, "a run-end encoded array has a null count");
      const ArrowArray& run_ends = *array.children[0];
      ROWBRIDGE_RETURN_NOT_OK(
          CheckArrayNode(run_ends, plan.index_type, 0, 0, plan.path, "run ends"));
      if (run_ends.null_count > 0) return NodeError(plan, "run ends contain nulls");
      const ArrowArray& values = *array.children[1];
      ROWBRIDGE_RETURN_NOT_OK(CheckArrayNode(values, plan.value_type, plan.value_children,
                                             run_ends.length, plan.path, "run-end values"));
      node->run_ends = &run_ends;
      node->values = &values;
      if (validation != Validation::kFull) return Status::Ok();
      switch (plan.index_type.id) {
        case ArrowTypeId::kInt16: return ValidateRunEnds<int16_t>(plan, run_ends);
        case ArrowTypeId::kInt32: return ValidateRunEnds<int32_t>(plan, run_ends);
        default: return ValidateRunEnds<int64_t>(plan, run_ends);
      }
    }
  }
  return Status::Internal("unknown encoding");
}

Status BindList(NodeState* node, const ArrowArray& values, Validation validation) {
  const NestedNode& plan = *node->plan;
  const ArrowArray& child = *values.children[0];
  const auto* const* buffers = reinterpret_cast<const uint8_t* const*>(values.buffers);
  node->list_offsets = plan.layout == ListLayout::kFixedSize ? nullptr : buffers[1];
  node->list_sizes = plan.layout == ListLayout::kViews32 || plan.layout == ListLayout::kViews64
                         ? buffers[2]
                         : nullptr;
  int64_t required = 0;
  if (plan.layout == ListLayout::kFixedSize &&
      __builtin_mul_overflow(values.offset + values.length, int64_t{plan.list_size}, &required)) {
    return NodeError(plan, "fixed-size lists address more elements than an int64 holds");
  }
  ROWBRIDGE_RETURN_NOT_OK(BindNode(&node->children[0], child, required, validation));
  node->element_length = child.length;
  if (validation != Validation::kFull) return Status::Ok();
  switch (plan.layout) {
    case ListLayout::kOffsets32:
      return ValidateOffsets<int32_t>(plan, values, node->list_offsets, child.length);
    case ListLayout::kOffsets64:
      return ValidateOffsets<int64_t>(plan, values, node->list_offsets, child.length);
    case ListLayout::kViews32: return ValidateViews<int32_t>(plan, values, *node);
    case ListLayout::kViews64: return ValidateViews<int64_t>(plan, values, *node);
    case ListLayout::kFixedSize: return Status::Ok();
  }
  return Status::Ok();
}

Status BindMap(NodeState* node, const ArrowArray& values, Validation validation) {
  const NestedNode& plan = *node->plan;
  const ArrowArray& entries = *values.children[0];
  ArrowType struct_type;
  struct_type.id = ArrowTypeId::kStruct;
  ROWBRIDGE_RETURN_NOT_OK(CheckArrayNode(entries, struct_type, 2, 0, plan.path, "entries"));
  node->list_offsets = static_cast<const uint8_t*>(values.buffers[1]);
  node->list_sizes = nullptr;
  node->element_length = entries.length;
  node->entries_offset = entries.offset;
  int64_t required = entries.offset + entries.length;
  ROWBRIDGE_RETURN_NOT_OK(BindNode(&node->children[0], *entries.children[0], required, validation));
  ROWBRIDGE_RETURN_NOT_OK(BindNode(&node->children[1], *entries.children[1], required, validation));
  if (validation != Validation::kFull) return Status::Ok();
  return ValidateOffsets<int32_t>(plan, values, node->list_offsets, entries.length);
}

}  // namespace

void InitNodeState(const NestedNode& plan, NodeState* parent, NodeState* out) {
  out->plan = &plan;
  out->parent = parent;
  out->children.resize(plan.children.size());
  for (size_t i = 0; i < plan.children.size(); ++i)
    InitNodeState(plan.children[i], out, &out->children[i]);
}

namespace {

template <typename T>
int64_t CapacityBytes(const std::vector<T>& v) {
  return static_cast<int64_t>(v.capacity() * sizeof(T));
}

}  // namespace

int64_t NodeStateBytes(const NodeState& node) {
  int64_t bytes = static_cast<int64_t>(node.children.capacity() * sizeof(NodeState)) +
                  CapacityBytes(node.gather) + CapacityBytes(node.validity) +
                  CapacityBytes(node.item_size) + CapacityBytes(node.first) +
                  CapacityBytes(node.key_size) + CapacityBytes(node.element_indices) +
                  CapacityBytes(node.element_sizes) + CapacityBytes(node.positions) +
                  CapacityBytes(node.cursors) + CapacityBytes(node.array_positions) +
                  CapacityBytes(node.array_first);
  for (const NodeState& child : node.children) bytes += NodeStateBytes(child);
  return bytes;
}

Status BindNode(NodeState* node, const ArrowArray& array, int64_t required_length,
                Validation validation) {
  const NestedNode& plan = *node->plan;
  ROWBRIDGE_RETURN_NOT_OK(BindEncoding(node, array, required_length, validation));
  const ArrowArray& values = *node->values;
  BindValues(values, plan.value_type, &node->value_buffers);
  node->validity_bytes = (values.offset + values.length + 7) / 8;
  switch (plan.kind) {
    case NodeKind::kLeaf:
      if (validation != Validation::kFull) return Status::Ok();
      // Errors name the index in the child array as its element.
      return ValidateValues(values, plan.value_type, 0, values.length, plan.path, "array");
    case NodeKind::kStruct:
      for (size_t i = 0; i < node->children.size(); ++i) {
        ROWBRIDGE_RETURN_NOT_OK(BindNode(&node->children[i], *values.children[i],
                                         values.offset + values.length, validation));
      }
      return Status::Ok();
    case NodeKind::kList: return BindList(node, values, validation);
    case NodeKind::kMap: return BindMap(node, values, validation);
  }
  return Status::Internal("unknown node kind");
}

}  // namespace rowbridge::row
