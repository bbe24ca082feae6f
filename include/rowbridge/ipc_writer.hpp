// The Arrow IPC file writer: record batches given as Arrow C Data struct
// arrays, written as an Arrow IPC file (magic, schema message, record batch
// messages, footer, magic) that Arrow's own readers read, with bodies
// uncompressed or compressed buffer by buffer with LZ4_FRAME or ZSTD.
//
// Types: null, bool, integers, floats, decimals, dates, times, timestamps,
// durations, intervals, (large) utf8 and binary, fixed-size binary, struct,
// (large and fixed-size) list and map: everything RowDecoder makes. Views,
// list views, run-end and dictionary encodings, unions and arrays with a
// non-zero offset are refused with NotSupported naming the field. The writer
// never prints, never aborts and never throws.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "rowbridge/arrow_c_data.h"
#include "rowbridge/export.h"
#include "rowbridge/ipc_format.hpp"
#include "rowbridge/status.hpp"

namespace rowbridge::ipc {

/// How bodies are compressed.
enum class IpcCodec : int32_t { kNone = 0, kLz4Frame = 1, kZstd = 2 };

struct IpcWriteOptions {
  IpcCodec codec = IpcCodec::kNone;
  /// ZSTD's level (LZ4_FRAME has none here).
  int32_t zstd_level = 1;
};

/// Where the bytes go: called in order with each piece of the file, then once
/// with (nullptr, 0) when the file is complete. An error fails the call that
/// wrote.
using IpcSink = std::function<Status(const uint8_t* data, int64_t size)>;

/// One encapsulated IPC message as both IPC formats store it: `metadata`
/// then `body`, written one after the other.
struct IpcMessage {
  /// The continuation marker, the metadata length and the Message
  /// flatbuffer (padded to 8).
  std::vector<uint8_t> metadata;
  /// The buffers, each padded to 8 (compressed when asked); empty for a
  /// schema message.
  std::vector<uint8_t> body;
  int64_t size() const { return static_cast<int64_t>(metadata.size() + body.size()); }
};

/// Encodes the messages of one schema apart from any output, so that
/// several threads, each with its own encoder (Clone), can encode the
/// batches of one file at once. Used by one thread at a time.
class ROWBRIDGE_EXPORT IpcBatchEncoder {
 public:
  struct Impl;

  /// An encoder of batches of `schema` (a struct; borrowed, read now).
  /// Types the writer does not write are NotSupported naming the field.
  static Status Make(const ArrowSchema& schema, const IpcWriteOptions& options,
                     std::unique_ptr<IpcBatchEncoder>* out);

  ~IpcBatchEncoder();
  IpcBatchEncoder(const IpcBatchEncoder&) = delete;
  IpcBatchEncoder& operator=(const IpcBatchEncoder&) = delete;

  /// Another encoder of the same schema and options, sharing nothing.
  Status Clone(std::unique_ptr<IpcBatchEncoder>* out) const;

  /// The schema message into `out` (overwritten).
  Status EncodeSchema(IpcMessage* out) const;

  /// `batch` (borrowed: a struct array of the schema's columns, no offset)
  /// as a record batch message into `out` (overwritten; the body is
  /// assembled in place of out's old one, whose capacity the encoder keeps
  /// for the next batch). Errors name the field.
  Status EncodeBatch(const ArrowArray& batch, IpcMessage* out);

 private:
  friend class IpcLayout;  // the footer repeats the schema
  explicit IpcBatchEncoder(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// Places encoded messages in one output, in order: Start's bytes, then each
/// batch message (after Add notes its place), then Finish's bytes. Keeps the
/// places of the batches for a file's footer. Used by one thread at a time.
class ROWBRIDGE_EXPORT IpcLayout {
 public:
  explicit IpcLayout(IpcFormat format) : format_(format) {}

  /// The bytes that open the output (file: the magic, padded to 8; then the
  /// schema message), into `out` (overwritten).
  Status Start(const IpcBatchEncoder& encoder, std::vector<uint8_t>* out);

  /// Notes that `message` is written next, at position().
  Status Add(const IpcMessage& message);

  /// The bytes that close the output (file: footer, its size and the magic;
  /// stream: the end-of-stream marker), into `out` (overwritten).
  Status Finish(const IpcBatchEncoder& encoder, std::vector<uint8_t>* out);

  /// Bytes of output placed so far.
  int64_t position() const { return position_; }

 private:
  struct Block {
    int64_t offset;
    int32_t metadata_length;
    int32_t padding;
    int64_t body_length;
  };
  IpcFormat format_;
  int64_t position_ = 0;
  std::vector<Block> blocks_;
};

/// Writes one Arrow IPC file. Used by one thread at a time.
class ROWBRIDGE_EXPORT IpcFileWriter {
 public:
  struct Impl;

  /// Starts a file of batches of `schema` (a struct; borrowed, read now):
  /// writes the magic and the schema message to `sink`.
  static Status Open(IpcSink sink, const ArrowSchema& schema, const IpcWriteOptions& options,
                     std::unique_ptr<IpcFileWriter>* out);

  /// Opens the file at `path` (created or truncated) as the sink.
  static Status Open(const std::string& path, const ArrowSchema& schema,
                     const IpcWriteOptions& options, std::unique_ptr<IpcFileWriter>* out);

  ~IpcFileWriter();
  IpcFileWriter(const IpcFileWriter&) = delete;
  IpcFileWriter& operator=(const IpcFileWriter&) = delete;

  /// Writes `batch` (borrowed: a struct array of the schema's columns) as a
  /// record batch. After an error the writer refuses further calls.
  Status Write(const ArrowArray& batch);

  /// Writes the footer and closes the sink. Idempotent; required for a
  /// readable file.
  Status Close();

  /// Bytes written so far.
  int64_t bytes_written() const;

 private:
  explicit IpcFileWriter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace rowbridge::ipc
