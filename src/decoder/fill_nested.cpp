// The fill functions of structs, lists, maps and variants (fill_tile.hpp),
// and their resolution per node. A struct passes its fields a tile each; a
// list or map gathers its elements into tiles of its element nodes, except
// fixed-width elements, copied an array at a time.
#include <cstring>

#include "decoder/decode_values.hpp"
#include "decoder/fill_tile.hpp"
#include "decoder/unsafe_layout.hpp"
#include "spark/memory_access.hpp"

namespace rowbridge::decoder {
namespace {

template <typename Offset>
void StoreOffset(uint8_t* offsets, int64_t i, int64_t value) {
  const Offset v = static_cast<Offset>(value);
  std::memcpy(offsets + i * int64_t{sizeof(Offset)}, &v, sizeof(Offset));
}

/// Where a valid variable value of `tile` is: value i's region.
RowRegion VariableValue(const ValueTile& tile, int64_t i) {
  const VariableSlot slot = SplitSlot(Load<uint64_t>(tile.at[i]));
  return RowRegion{tile.base[i] + slot.offset, slot.size};
}

void FillStruct(const FillContext& context, int32_t index, const ValueTile& tile) {
  const DecodeNode& node = context.Node(index);
  AppendValidity(&context.Output(index), tile.valid, tile.count);
  ValueTile fields;
  fields.count = tile.count;
  for (int64_t i = 0; i < tile.count; ++i) {
    fields.base[i] = (tile.valid >> i) & 1
                         ? tile.base[i] + SplitSlot(Load<uint64_t>(tile.at[i])).offset
                         : context.zeros;
  }
  const int64_t num_fields = static_cast<int64_t>(node.children.size());
  const int64_t slots_at = spark::BitsetBytes(num_fields);
  for (int64_t f = 0; f < num_fields; ++f) {
    const int64_t null_byte = f >> 3;
    const uint32_t null_shift = static_cast<uint32_t>(f & 7);
    const int64_t slot_at = slots_at + 8 * f;
    uint64_t nulls = 0;
    for (int64_t i = 0; i < tile.count; ++i) {
      const uint8_t* value = fields.base[i];
      nulls |= static_cast<uint64_t>((value[null_byte] >> null_shift) & 1) << i;
      fields.at[i] = value + slot_at;
    }
    fields.valid = tile.valid & ~nulls;
    context.Fill(node.children[static_cast<size_t>(f)], fields);
  }
}

/// The elements of arrays, appended to node `index` in order: copied an
/// array at a time for fixed-width elements, gathered into tiles (and
/// passed to the node's function as each fills) for the others.
class ElementSink {
 public:
  ElementSink(const FillContext& context, int32_t index)
      : context_(context),
        index_(index),
        node_(context.Node(index)),
        fixed_(node_.kind == DecodeKind::kFixed) {
    tile_.count = 0;
    tile_.valid = 0;
  }
  ElementSink(const ElementSink&) = delete;
  ElementSink& operator=(const ElementSink&) = delete;

  /// Appends the elements of the array `layout` read from `region`.
  void Append(RowRegion region, const ArrayLayout& layout) {
    const uint8_t* nulls = region.base + 8;
    const int64_t n = layout.num_elements;
    if (fixed_) {
      DecodeOutput& out = context_.Output(index_);
      // An exact-size target of empty arrays may have no values buffer.
      if (n > 0) {
        std::memcpy(out.values + out.length * node_.width, layout.values,
                    static_cast<size_t>(n * node_.width));
      }
      for (int64_t k = 0; k < n; k += 64) {
        const int64_t bits = n - k < 64 ? n - k : 64;
        AppendValidity(&out, ~Load<uint64_t>(nulls + k / 8), bits);
      }
      return;
    }
    const int64_t element_size = node_.element_size;
    for (int64_t k = 0; k < n; ++k) {
      const int64_t j = tile_.count;
      tile_.base[j] = region.base;
      tile_.at[j] = layout.values + k * element_size;
      tile_.valid |= static_cast<uint64_t>(((nulls[k >> 3] >> (k & 7)) & 1) ^ 1) << j;
      if (++tile_.count == ValueTile::kMaxValues) Flush();
    }
  }

  /// Passes the gathered elements on.
  void Flush() {
    if (tile_.count == 0) return;
    context_.Fill(index_, tile_);
    tile_.count = 0;
    tile_.valid = 0;
  }

