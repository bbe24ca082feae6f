// Writers of the depth-first path specialized on a nested value's shape,
// for the common shapes whose children are leaves: a struct of one or two
// fields, a list or map of leaves, a list of such structs. Each is one
// function with no dispatch on kinds inside (the generic writers of
// depth_first_writer.hpp switch on every field's kind and call through a
// pointer per array); DepthFirstShapes::Resolve puts them in the nodes that
// match. Internal linkage, included by the per-ISA files.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "row/nested/depth_first_writer.hpp"

namespace rowbridge::row {
namespace {

/// Structs of more fields take the generic writers: each field more would
/// triple the instantiations (and the build time of the per-ISA files).
inline constexpr int kMaxShapedFields = 2;

template <typename Ops>
struct DepthFirstShapes {
  using Generic = DepthFirst<Ops>;

  template <typename... Leaves>
  struct StructOf {
    static constexpr int64_t kFields = sizeof...(Leaves);
    ROWBRIDGE_DF_INLINE static int64_t Write(const DepthFirstNode& node, int64_t x, uint8_t* dst) {
      const int64_t fields_x = node.offset + x;
      const DepthFirstNode* fields = node.children;
      int64_t cursor = 8 + 8 * kFields;
      uint64_t nulls = 0;
      int64_t i = 0;
      ((cursor = Generic::template LeafField<Leaves>(fields[i], fields_x, dst, dst + 8 + 8 * i, cursor, nulls, uint64_t{1} << i), ++i),
       ...);
      Store64(dst, nulls);
      return cursor;
    }
  };

  /// An array of leaves [first, first + n) of `element`.
  template <typename Leaf>
  ROWBRIDGE_DF_INLINE static int64_t LeafArray(const DepthFirstNode& element, int64_t first, int64_t n, uint8_t* dst) {
    if constexpr (Leaf::kString) {
      return Generic::template StringArray<typename Leaf::Offset>(element, first, n, dst);
    } else {
      return Generic::template FixedArray<Leaf::kWidth>(element, first, n, dst);
    }
  }

  template <typename Offset, typename Leaf>
  struct ListOf {
    ROWBRIDGE_DF_INLINE static int64_t Write(const DepthFirstNode& node, int64_t x, uint8_t* dst) {
      const uint8_t* offsets = node.values + (node.offset + x) * int64_t{sizeof(Offset)};
      const int64_t first = Generic::template OffsetAt<Offset>(offsets, 0);
      const int64_t n = Generic::template OffsetAt<Offset>(offsets, 1) - first;
      return LeafArray<Leaf>(*node.children, first, n, dst);
    }
  };

  template <typename Key, typename Value>
  struct MapOf {
    ROWBRIDGE_DF_INLINE static int64_t Write(const DepthFirstNode& node, int64_t x, uint8_t* dst) {
      const uint8_t* offsets = node.values + (node.offset + x) * 4;
      const int64_t first = Generic::template OffsetAt<int32_t>(offsets, 0);
      const int64_t n = Generic::template OffsetAt<int32_t>(offsets, 1) - first;
      const int64_t keys = LeafArray<Key>(node.children[0], first, n, dst + 8);
      Store64(dst, static_cast<uint64_t>(keys));
      return 8 + keys + LeafArray<Value>(node.children[1], first, n, dst + 8 + keys);
    }
  };

  template <typename Offset, typename... Leaves>
  struct ListOfStructs {
    ROWBRIDGE_DF_INLINE static int64_t Write(const DepthFirstNode& node, int64_t x, uint8_t* dst) {
      const uint8_t* offsets = node.values + (node.offset + x) * int64_t{sizeof(Offset)};
      const int64_t first = Generic::template OffsetAt<Offset>(offsets, 0);
      const int64_t n = Generic::template OffsetAt<Offset>(offsets, 1) - first;
      const DepthFirstNode& element = *node.children;
      uint64_t nulls;
      const int64_t header = Generic::Header(element, first, n, dst, &nulls);
      const uint8_t* validity = element.validity;
      const int64_t base = element.offset + first;
      uint8_t* slots = dst + header;
      int64_t cursor = header + 8 * n;
      for (int64_t k = 0; k < n; ++k) {
        const uint64_t keep = 0 - Generic::Valid(validity, base + k);
        int64_t size = StructOf<Leaves...>::Write(element, first + k, dst + cursor) & static_cast<int64_t>(keep);
        Store64(slots + 8 * k, OffsetAndSize(cursor, size) & keep);
        cursor += size;
      }
      return cursor;
    }
  };

  /// A shape's writers as a node's `value` and as a column's `field`.
  template <typename Shape>
  struct Shaped {
    static int64_t Value(const DepthFirstNode& node, int64_t x, uint8_t* dst) { return Shape::Write(node, x, dst); }
    static DepthFirstCursor Column(const DepthFirstNode& node, int64_t x, uint8_t* row, uint8_t* slot, int64_t cursor,
                                   uint64_t mask) {
      const uint64_t keep = 0 - Generic::Valid(node.validity, node.offset + x);
      int64_t size = Shape::Write(node, x, row + cursor) & static_cast<int64_t>(keep);
      Store64(slot, OffsetAndSize(cursor, size) & keep);
      return DepthFirstCursor{cursor + size, mask & ~keep};
    }
  };

