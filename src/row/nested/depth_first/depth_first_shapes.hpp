// Writers of the depth-first path specialized on a nested value's shape,
// for the common shapes whose children are leaves: a struct of one or two
// fields, a list or map of leaves, a list of such structs. Each is one
// function with no dispatch on kinds inside (the generic writers of
// depth_first_writer.hpp switch on every field's kind and call through a
// pointer per array); DepthFirstShapes::Resolve puts them in the nodes that
// match. Each shape writes over flat nodes (depth_first_flat.hpp): a column
// of the shape reads those bound once per batch; a value of the shape below
// a generic writer flattens its node first. Internal linkage, included by
// the per-ISA files.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "row/nested/depth_first/depth_first_flat.hpp"
#include "row/nested/depth_first/depth_first_writer.hpp"

namespace rowbridge::row {
namespace {

/// Structs of more fields take the generic writers: each field more would
/// triple the instantiations (and the build time of the per-ISA files).
inline constexpr int kMaxShapedFields = 2;

template <typename Ops>
struct DepthFirstShapes {
  using Generic = DepthFirst<Ops>;
  using Flat = DepthFirstFlat<Ops>;
  using FlatNode = DepthFirstFlatNode;

  template <typename... Leaves>
  struct StructOf {
    static constexpr int64_t kFields = sizeof...(Leaves);
    /// `nodes[0]` the struct, its fields after it.
    ROWBRIDGE_DF_INLINE static int64_t WriteFlat(const FlatNode* nodes, int64_t x, uint8_t* dst) {
      return WriteFields(nodes, x, dst,
                         [&](int64_t i) { return 0 - Flat::Valid(nodes[1 + i], x); });
    }
    /// WriteFlat with field i's validity bit k of `field_nulls[i]` (set:
    /// null), for the elements of a list of structs.
    ROWBRIDGE_DF_INLINE static int64_t WriteKnown(const FlatNode* nodes, int64_t x,
                                                  const uint64_t* field_nulls, int64_t k,
                                                  uint8_t* dst) {
      return WriteFields(nodes, x, dst, [&](int64_t i) { return ((field_nulls[i] >> k) & 1) - 1; });
    }
    /// The fields of value x, field i valid when `keep_of(i)` is all ones.
    template <typename KeepOf>
    ROWBRIDGE_DF_INLINE static int64_t WriteFields(const FlatNode* nodes, int64_t x, uint8_t* dst,
                                                   KeepOf keep_of) {
      int64_t cursor = 8 + 8 * kFields;
      uint64_t nulls = 0;
      int64_t i = 0;
      ((cursor = Flat::template KnownLeafField<Leaves>(
            nodes[1 + i], x, keep_of(i), dst, dst + 8 + 8 * i, cursor, nulls, uint64_t{1} << i),
        ++i),
       ...);
      Store64(dst, nulls);
      return cursor;
    }
  };

  template <typename Offset, typename Leaf>
  struct ListOf {
    /// `nodes[0]` the list, `nodes[1]` its element.
    ROWBRIDGE_DF_INLINE static int64_t WriteFlat(const FlatNode* nodes, int64_t x, uint8_t* dst) {
      const int64_t first = Flat::template OffsetAt<Offset>(nodes[0].values, x);
      const int64_t n = Flat::template OffsetAt<Offset>(nodes[0].values, x + 1) - first;
      return Flat::template LeafArray<Leaf>(nodes[1], first, n, dst);
    }
  };

  template <typename Key, typename Value>
  struct MapOf {
    /// `nodes[0]` the map, `nodes[1]` its keys, `nodes[2]` its values.
    ROWBRIDGE_DF_INLINE static int64_t WriteFlat(const FlatNode* nodes, int64_t x, uint8_t* dst) {
      const int64_t first = Flat::template OffsetAt<int32_t>(nodes[0].values, x);
      const int64_t n = Flat::template OffsetAt<int32_t>(nodes[0].values, x + 1) - first;
      const int64_t keys = Flat::template LeafArray<Key>(nodes[1], first, n, dst + 8);
      Store64(dst, static_cast<uint64_t>(keys));
      return 8 + keys + Flat::template LeafArray<Value>(nodes[2], first, n, dst + 8 + keys);
    }
  };

