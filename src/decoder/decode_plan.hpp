// The plan of the row decoder (rowbridge/row_decoder.hpp): one node per
// Arrow field of the target schema, nested ones included, compiled once per
// schema. Nodes are stored flat in preorder, each naming its children.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "arrow/arrow_field.hpp"
#include "rowbridge/spark_type.hpp"
#include "rowbridge/status.hpp"

namespace rowbridge::decoder {

/// How a value sits in the rows and what its Arrow array holds.
enum class DecodeKind : uint8_t {
  kNull,              // no bytes; Arrow null
  kBoolean,           // 1 byte 0/1; Arrow bits
  kFixed,             // `width` little-endian bytes, copied as they are
  kSmallDecimal,      // an unscaled long (p <= 18); Arrow decimal128
  kLargeDecimal,      // 1-16 big-endian bytes in the variable region; decimal128
  kString32,          // bytes in the variable region; utf8 / binary
  kString64,          // large_utf8 / large_binary
  kCalendarInterval,  // 16 bytes: months, days, microseconds; month_day_nano
  kStruct,            // a nested UnsafeRow
  kList32,            // an UnsafeArrayData; list
  kList64,            // large_list
  kMap,               // an UnsafeMapData; map (children: key, value)
  kVariant,           // [int32 value length][value][metadata]; a struct of two binaries
};

/// The most fields of a struct whose arrays take the leaf-struct fast paths.
inline constexpr size_t kMaxLeafFields = 16;

struct DecodeNode {
  DecodeKind kind = DecodeKind::kNull;
  /// kFixed: bytes of a value in a slot, in an array and in Arrow.
  int32_t width = 0;
  /// Bytes of one of its values as an UnsafeArrayData element (1, 2, 4, 8).
  int32_t element_size = 8;
  int32_t precision = 0;  // decimals
  /// Whether its values may be null (a null under a non-nullable field, an
  /// element of an array without nulls or a map key is an error).
  bool nullable = true;
  /// Indices of its children: struct fields; a list's element; a map's
  /// key and value.
  std::vector<int32_t> children;
  /// kStruct: bytes of its bitset and slots.
  int64_t fixed_bytes = 0;
  /// kStruct: every field a boolean, a fixed-width value or a string, at
  /// most kMaxLeafFields of them (the fast paths of arrays of such structs).
  bool leaf_fields = false;
  /// kStruct with leaf_fields: bit i set when field i is a string, and when
  /// it may not be null.
  uint32_t leaf_strings = 0;
  uint32_t leaf_required = 0;
  /// The field's path for errors, e.g. "m.value" or "s.b".
  std::string path;
};

struct DecodePlan {
  std::vector<DecodeNode> nodes;
  /// The node of each top-level field.
  std::vector<int32_t> columns;
  /// Bytes of a row's bitset and slots.
  int64_t fixed_row_bytes = 0;
  SparkType spark_schema;

  /// Child i of `node`.
  const DecodeNode& Child(const DecodeNode& node, int32_t i) const {
    return nodes[static_cast<size_t>(node.children[static_cast<size_t>(i)])];
  }
};

/// Whether values of `kind` live in the variable region (their slot holds
/// an offset and a size).
constexpr bool IsVariable(DecodeKind kind) {
  constexpr uint32_t kVariable =
      1u << static_cast<int>(DecodeKind::kLargeDecimal) |
      1u << static_cast<int>(DecodeKind::kString32) |
      1u << static_cast<int>(DecodeKind::kString64) |
      1u << static_cast<int>(DecodeKind::kCalendarInterval) |
      1u << static_cast<int>(DecodeKind::kStruct) | 1u << static_cast<int>(DecodeKind::kList32) |
      1u << static_cast<int>(DecodeKind::kList64) | 1u << static_cast<int>(DecodeKind::kMap) |
      1u << static_cast<int>(DecodeKind::kVariant);
  return (kVariable >> static_cast<int>(kind)) & 1;
}

/// Compiles the plan for rows of `schema` (a struct field: one child per
/// row field). Returns NotSupported naming the field and its type for an
/// Arrow type rows do not decode to.
Status CompileDecodePlan(const ArrowField& schema, DecodePlan* out);

}  // namespace rowbridge::decoder