  /// The writers a shape resolves to.
  struct Writers {
    DepthFirstValueFn value = nullptr;
    DepthFirstColumnFn column = nullptr;
  };
  template <typename Shape>
  static Writers WritersOf() {
    return Writers{Shaped<Shape>::Value, Shaped<Shape>::Column};
  }

  // Picking a shape: the leaf kinds of the children become template
  // arguments one at a time.

  /// Calls `pick.template operator()<Leaf>()` with `node`'s leaf type and
  /// returns its result, or nullptr for a node that is not a leaf.
  template <typename Pick>
  static Writers WithLeaf(const DepthFirstNode& node, bool struct_field, Pick&& pick) {
    switch (node.kind) {
      case DepthFirstKind::kFixed:
        switch (node.width) {
          case 4: return pick.template operator()<FixedLeaf<4>>();
          case 8: return pick.template operator()<FixedLeaf<8>>();
          default: break;
        }
        if (struct_field) return {};  // struct shapes cover 4- and 8-byte fields
        return node.width == 1 ? pick.template operator()<FixedLeaf<1>>() : pick.template operator()<FixedLeaf<2>>();
      case DepthFirstKind::kString32: return pick.template operator()<StringLeaf<int32_t>>();
      case DepthFirstKind::kString64:
        if (struct_field) return {};
        return pick.template operator()<StringLeaf<int64_t>>();
      default: return {};
    }
  }

  /// StructOf (or ListOfStructs with `Offset`) over the fields from `i` on,
  /// with `Done` the leaf types of the fields before.
  template <bool kList, typename Offset, typename... Done>
  static Writers PickStruct(const DepthFirstNode& node, int32_t i) {
    if (i == node.num_children) {
      if constexpr (sizeof...(Done) == 0) {
        return {};
      } else if constexpr (kList) {
        return WritersOf<ListOfStructs<Offset, Done...>>();
      } else {
        return WritersOf<StructOf<Done...>>();
      }
    }
    if constexpr (sizeof...(Done) < kMaxShapedFields) {
      return WithLeaf(node.children[i], true,
                      [&]<typename Leaf>() { return PickStruct<kList, Offset, Done..., Leaf>(node, i + 1); });
    }
    return {};
  }

  /// The shaped writers of `node`, or none when its shape has none.
  static Writers Pick(const DepthFirstNode& node) {
    switch (node.kind) {
      case DepthFirstKind::kStruct: return PickStruct<false, int32_t>(node, 0);
      case DepthFirstKind::kList32: return PickList<int32_t>(node);
      case DepthFirstKind::kList64: return PickList<int64_t>(node);
      case DepthFirstKind::kMap:
        return WithLeaf(node.children[0], false, [&]<typename Key>() {
          return WithLeaf(node.children[1], false, [&]<typename Value>() { return WritersOf<MapOf<Key, Value>>(); });
        });
      default: return {};
    }
  }

  template <typename Offset>
  static Writers PickList(const DepthFirstNode& node) {
    const DepthFirstNode& element = *node.children;
    if (element.kind == DepthFirstKind::kStruct) {
      if constexpr (std::is_same_v<Offset, int32_t>) return PickStruct<true, int32_t>(element, 0);
      return {};
    }
    return WithLeaf(element, false, [&]<typename Leaf>() { return WritersOf<ListOf<Offset, Leaf>>(); });
  }

  /// A column's writer: a leaf's, a shape's, or the generic one.
  template <typename Leaf>
  static DepthFirstCursor LeafColumn(const DepthFirstNode& node, int64_t x, uint8_t* row, uint8_t* slot,
                                     int64_t cursor, uint64_t mask) {
    uint64_t nulls = 0;
    cursor = Generic::template LeafField<Leaf>(node, x, row, slot, cursor, nulls, mask);
    return DepthFirstCursor{cursor, nulls};
  }
  static DepthFirstCursor GenericColumn(const DepthFirstNode& node, int64_t x, uint8_t* row, uint8_t* slot,
                                        int64_t cursor, uint64_t mask) {
    uint64_t nulls = 0;
    cursor = Generic::Field(node, x, row, slot, cursor, nulls, mask);
    return DepthFirstCursor{cursor, nulls};
  }

  /// Resolves `plan` with the generic writers, then puts shaped ones where
  /// a node's shape has one.
  static void Resolve(DepthFirstPlan* plan) {
    Generic::Resolve(plan);
    std::vector<DepthFirstColumnFn> shaped_columns(plan->nodes.size(), nullptr);
    for (size_t i = 0; i < plan->nodes.size(); ++i) {
      DepthFirstNode& node = plan->nodes[i];
      Writers shaped = Pick(node);  // none for leaves
      if (shaped.value != nullptr) node.value = shaped.value;
      shaped_columns[i] = shaped.column;
    }
    for (DepthFirstColumn& column : plan->columns) {
      const DepthFirstNode& node = plan->nodes[static_cast<size_t>(column.node)];
      switch (node.kind) {
        case DepthFirstKind::kString32: column.field = LeafColumn<StringLeaf<int32_t>>; break;
        case DepthFirstKind::kString64: column.field = LeafColumn<StringLeaf<int64_t>>; break;
        default: column.field = shaped_columns[static_cast<size_t>(column.node)]; break;
      }
      if (column.field == nullptr) column.field = GenericColumn;
    }
  }
};

}  // namespace
}  // namespace rowbridge::row
