#include "ipc/flatbuffer_builder.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace rowbridge::ipc {
namespace {

/// The bytes being laid out, with patches of uoffsets to objects placed later.
struct Layout {
  std::vector<uint8_t> out;
  std::vector<int64_t> position;  // of each node, -1 until placed
  struct Patch {
    int64_t at = 0;  // where the uoffset goes
    int32_t node = 0;
  };
  std::vector<Patch> patches;

  void Align(int64_t alignment, int64_t extra = 0) {
    while ((static_cast<int64_t>(out.size()) + extra) % alignment != 0) out.push_back(0);
  }
  template <typename T>
  void Put(T value) {
    size_t at = out.size();
    out.resize(at + sizeof(T));
    std::memcpy(out.data() + at, &value, sizeof(T));
  }
  void PutAt(int64_t at, uint32_t value) { std::memcpy(out.data() + at, &value, 4); }
};

}  // namespace

void FlatBuilder::TableFields::Add(int field, const void* data, int size, int alignment) {
  Field entry;
  entry.id = field;
  entry.bytes.assign(static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + size);
  entry.alignment = alignment;
  fields_.push_back(std::move(entry));
}

void FlatBuilder::TableFields::Object(int field, Ref ref) {
  Field entry;
  entry.id = field;
  entry.bytes.assign(4, 0);
  entry.alignment = 4;
  entry.object = ref.index;
  fields_.push_back(std::move(entry));
}

FlatBuilder::Ref FlatBuilder::Add(Node node) {
  nodes_.push_back(std::move(node));
  return Ref{static_cast<int32_t>(nodes_.size() - 1)};
}

FlatBuilder::Ref FlatBuilder::Table(TableFields fields) {
  Node node;
  node.kind = Kind::kTable;
  node.fields = std::move(fields.fields_);
  return Add(std::move(node));
}

FlatBuilder::Ref FlatBuilder::String(std::string_view text) {
  Node node;
  node.kind = Kind::kString;
  node.bytes.assign(text.begin(), text.end());
  return Add(std::move(node));
}

FlatBuilder::Ref FlatBuilder::Vector(const void* data, int64_t count, int element_size,
                                     int alignment) {
  Node node;
  node.kind = Kind::kInline;
  const auto* bytes = static_cast<const uint8_t*>(data);
  node.bytes.assign(bytes, bytes + count * element_size);
  node.count = count;
  node.alignment = std::max(alignment, 4);
  return Add(std::move(node));
}

FlatBuilder::Ref FlatBuilder::Vector(const std::vector<Ref>& elements) {
  Node node;
  node.kind = Kind::kRefs;
  node.count = static_cast<int64_t>(elements.size());
  for (Ref ref : elements) node.refs.push_back(ref.index);
  return Add(std::move(node));
}

std::vector<uint8_t> FlatBuilder::Finish(Ref root) const {
  Layout layout;
  layout.position.assign(nodes_.size(), -1);
  layout.Put<uint32_t>(0);
  layout.patches.push_back({0, root.index});
  // Place nodes in the order they are first referred to: a node always
  // comes after the node (or root offset) that refers to it.
  std::vector<int32_t> queue = {root.index};
  for (size_t next = 0; next < queue.size(); ++next) {
    const Node& node = nodes_[static_cast<size_t>(queue[next])];
    int64_t& position = layout.position[static_cast<size_t>(queue[next])];
    switch (node.kind) {
      case Kind::kTable: {
        // Field offsets: after the soffset, largest alignment first.
        std::vector<size_t> order(node.fields.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
          return node.fields[a].alignment > node.fields[b].alignment;
        });
        int max_id = -1;
        int table_alignment = 4;
        for (const auto& field : node.fields) {
          max_id = std::max(max_id, field.id);
          table_alignment = std::max(table_alignment, field.alignment);
        }
        std::vector<uint16_t> offsets(static_cast<size_t>(max_id + 1), 0);
        int64_t cursor = 4;
        std::vector<int64_t> field_at(node.fields.size());
        for (size_t i : order) {
          const auto& field = node.fields[i];
          cursor = (cursor + field.alignment - 1) / field.alignment * field.alignment;
          field_at[i] = cursor;
          offsets[static_cast<size_t>(field.id)] = static_cast<uint16_t>(cursor);
          cursor += static_cast<int64_t>(field.bytes.size());
        }
        int64_t table_size = (cursor + 3) / 4 * 4;
        // The vtable, then padding so that the table starts aligned.
        int64_t vtable_size = 4 + 2 * static_cast<int64_t>(offsets.size());
        layout.Align(2);
        int64_t vtable_at = static_cast<int64_t>(layout.out.size());
        layout.Put<uint16_t>(static_cast<uint16_t>(vtable_size));
        layout.Put<uint16_t>(static_cast<uint16_t>(table_size));
        for (uint16_t offset : offsets) layout.Put<uint16_t>(offset);
        layout.Align(table_alignment);
        position = static_cast<int64_t>(layout.out.size());
        layout.out.resize(static_cast<size_t>(position + table_size), 0);
        int32_t soffset = static_cast<int32_t>(position - vtable_at);
        std::memcpy(layout.out.data() + position, &soffset, 4);
        for (size_t i = 0; i < node.fields.size(); ++i) {
          const auto& field = node.fields[i];
          std::memcpy(layout.out.data() + position + field_at[i], field.bytes.data(),
                      field.bytes.size());
          if (field.object >= 0) {
            layout.patches.push_back({position + field_at[i], field.object});
            queue.push_back(field.object);
          }
        }
        break;
      }
      case Kind::kString:
        layout.Align(4);
        position = static_cast<int64_t>(layout.out.size());
        layout.Put<uint32_t>(static_cast<uint32_t>(node.bytes.size()));
        layout.out.insert(layout.out.end(), node.bytes.begin(), node.bytes.end());
        layout.out.push_back(0);
        break;
      case Kind::kInline:
        layout.Align(node.alignment, 4);  // the elements, after the length, are aligned
        position = static_cast<int64_t>(layout.out.size());
        layout.Put<uint32_t>(static_cast<uint32_t>(node.count));
        layout.out.insert(layout.out.end(), node.bytes.begin(), node.bytes.end());
        break;
      case Kind::kRefs:
        layout.Align(4);
        position = static_cast<int64_t>(layout.out.size());
        layout.Put<uint32_t>(static_cast<uint32_t>(node.count));
        for (int32_t ref : node.refs) {
          layout.patches.push_back({static_cast<int64_t>(layout.out.size()), ref});
          layout.Put<uint32_t>(0);
          queue.push_back(ref);
        }
        break;
    }
  }
  for (const auto& patch : layout.patches) {
    int64_t target = layout.position[static_cast<size_t>(patch.node)];
    layout.PutAt(patch.at, static_cast<uint32_t>(target - patch.at));
  }
  layout.Align(8);
  return std::move(layout.out);
}

}  // namespace rowbridge::ipc
