#include "ipc/decompressor.hpp"

#include <lz4frame.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <string>

namespace rowbridge::ipc {

const char* CodecName(Codec codec) {
  switch (codec) {
    case Codec::kNone: return "none";
    case Codec::kLz4Frame: return "lz4_frame";
    case Codec::kZstd: return "zstd";
  }
  return "unknown";
}

struct Decompressor::Contexts {
  LZ4F_dctx* lz4 = nullptr;
  ZSTD_DCtx* zstd = nullptr;
  ~Contexts() {
    if (lz4 != nullptr) LZ4F_freeDecompressionContext(lz4);
    if (zstd != nullptr) ZSTD_freeDCtx(zstd);
  }
};

Decompressor::Decompressor() : contexts_(std::make_unique<Contexts>()) {}
Decompressor::~Decompressor() = default;

namespace {

/// An output buffer that grows (by doubling, up to `limit`) as output is
/// produced.
class GrowingOutput {
 public:
  GrowingOutput(int64_t initial, int64_t limit)
      : buffer_(std::make_unique<OwnedBuffer>(initial)), limit_(limit) {}

  uint8_t* cursor() { return buffer_->data() + used_; }
  int64_t room() const { return buffer_->size() - used_; }
  int64_t used() const { return used_; }
  void Advance(int64_t bytes) { used_ += bytes; }

  /// Grows the buffer; false when it already holds `limit` bytes.
  bool Grow() {
    if (buffer_->size() >= limit_) return false;
    int64_t size = std::min(limit_, std::max<int64_t>(buffer_->size() * 2, 4096));
    auto bigger = std::make_unique<OwnedBuffer>(size);
    if (used_ > 0) std::memcpy(bigger->data(), buffer_->data(), static_cast<size_t>(used_));
    buffer_ = std::move(bigger);
    return true;
  }

  std::unique_ptr<OwnedBuffer> Take() { return std::move(buffer_); }

 private:
  std::unique_ptr<OwnedBuffer> buffer_;
  int64_t used_ = 0;
  int64_t limit_;
};

Status TooLarge(const char* codec, int64_t expected) {
  return Status::Invalid(std::string(codec) + " data decompresses to more than the " +
                         std::to_string(expected) + " bytes its length prefix claims");
}

/// Makes room for output when the buffer is full (up to the claimed size).
void EnsureRoom(GrowingOutput* output) {
  if (output->room() == 0) output->Grow();
}

/// The error for a decoder that made no progress.
Status Stalled(const char* codec, const GrowingOutput& output, int64_t expected) {
  if (output.room() == 0) return TooLarge(codec, expected);
  return Status::Invalid(std::string("truncated ") + codec +
                         " frame: the data ends inside a frame");
}

Status Lz4Frames(LZ4F_dctx* context, const uint8_t* src, int64_t size, int64_t expected,
                 GrowingOutput* output) {
  LZ4F_resetDecompressionContext(context);
  int64_t consumed = 0;
  size_t hint = 1;
  // Feed all the input, then call again without input until the frame ends.
  while (consumed < size || hint != 0) {
    EnsureRoom(output);
    size_t out_size = static_cast<size_t>(output->room());
    size_t in_size = static_cast<size_t>(size - consumed);
    hint = LZ4F_decompress(context, output->cursor(), &out_size, src + consumed, &in_size, nullptr);
    if (LZ4F_isError(hint)) {
      LZ4F_resetDecompressionContext(context);
      return Status::Invalid(std::string("corrupt LZ4 frame: ") + LZ4F_getErrorName(hint));
    }
    output->Advance(static_cast<int64_t>(out_size));
    consumed += static_cast<int64_t>(in_size);
    if (in_size == 0 && out_size == 0) {
      LZ4F_resetDecompressionContext(context);
      return Stalled("LZ4", *output, expected);
    }
  }
  return Status::Ok();
}

Status ZstdFrames(ZSTD_DCtx* context, const uint8_t* src, int64_t size, int64_t expected,
                  GrowingOutput* output) {
  ZSTD_DCtx_reset(context, ZSTD_reset_session_only);
  ZSTD_inBuffer input{src, static_cast<size_t>(size), 0};
  size_t result = 1;
  // result is 0 once a frame is complete and flushed.
  while (input.pos < input.size || result != 0) {
    EnsureRoom(output);
    ZSTD_outBuffer out{output->cursor(), static_cast<size_t>(output->room()), 0};
    size_t before = input.pos;
    result = ZSTD_decompressStream(context, &out, &input);
    if (ZSTD_isError(result)) {
      return Status::Invalid(std::string("corrupt ZSTD frame: ") + ZSTD_getErrorName(result));
    }
    output->Advance(static_cast<int64_t>(out.pos));
    if (out.pos == 0 && input.pos == before) return Stalled("ZSTD", *output, expected);
  }
  return Status::Ok();
}

}  // namespace

Status Decompressor::Decompress(Codec codec, const uint8_t* src, int64_t size, int64_t expected,
                                MessageMemory* memory, const OwnedBuffer** out) {
  if (size == 0) {
    if (expected != 0) return Status::Invalid("compressed buffer holds no data");
    *out = memory->Allocate(0);
    return Status::Ok();
  }
  // Start from what the input could plausibly yield and grow as output comes.
  int64_t initial = std::min(expected, std::max<int64_t>(size * 16, 64 << 10));
  GrowingOutput output(initial, expected);
  if (codec == Codec::kLz4Frame) {
    if (contexts_->lz4 == nullptr &&
        LZ4F_isError(LZ4F_createDecompressionContext(&contexts_->lz4, LZ4F_VERSION))) {
      contexts_->lz4 = nullptr;
      return Status::OutOfMemory("cannot create an LZ4 decompression context");
    }
    ROWBRIDGE_RETURN_NOT_OK(Lz4Frames(contexts_->lz4, src, size, expected, &output));
  } else if (codec == Codec::kZstd) {
    if (contexts_->zstd == nullptr) contexts_->zstd = ZSTD_createDCtx();
    if (contexts_->zstd == nullptr) {
      return Status::OutOfMemory("cannot create a ZSTD decompression context");
    }
    ROWBRIDGE_RETURN_NOT_OK(ZstdFrames(contexts_->zstd, src, size, expected, &output));
  } else {
    return Status::Invalid("unknown compression codec " + std::to_string(static_cast<int>(codec)));
  }
  if (output.used() != expected) {
    return Status::Invalid(std::string(codec == Codec::kZstd ? "ZSTD" : "LZ4") +
                           " data decompresses to " + std::to_string(output.used()) +
                           " bytes, its length prefix claims " + std::to_string(expected));
  }
  std::unique_ptr<OwnedBuffer> buffer = output.Take();
  memory->owned.push_back(std::move(buffer));
  *out = memory->owned.back().get();
  return Status::Ok();
}

}  // namespace rowbridge::ipc
