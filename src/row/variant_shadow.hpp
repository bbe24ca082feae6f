// Spark variants in the converter: a variant struct (struct<value: binary,
// metadata: binary>, see type_mapping.hpp) is written as the binary value
// [int32 value length][value][metadata], Spark's UnsafeRow bytes of a
// VariantVal. The plan compiles such a field as a large_binary field
// (ArrowField::variant_bytes), and each batch's arrays are shadowed: the
// variant struct arrays are replaced by large_binary arrays of those bytes,
// built here, so that every writer (flat, nested, depth-first) sees a binary.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "arrow/arrow_field.hpp"
#include "rowbridge/arrow_c_data.h"
#include "rowbridge/status.hpp"

namespace rowbridge::row {

/// Sets `*out` to `field` with every variant struct in it (at any depth, as
/// a dictionary's values or run-end values too) replaced by a large_binary
/// field flagged variant_bytes, and `*any` to whether there was one. A
/// variant struct not in Spark's form is NotSupported naming its path.
Status RewriteVariantFields(const ArrowField& field, const std::string& path, ArrowField* out,
                            bool* any);

/// The shadow of one column's array tree for the current batch. Nodes on
/// the way to a variant are shallow copies pointing at shadowed children;
/// every other node is the caller's, borrowed. Owns the variant bytes it
/// built, reused (grown only) across batches. Not thread-safe.
class VariantShadow {
 public:
  VariantShadow();
  ~VariantShadow();
  VariantShadow(const VariantShadow&) = delete;
  VariantShadow& operator=(const VariantShadow&) = delete;

  /// Builds the shadow of `array`, the column of the original (not
  /// rewritten) field `field` named `path`. Borrows `array`: the shadow
  /// points into it and is valid until the next Build or until `array` is
  /// released. Checks the variant nodes' structure and offsets; a null value
  /// or metadata under a valid variant is Invalid naming the path and index.
  Status Build(const ArrowField& field, const std::string& path, const ArrowArray& array);

  /// The shadowed column (valid after a successful Build).
  const ArrowArray* array() const { return root_; }

  /// Bytes this shadow holds (vector capacities).
  int64_t bytes() const;

 private:
  struct Node;
  Status Shadow(const ArrowField& field, const std::string& path, const ArrowArray& array,
                const ArrowArray** out);
  Node* NextNode();

  std::vector<std::unique_ptr<Node>> nodes_;
  size_t used_ = 0;
  const ArrowArray* root_ = nullptr;
};

}  // namespace rowbridge::row
