// OutputBuffer: a growable, 8-byte aligned, uninitialised byte buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>

namespace rowbridge::row {

class OutputBuffer {
 public:
  /// Makes room for `bytes` bytes, keeping the first `keep` bytes; grows by
  /// at least 1.5x so that a slowly growing workload settles. Returns false
  /// when allocation fails.
  bool Reserve(int64_t bytes, int64_t keep) {
    if (bytes <= capacity_) return true;
    int64_t capacity = capacity_ + capacity_ / 2;
    if (capacity < bytes) capacity = bytes;
    size_t words = static_cast<size_t>((capacity + 7) / 8);
    std::unique_ptr<uint64_t[]> storage(new (std::nothrow) uint64_t[words]);
    if (!storage) return false;
    if (keep > 0) std::memcpy(storage.get(), storage_.get(), static_cast<size_t>(keep));
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
