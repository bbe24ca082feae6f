#include "ipc/array_export.hpp"

#include <vector>

namespace rowbridge::ipc {
namespace {

/// Everything one exported ArrowArray node owns. Destroying it releases the
/// children and dictionary still attached (those not moved out).
struct ArrayPrivate {
  std::shared_ptr<const ArrayData> data;
  std::vector<const void*> buffers;
  std::vector<ArrowArray> child_storage;
  std::vector<ArrowArray*> children;
  ArrowArray dictionary{};

  ~ArrayPrivate() {
    for (ArrowArray& child : child_storage) {
      if (child.release != nullptr) child.release(&child);
    }
    if (dictionary.release != nullptr) dictionary.release(&dictionary);
  }
};

void ReleaseArray(ArrowArray* array) {
  delete static_cast<ArrayPrivate*>(array->private_data);
  array->release = nullptr;
}

/// Exports one node; throws std::bad_alloc (leaving `out` untouched).
void ExportNode(const std::shared_ptr<const ArrayData>& data, ArrowArray* out) {
  auto p = std::make_unique<ArrayPrivate>();
  p->data = data;
  p->buffers = data->buffers;
  p->child_storage.resize(data->children.size());
  p->children.resize(data->children.size());
  for (size_t i = 0; i < data->children.size(); ++i) {
    p->child_storage[i] = ArrowArray{};
    p->children[i] = &p->child_storage[i];
  }
  for (size_t i = 0; i < data->children.size(); ++i) {
    ExportNode(data->children[i], &p->child_storage[i]);
  }
  if (data->dictionary != nullptr) ExportNode(data->dictionary, &p->dictionary);

  out->length = data->length;
  out->null_count = data->null_count;
  out->offset = 0;
  out->n_buffers = static_cast<int64_t>(p->buffers.size());
  out->n_children = static_cast<int64_t>(p->children.size());
  out->buffers = p->buffers.empty() ? nullptr : p->buffers.data();
  out->children = p->children.empty() ? nullptr : p->children.data();
  out->dictionary = data->dictionary != nullptr ? &p->dictionary : nullptr;
  out->release = ReleaseArray;
  out->private_data = p.release();
}

}  // namespace

Status ExportArrayData(std::shared_ptr<const ArrayData> data, ArrowArray* out) {
  try {
    ExportNode(data, out);
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("out of memory exporting an array");
  }
}

}  // namespace rowbridge::ipc
