// Random nested Arrow columns for the randomized differential tests:
// structs, lists of every layout (list, large_list, fixed_size_list,
// list_view, large_list_view) and maps, up to four levels deep, over the
// random flat columns of random_columns.hpp; nulls at every level with
// garbage under null parents, slices (offsets) at every level, and
// dictionary or run-end encoded nodes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "support/random_columns.hpp"

namespace rowbridge::testing {

struct TypeSpec {
  enum class Kind { kLeaf, kStruct, kList, kMap };
  Kind kind = Kind::kLeaf;
  /// Leaves: the whole flat spec. Nested nodes: name, null_rate, nullable.
  ColumnSpec node;
  std::string list_format;         // lists: +l, +L, +w:N, +vl or +vL
  std::vector<TypeSpec> children;  // struct fields; [element]; [key, value]
  EncodingSpec encoding;           // of this node
};

/// A nested type of at most `max_depth` nested levels (structs, lists, maps)
/// over random flat leaves; `extremes` lets leaves hold overflowing values.
/// With `depth_first`, only what the depth-first writer covers: plain
/// structs, list, large_list and maps of strings and of fixed-width values
/// whose Arrow bytes are Spark's.
TypeSpec RandomNestedSpec(Rng& rng, const std::string& name, int max_depth, bool extremes,
                          bool depth_first = false);

/// Draws new encodings for every node of `spec`.
void RandomizeEncodings(Rng& rng, TypeSpec* spec);

/// A column of `n` values of `spec`.
TestArray MakeNestedColumn(Rng& rng, const TypeSpec& spec, int64_t n);

/// The schema of `spec` with every node plain (for registering a schema
/// that batches re-encode).
TestArray PlainSchema(const TypeSpec& spec);

/// A short description of `spec`, e.g. "list<struct<i,u>>".
std::string DescribeSpec(const TypeSpec& spec);

}  // namespace rowbridge::testing
