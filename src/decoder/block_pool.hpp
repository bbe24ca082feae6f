// Blocks of memory the row decoder's arrays live in, one per decoded batch,
// taken back when the last array of the batch is released so that the next
// batch reuses them: in a steady state (each batch released before the one
// after the next is decoded) decoding allocates nothing and touches no new
// page, which costs more than the decoding itself (docs/BENCHMARKS.md).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace rowbridge::decoder {

class BlockPool : public std::enable_shared_from_this<BlockPool> {
 public:
  /// Blocks kept for reuse; more released at once are freed.
  static constexpr size_t kMaxFreeBlocks = 4;

  BlockPool() = default;
  BlockPool(const BlockPool&) = delete;
  BlockPool& operator=(const BlockPool&) = delete;
  /// Frees the kept blocks (blocks still in use are freed when released).
  ~BlockPool();

  /// Returns a block of at least `bytes` bytes (uninitialized, 64-byte
  /// aligned), a kept one when one is large enough. The block goes back to
  /// this pool when the last copy of the pointer is gone, or is freed if
  /// the pool is gone by then; it may be released on any thread. Throws
  /// std::bad_alloc.
  std::shared_ptr<uint8_t> Take(int64_t bytes);

  /// Bytes of the blocks kept now (for tests).
  int64_t FreeBytes();

 private:
  struct Block {
    uint8_t* data = nullptr;
    int64_t size = 0;
  };
  static void Free(Block block);
  void Give(Block block);

  std::mutex mutex_;
  std::vector<Block> free_;
};

}  // namespace rowbridge::decoder