 private:
  const FillContext& context_;
  int32_t index_;
  const DecodeNode& node_;
  bool fixed_;
  ValueTile tile_;
};

template <typename Offset>
void FillList(const FillContext& context, int32_t index, const ValueTile& tile) {
  const DecodeNode& node = context.Node(index);
  const int32_t element = node.children[0];
  const int32_t element_size = context.Node(element).element_size;
  DecodeOutput& out = context.Output(index);
  uint8_t* offsets = out.values + (out.length + 1) * int64_t{sizeof(Offset)};
  int64_t end = context.Output(element).length;
  ElementSink elements(context, element);
  for (int64_t i = 0; i < tile.count; ++i) {
    if ((tile.valid >> i) & 1) {
      const RowRegion array = VariableValue(tile, i);
      const ArrayLayout layout = ReadArrayLayout(array, element_size);
      elements.Append(array, layout);
      end += layout.num_elements;
    }
    StoreOffset<Offset>(offsets, i, end);
  }
  elements.Flush();
  AppendValidity(&out, tile.valid, tile.count);
}

void FillMap(const FillContext& context, int32_t index, const ValueTile& tile) {
  const DecodeNode& node = context.Node(index);
  const int32_t key = node.children[0];
  const int32_t value = node.children[1];
  const int32_t key_size = context.Node(key).element_size;
  const int32_t value_size = context.Node(value).element_size;
  DecodeOutput& out = context.Output(index);
  uint8_t* offsets = out.values + (out.length + 1) * 4;
  int64_t end = context.Output(value).length;
  ElementSink keys(context, key);
  ElementSink values(context, value);
  for (int64_t i = 0; i < tile.count; ++i) {
    if ((tile.valid >> i) & 1) {
      const RowRegion map = VariableValue(tile, i);
      const int64_t key_bytes = Load<int64_t>(map.base);  // checked by the measure pass
      const RowRegion key_array{map.base + 8, key_bytes};
      const RowRegion value_array{map.base + 8 + key_bytes, map.size - 8 - key_bytes};
      keys.Append(key_array, ReadArrayLayout(key_array, key_size));
      const ArrayLayout value_layout = ReadArrayLayout(value_array, value_size);
      values.Append(value_array, value_layout);
      end += value_layout.num_elements;
    }
    StoreOffset<int32_t>(offsets, i, end);
  }
  keys.Flush();
  values.Flush();
  AppendValidity(&out, tile.valid, tile.count);
}

/// Appends a valid value of `size` bytes to the string node `index`.
void AppendBytes(const FillContext& context, int32_t index, const uint8_t* bytes, int64_t size) {
  DecodeOutput& out = context.Output(index);
  if (size > 0) std::memcpy(out.data + out.data_size, bytes, static_cast<size_t>(size));
  out.data_size += size;
  SetBit(out.validity, out.length);
  ++out.length;
  if (context.Node(index).kind == DecodeKind::kString32) {
    StoreOffset<int32_t>(out.values, out.length, out.data_size);
  } else {
    StoreOffset<int64_t>(out.values, out.length, out.data_size);
  }
}

/// A variant's value and metadata; a null variant's are empty (they are
/// not nullable).
void FillVariant(const FillContext& context, int32_t index, const ValueTile& tile) {
  const DecodeNode& node = context.Node(index);
  for (int64_t i = 0; i < tile.count; ++i) {
    if ((tile.valid >> i) & 1) {
      const RowRegion variant = VariableValue(tile, i);
      const int64_t value_bytes = Load<int32_t>(variant.base);  // checked by the measure pass
      AppendBytes(context, node.children[0], variant.base + 4, value_bytes);
      AppendBytes(context, node.children[1], variant.base + 4 + value_bytes,
                  variant.size - 4 - value_bytes);
    } else {
      AppendBytes(context, node.children[0], nullptr, 0);
      AppendBytes(context, node.children[1], nullptr, 0);
    }
  }
  AppendValidity(&context.Output(index), tile.valid, tile.count);
}

}  // namespace

NodeFills ResolveNodeFills(const DecodePlan& plan) {
  NodeFills fills;
  int64_t widest = 0;  // the most bytes a value's pointers may read past zeros
  for (const DecodeNode& node : plan.nodes) {
    NodeFillFn function = LeafFillFunction(node);
    switch (node.kind) {
      case DecodeKind::kStruct: function = FillStruct; break;
      case DecodeKind::kList32: function = FillList<int32_t>; break;
      case DecodeKind::kList64: function = FillList<int64_t>; break;
      case DecodeKind::kMap: function = FillMap; break;
      case DecodeKind::kVariant: function = FillVariant; break;
      default: break;
    }
    fills.functions.push_back(function);
    if (node.fixed_bytes > widest) widest = node.fixed_bytes;
  }
  fills.zeros.assign(static_cast<size_t>(widest + 2 * kShortCopy), 0);
  return fills;
}

}  // namespace rowbridge::decoder
