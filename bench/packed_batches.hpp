// PackedBatches: record batches laid out one after another in one block of
// memory, as a sequential producer (an IPC reader, a scan writing into a
// pool) lays them out.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "support/owned_arrow/array_node.hpp"

namespace rowbridge::bench {

class PackedBatches {
 public:
  /// Copies `roots` (struct arrays), in order, into one allocation: for each
  /// batch its ArrowArray structs, buffer and child lists, then its buffers
  /// (64-byte aligned, as Arrow allocators align them; an absent or empty
  /// buffer is NULL). A dictionary shared by several batches is packed once,
  /// where it first appears. Nothing refers to `roots` afterwards.
  explicit PackedBatches(const std::vector<owned_arrow::ArrayNode>& roots);
  PackedBatches(const PackedBatches&) = delete;
  PackedBatches& operator=(const PackedBatches&) = delete;

  /// The batches; owned by this object, never to be released by callers.
  const std::vector<const ArrowArray*>& batches() const { return batches_; }
  int64_t bytes() const { return size_; }

 private:
  /// Places nodes at a cursor; with a null base it only measures.
  class Placer;

  std::unique_ptr<uint64_t[]> storage_;
  int64_t size_ = 0;
  std::vector<const ArrowArray*> batches_;
};

}  // namespace rowbridge::bench
