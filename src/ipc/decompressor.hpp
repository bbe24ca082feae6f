// Decompression of IPC body buffers (LZ4 frame and Zstandard).
#pragma once

#include <cstdint>
#include <memory>

#include "ipc/array_data.hpp"
#include "rowbridge/status.hpp"

namespace rowbridge::ipc {

/// BodyCompression.codec values.
enum class Codec : int8_t { kNone = -1, kLz4Frame = 0, kZstd = 1 };

const char* CodecName(Codec codec);

/// Decompresses buffers, reusing its codec contexts. Used by one thread at a
/// time.
class Decompressor {
 public:
  Decompressor();
  ~Decompressor();
  Decompressor(const Decompressor&) = delete;
  Decompressor& operator=(const Decompressor&) = delete;

  /// Decompresses `size` bytes at `src` (one or more complete frames of
  /// `codec`) that must yield exactly `expected` bytes, into a buffer
  /// allocated in `memory`. Memory is allocated as output is produced (never
  /// `expected` bytes up front for a small input), so a lying `expected`
  /// costs nothing. Throws std::bad_alloc.
  Status Decompress(Codec codec, const uint8_t* src, int64_t size, int64_t expected,
                    MessageMemory* memory, const OwnedBuffer** out);

 private:
  struct Contexts;
  std::unique_ptr<Contexts> contexts_;
};

}  // namespace rowbridge::ipc
