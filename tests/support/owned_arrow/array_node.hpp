// ArrayNode: an Arrow array whose buffers this process owns, described node
// by node, and its export through the C Data Interface. The benchmarks build
// their datasets with it and the tests their inputs; neither is part of
// librowbridge.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rowbridge/arrow_c_data.h"

namespace rowbridge::owned_arrow {

using Bytes = std::vector<uint8_t>;

/// One Arrow array node: its type, its owned buffers, its children and its
/// dictionary.
struct ArrayNode {
  std::string format;
  std::string name;
  bool nullable = true;
  std::string metadata;  // already in the C Data Interface encoding, or empty
  int64_t length = 0;
  int64_t null_count = 0;
  int64_t offset = 0;
  std::vector<std::optional<Bytes>> buffers;  // nullopt exports as a NULL buffer
  std::vector<ArrayNode> children;
  std::shared_ptr<ArrayNode> dictionary;  // may be shared by many nodes
};

/// How ExportArray hands over the buffers of a node.
enum class BufferExport {
  /// Copies every buffer into an allocation of exactly its size (one byte
  /// for an empty buffer), owned by the exported array: AddressSanitizer
  /// reports any read past a buffer's end, and the node may change or go
  /// away once exported.
  kCopyExactSize,
  /// Points into the node's own buffers, without copying: the node must
  /// outlive the exported array and stay unchanged. An empty buffer has no
  /// bytes to point to and exports as NULL.
  kBorrow,
};

/// Exports the type of `node` (recursively: children, dictionary) into
/// `*out`, which owns copies of every string and never refers to `node`. The
/// caller releases `*out`.
void ExportSchema(const ArrayNode& node, ArrowSchema* out);

/// Exports `node` (recursively: children, dictionary) into `*out`, its
/// buffers copied or borrowed as `mode` says; copied by default, so that
/// `*out` depends on nothing the caller keeps. The caller releases `*out`;
/// releasing frees the exported structs and the copies, never the node's
/// buffers.
void ExportArray(const ArrayNode& node, ArrowArray* out,
                 BufferExport mode = BufferExport::kCopyExactSize);

/// Owns an exported ArrowSchema and releases it on destruction.
struct OwnedSchema {
  ArrowSchema schema{};
  OwnedSchema() = default;
  OwnedSchema(const OwnedSchema&) = delete;
  OwnedSchema& operator=(const OwnedSchema&) = delete;
  ~OwnedSchema() {
    if (schema.release != nullptr) schema.release(&schema);
  }
};

/// Owns an exported ArrowArray and releases it on destruction.
struct OwnedArray {
  ArrowArray array{};
  OwnedArray() = default;
  OwnedArray(const OwnedArray&) = delete;
  OwnedArray& operator=(const OwnedArray&) = delete;
  ~OwnedArray() {
    if (array.release != nullptr) array.release(&array);
  }
};

}  // namespace rowbridge::owned_arrow
