#include "decoder/batch_export.hpp"

#include <atomic>
#include <cstring>
#include <new>

namespace rowbridge::decoder {
namespace {

/// What every exported node of one batch shares: one allocation holding this
/// header, then the nodes' ArrowArrays, buffer pointers and child pointers.
struct ExportedBatch {
  std::atomic<int64_t> live{0};  // nodes not released yet
  std::shared_ptr<uint8_t> block;
  ArrowArray* arrays = nullptr;  // every node but the root (which is the caller's)
  const void** buffers = nullptr;
  ArrowArray** children = nullptr;

  static ExportedBatch* Make(size_t num_arrays, size_t num_buffers, size_t num_children) {
    const size_t header = (sizeof(ExportedBatch) + alignof(ArrowArray) - 1) / alignof(ArrowArray) *
                          alignof(ArrowArray);
    const size_t arrays_bytes = num_arrays * sizeof(ArrowArray);
    const size_t bytes = header + arrays_bytes + (num_buffers + num_children) * sizeof(void*);
    void* memory = ::operator new(bytes);
    auto* batch = new (memory) ExportedBatch();
    uint8_t* next = static_cast<uint8_t*>(memory) + header;
    std::memset(next, 0, bytes - header);
    batch->arrays = reinterpret_cast<ArrowArray*>(next);
    batch->buffers = reinterpret_cast<const void**>(next + arrays_bytes);
    batch->children =
        reinterpret_cast<ArrowArray**>(next + arrays_bytes + num_buffers * sizeof(void*));
    return batch;
  }

  static void Destroy(ExportedBatch* batch) {
    batch->~ExportedBatch();
    ::operator delete(batch);
  }
};

void ReleaseNode(ArrowArray* array) {
  auto* batch = static_cast<ExportedBatch*>(array->private_data);
  for (int64_t i = 0; i < array->n_children; ++i) {
    ArrowArray* child = array->children[i];
    if (child->release != nullptr) child->release(child);  // not moved out
  }
  array->release = nullptr;
  if (batch->live.fetch_sub(1, std::memory_order_acq_rel) == 1) ExportedBatch::Destroy(batch);
}

class Builder {
 public:
  Builder(const DecodePlan& plan, const std::vector<DecodeOutput>& outputs, ExportedBatch* batch)
      : plan_(plan), outputs_(outputs), batch_(batch) {}

  /// `array` as a node of `length` values, `null_count` nulls, `num_buffers`
  /// buffers and `num_children` children, whose pointers it returns.
  const void** Node(ArrowArray* array, int64_t length, int64_t null_count, int64_t num_buffers,
                    int64_t num_children) {
    array->length = length;
    array->null_count = null_count;
    array->offset = 0;
    array->n_buffers = num_buffers;
    array->n_children = num_children;
    array->buffers = num_buffers > 0 ? batch_->buffers + next_buffer_ : nullptr;
    array->children = num_children > 0 ? batch_->children + next_child_ : nullptr;
    for (int64_t i = 0; i < num_children; ++i) batch_->children[next_child_ + i] = NewArray();
    array->dictionary = nullptr;
    array->release = ReleaseNode;
    array->private_data = batch_;
    batch_->live.fetch_add(1, std::memory_order_relaxed);
    const void** buffers = batch_->buffers + next_buffer_;
    next_buffer_ += num_buffers;
    next_child_ += num_children;
    return buffers;
  }

  /// Exports plan node `index` into `array`.
  void Export(int32_t index, ArrowArray* array) {
    const DecodeNode& node = plan_.nodes[static_cast<size_t>(index)];
    const DecodeOutput& out = outputs_[static_cast<size_t>(index)];
    if (node.kind == DecodeKind::kNull) {  // no buffers; every value null
      Node(array, out.length, out.length, 0, 0);
      return;
    }
    const int64_t num_buffers = 1 + (HasValuesBuffer(node) ? 1 : 0) + (HasDataBuffer(node) ? 1 : 0);
    const int64_t num_children =
        node.kind == DecodeKind::kMap ? 1 : static_cast<int64_t>(node.children.size());
    const void** buffers = Node(array, out.length, out.null_count, num_buffers, num_children);
    buffers[0] = out.null_count > 0 ? out.validity : nullptr;
    if (HasValuesBuffer(node)) buffers[1] = out.values;
    if (HasDataBuffer(node)) buffers[2] = out.data;
    if (node.kind == DecodeKind::kMap) {
      // The entries struct between the map and its key and value.
      ArrowArray* entries = array->children[0];
      const int64_t length = outputs_[static_cast<size_t>(node.children[0])].length;
      Node(entries, length, 0, 1, 2)[0] = nullptr;
      Export(node.children[0], entries->children[0]);
      Export(node.children[1], entries->children[1]);
      return;
    }
    for (size_t i = 0; i < node.children.size(); ++i) Export(node.children[i], array->children[i]);
  }

 private:
  ArrowArray* NewArray() { return &batch_->arrays[next_array_++]; }

  const DecodePlan& plan_;
  const std::vector<DecodeOutput>& outputs_;
  ExportedBatch* batch_;
  size_t next_array_ = 0;
  int64_t next_buffer_ = 0;
  int64_t next_child_ = 0;
};

}  // namespace

int64_t ValuesBytes(const DecodeNode& node, int64_t values) {
  switch (node.kind) {
    case DecodeKind::kNull:
    case DecodeKind::kStruct:
    case DecodeKind::kVariant: return 0;
    case DecodeKind::kBoolean: return (values + 7) / 8;
    case DecodeKind::kFixed: return values * node.width;
    case DecodeKind::kSmallDecimal:
    case DecodeKind::kLargeDecimal:
    case DecodeKind::kCalendarInterval: return values * 16;
    case DecodeKind::kString32:
    case DecodeKind::kList32:
    case DecodeKind::kMap: return (values + 1) * 4;
    case DecodeKind::kString64:
    case DecodeKind::kList64: return (values + 1) * 8;
  }
  return 0;
}

void ExportDecodedBatch(const DecodePlan& plan, const std::vector<DecodeOutput>& outputs,
                        std::shared_ptr<uint8_t> block, int64_t num_rows, ArrowArray* out) {
  // Every node has at most 3 buffers; a node is a child of one node; a map
  // adds its entries struct (a child, 1 buffer) and the entries' 2 children.
  size_t maps = 0;
  for (const DecodeNode& node : plan.nodes) maps += node.kind == DecodeKind::kMap ? 1 : 0;
  const size_t arrays = plan.nodes.size() + maps;
  ExportedBatch* batch = ExportedBatch::Make(arrays, 1 + 3 * arrays, arrays);  // owned by its nodes
  batch->block = std::move(block);
  ArrowArray root;
  Builder builder(plan, outputs, batch);
  builder.Node(&root, num_rows, 0, 1, static_cast<int64_t>(plan.columns.size()))[0] = nullptr;
  for (size_t i = 0; i < plan.columns.size(); ++i)
    builder.Export(plan.columns[i], root.children[i]);
  *out = root;
}

}  // namespace rowbridge::decoder
