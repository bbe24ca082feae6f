// ArrayData: a decoded, checked array node that owns (shares) its memory.
#pragma once

#include <cstdint>
#include <memory>
#include <new>
#include <vector>

namespace rowbridge::ipc {

/// A buffer the reader allocated (a decompressed buffer, an aligned copy, the
/// sizes of view buffers): 8-byte aligned, never resized once published.
class OwnedBuffer {
 public:
  /// Allocates `size` bytes (uninitialized). Throws std::bad_alloc.
  explicit OwnedBuffer(int64_t size)
      : words_(new uint64_t[static_cast<size_t>((size + 7) / 8 + 1)]), size_(size) {}
  uint8_t* data() { return reinterpret_cast<uint8_t*>(words_.get()); }
  const uint8_t* data() const { return reinterpret_cast<const uint8_t*>(words_.get()); }
  int64_t size() const { return size_; }

 private:
  std::unique_ptr<uint64_t[]> words_;
  int64_t size_;
};

/// The memory of one message: the input it references and the buffers the
/// reader allocated for it. Shared by every node decoded from the message.
struct MessageMemory {
  std::shared_ptr<const void> input;
  std::vector<std::unique_ptr<OwnedBuffer>> owned;

  /// Allocates a buffer owned by this message. Throws std::bad_alloc.
  OwnedBuffer* Allocate(int64_t size) {
    owned.push_back(std::make_unique<OwnedBuffer>(size));
    return owned.back().get();
  }
};

/// One decoded array node in C Data Interface layout: `buffers` are in the
/// C Data order (for views, the variadic data buffers and then the int64
/// sizes), offset 0. Immutable once built; shared by every exported copy.
struct ArrayData {
  int64_t length = 0;
  int64_t null_count = 0;
  std::vector<const void*> buffers;
  /// Bytes available at each buffer (0 for a null buffer).
  std::vector<int64_t> buffer_sizes;
  std::vector<std::shared_ptr<const ArrayData>> children;
  /// The dictionary of a dictionary-encoded node.
  std::shared_ptr<const ArrayData> dictionary;
  /// Keeps `buffers` alive.
  std::shared_ptr<const MessageMemory> memory;
};

}  // namespace rowbridge::ipc
