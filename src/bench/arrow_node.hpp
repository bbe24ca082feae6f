// ArrayNode: an Arrow array that owns its buffers, for the benchmarks' own
// data, and its export through the C Data Interface.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rowbridge/arrow_c_data.h"

namespace rowbridge::bench {

using Bytes = std::vector<uint8_t>;

/// One Arrow array node with its type, owned buffers, children and dictionary.
struct ArrayNode {
  std::string format;
  std::string name;
  int64_t flags = ARROW_FLAG_NULLABLE;
  int64_t length = 0;
  int64_t null_count = 0;
  std::vector<Bytes> buffers;  // an empty buffer is exported as NULL
  std::vector<ArrayNode> children;
  std::shared_ptr<const ArrayNode> dictionary;  // may be shared by many batches
};

/// Exports the type of `node` (recursively) into `*out`, which owns copies of
/// every string; the caller releases `*out`.
void ExportSchema(const ArrayNode& node, ArrowSchema* out);

/// Exports `node` (recursively) into `*out`, which borrows the buffers of
/// `node`: `node` must outlive `*out` and stay unchanged. The caller releases
/// `*out`; releasing frees only the exported structs, never the buffers.
void ExportArray(const ArrayNode& node, ArrowArray* out);

/// Owns an exported ArrowSchema and releases it on destruction.
class SchemaHolder {
 public:
  SchemaHolder() = default;
  SchemaHolder(const SchemaHolder&) = delete;
  SchemaHolder& operator=(const SchemaHolder&) = delete;
  ~SchemaHolder() {
    if (schema_.release != nullptr) schema_.release(&schema_);
  }
  ArrowSchema* get() { return &schema_; }
  const ArrowSchema& operator*() const { return schema_; }

 private:
  ArrowSchema schema_{};
};

/// Owns an exported ArrowArray and releases it on destruction.
class ArrayHolder {
 public:
  ArrayHolder() = default;
  ArrayHolder(const ArrayHolder&) = delete;
  ArrayHolder& operator=(const ArrayHolder&) = delete;
  ~ArrayHolder() {
    if (array_.release != nullptr) array_.release(&array_);
  }
  ArrowArray* get() { return &array_; }
  const ArrowArray& operator*() const { return array_; }

 private:
  ArrowArray array_{};
};

}  // namespace rowbridge::bench