  template <typename Offset, typename... Leaves>
  struct ListOfStructs {
    /// `nodes[0]` the list, `nodes[1]` its struct element, the fields after.
    ROWBRIDGE_DF_INLINE static int64_t WriteFlat(const FlatNode* nodes, int64_t x, uint8_t* dst) {
      const int64_t first = Flat::template OffsetAt<Offset>(nodes[0].values, x);
      const int64_t n = Flat::template OffsetAt<Offset>(nodes[0].values, x + 1) - first;
      uint64_t nulls;
      const int64_t header = Flat::Header(nodes[1], first, n, dst, &nulls);
      uint8_t* slots = dst + header;
      int64_t cursor = header + 8 * n;
      // Element k, `keep` all ones when it is valid, of `size` bytes written
      // at the cursor: its slot, and the cursor past it.
      auto place = [&](int64_t k, uint64_t keep, int64_t size) {
        size &= static_cast<int64_t>(keep);
        Store64(slots + 8 * k, OffsetAndSize(cursor, size) & keep);
        cursor += size;
      };
      if (__builtin_expect(n <= 56, 1)) {
        // Every validity the elements need, one word per node.
        uint64_t field_nulls[sizeof...(Leaves)];
        for (size_t i = 0; i < sizeof...(Leaves); ++i)
          field_nulls[i] = Flat::NullWord(nodes[2 + i], first, n);
        for (int64_t k = 0; k < n; ++k) {
          place(
              k, ((nulls >> k) & 1) - 1,
              StructOf<Leaves...>::WriteKnown(nodes + 1, first + k, field_nulls, k, dst + cursor));
        }
        return cursor;
      }
      for (int64_t k = 0; k < n; ++k) {
        place(k, 0 - Flat::Valid(nodes[1], first + k),
              StructOf<Leaves...>::WriteFlat(nodes + 1, first + k, dst + cursor));
      }
      return cursor;
    }
  };

  /// A shape's writers as a node's `value` and as a column's `flat` writer.
  template <typename Shape>
  struct Shaped {
    /// Below a generic writer: the node flattened first.
    static int64_t Value(const DepthFirstNode& node, int64_t x, uint8_t* dst) {
      FlatNode nodes[kFlatNodesPerColumn];
      FlattenShape(node, nodes);
      return Shape::WriteFlat(nodes, x, dst);
    }
    static DepthFirstCursor FlatColumn(const FlatNode* nodes, int64_t x, uint8_t* row,
                                       uint8_t* slot, int64_t cursor, uint64_t mask) {
      const uint64_t keep = 0 - Flat::Valid(nodes[0], x);
      int64_t size = Shape::WriteFlat(nodes, x, row + cursor) & static_cast<int64_t>(keep);
      Store64(slot, OffsetAndSize(cursor, size) & keep);
      return DepthFirstCursor{cursor + size, mask & ~keep};
    }
  };

  /// The writers a shape resolves to.
  struct Writers {
    DepthFirstValueFn value = nullptr;
    DepthFirstFlatFn flat = nullptr;
  };
  template <typename Shape>
  static Writers WritersOf() {
    return Writers{Shaped<Shape>::Value, Shaped<Shape>::FlatColumn};
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
        return node.width == 1 ? pick.template operator()<FixedLeaf<1>>()
                               : pick.template operator()<FixedLeaf<2>>();
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
      return WithLeaf(node.children[i], true, [&]<typename Leaf>() {
        return PickStruct<kList, Offset, Done..., Leaf>(node, i + 1);
      });
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
          return WithLeaf(node.children[1], false,
                          [&]<typename Value>() { return WritersOf<MapOf<Key, Value>>(); });
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
    return WithLeaf(element, false,
                    [&]<typename Leaf>() { return WritersOf<ListOf<Offset, Leaf>>(); });
  }

  /// The writer of a column whose node has no shape (over its node).
  static DepthFirstCursor GenericColumn(const DepthFirstNode& node, int64_t x, uint8_t* row,
                                        uint8_t* slot, int64_t cursor, uint64_t mask) {
    uint64_t nulls = 0;
    cursor = Generic::Field(node, x, row, slot, cursor, nulls, mask);
    return DepthFirstCursor{cursor, nulls};
  }

  /// Resolves `plan` with the generic writers, then puts shaped ones where
  /// a node's shape has one; string and shaped columns get flat writers.
  static void Resolve(DepthFirstPlan* plan) {
    Generic::Resolve(plan);
    std::vector<Writers> shaped(plan->nodes.size());
    for (size_t i = 0; i < plan->nodes.size(); ++i) {
      DepthFirstNode& node = plan->nodes[i];
      shaped[i] = Pick(node);  // none for leaves
      if (shaped[i].value != nullptr) node.value = shaped[i].value;
    }
    for (DepthFirstColumn& column : plan->columns) {
      const DepthFirstNode& node = plan->nodes[static_cast<size_t>(column.node)];
      switch (node.kind) {
        case DepthFirstKind::kString32:
          column.flat = Flat::template LeafColumn<StringLeaf<int32_t>>;
          break;
        case DepthFirstKind::kString64:
          column.flat = Flat::template LeafColumn<StringLeaf<int64_t>>;
          break;
        default: column.flat = shaped[static_cast<size_t>(column.node)].flat; break;
      }
      column.field = GenericColumn;  // for a column without a flat writer
    }
  }
};

}  // namespace
}  // namespace rowbridge::row
