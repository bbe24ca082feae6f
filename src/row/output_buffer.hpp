// OutputBuffer: a growable, 8-byte aligned, uninitialised byte buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>

namespace rowbridge::row {

class OutputBuffer {
 public:
  /// Makes room for `bytes` bytes, keeping nothing; grows by at least 1.5x so
  /// that a slowly growing workload settles. Returns false when allocation fails.
  bool Reserve(int64_t bytes) {
    if (bytes <= capacity_) return true;
    int64_t capacity = capacity_ + capacity_ / 2;
    if (capacity < bytes) capacity = bytes;
    size_t words = static_cast<size_t>((capacity + 7) / 8);
    std::unique_ptr<uint64_t[]> storage(new (std::nothrow) uint64_t[words]);
    if (!storage) return false;
    storage_ = std::move(storage);
    capacity_ = static_cast<int64_t>(words * 8);
    return true;
  }
  uint8_t* data() { return reinterpret_cast<uint8_t*>(storage_.get()); }
  int64_t capacity() const { return capacity_; }

 private:
  std::unique_ptr<uint64_t[]> storage_;
  int64_t capacity_ = 0;
};

}  // namespace rowbridge::row
