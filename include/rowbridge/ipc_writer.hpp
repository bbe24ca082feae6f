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

#include "rowbridge/arrow_c_data.h"
#include "rowbridge/export.h"
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
