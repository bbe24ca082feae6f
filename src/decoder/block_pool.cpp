#include "decoder/block_pool.hpp"

#include <new>

namespace rowbridge::decoder {

void BlockPool::Free(Block block) { ::operator delete (block.data, std::align_val_t{64}); }

BlockPool::~BlockPool() {
  for (const Block& block : free_) Free(block);
}

std::shared_ptr<uint8_t> BlockPool::Take(int64_t bytes) {
  Block block;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    // The smallest kept block that fits.
    size_t best = free_.size();
    for (size_t i = 0; i < free_.size(); ++i) {
      if (free_[i].size >= bytes && (best == free_.size() || free_[i].size < free_[best].size))
        best = i;
    }
    if (best < free_.size()) {
      block = free_[best];
      free_.erase(free_.begin() + static_cast<std::ptrdiff_t>(best));
    }
  }
  if (block.data == nullptr) {
    const int64_t size = bytes > 64 ? bytes : 64;
    block.data =
        static_cast<uint8_t*>(::operator new (static_cast<size_t>(size), std::align_val_t{64}));
    block.size = size;
  }
  std::weak_ptr<BlockPool> pool = weak_from_this();
  try {
    return std::shared_ptr<uint8_t>(block.data, [pool, block](uint8_t*) {
      if (std::shared_ptr<BlockPool> owner = pool.lock()) {
        owner->Give(block);
      } else {
        Free(block);
      }
    });
  } catch (...) {
    Free(block);
    throw;
  }
}

void BlockPool::Give(Block block) {
  Block evicted;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (free_.size() < kMaxFreeBlocks) {
      free_.push_back(block);
      return;
    }
    // Keep the larger blocks: the next batches are as large as the last ones.
    size_t smallest = 0;
    for (size_t i = 1; i < free_.size(); ++i) {
      if (free_[i].size < free_[smallest].size) smallest = i;
    }
    if (free_[smallest].size < block.size) {
      evicted = free_[smallest];
      free_[smallest] = block;
    } else {
      evicted = block;
    }
  }
  Free(evicted);
}

int64_t BlockPool::FreeBytes() {
  std::lock_guard<std::mutex> lock(mutex_);
  int64_t bytes = 0;
  for (const Block& block : free_) bytes += block.size;
  return bytes;
}

}  // namespace rowbridge::decoder
