// RegisteredBatch: a converter-owned ArrowArray tree shaped like a schema,
// whose buffer addresses callers write in place of exporting a new array.
#pragma once

#include <memory>
#include <vector>

#include "arrow/arrow_field.hpp"

namespace rowbridge::row {

class RegisteredBatch {
 public:
  /// Builds the tree for `schema` (the batch struct). Every node has the
  /// buffer and child arrays its type needs (view types: no variadic buffers;
  /// point `buffers` at your own array to add them), zero lengths, and a
  /// release callback that does nothing.
  explicit RegisteredBatch(const ArrowField& schema);

  ArrowArray* array() { return &root_.array; }

 private:
  struct Node {
    ArrowArray array{};
    std::vector<const void*> buffers;
    std::vector<ArrowArray*> child_pointers;
    std::vector<std::unique_ptr<Node>> children;
    std::unique_ptr<Node> dictionary;
  };
  static void Build(const ArrowField& field, Node* node);
  Node root_;
};

}  // namespace rowbridge::row
