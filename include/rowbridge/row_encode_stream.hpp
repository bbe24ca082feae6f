// Rows to Arrow IPC in the background: batches of UnsafeRows submitted by one
// thread are decoded to Arrow (RowDecoder) and encoded as IPC record batch
// messages (IpcBatchEncoder) by the workers of a WorkerPool, at most K
// batches ahead of the thread that writes the messages out, whatever the
// number of cores. Messages come back in submission order; an error of a
// batch comes back after the messages of the batches before it.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "rowbridge/arrow_c_data.h"
#include "rowbridge/export.h"
#include "rowbridge/ipc_writer.hpp"
#include "rowbridge/status.hpp"
#include "rowbridge/stream.hpp"

namespace rowbridge::write {

struct RowEncodeOptions {
  /// The codec of the bodies, and ZSTD's level.
  ipc::IpcWriteOptions ipc;
  /// The layout of the output: Start and Finish bytes differ.
  ipc::IpcFormat format = ipc::IpcFormat::kFile;
  /// K: the most batches submitted and not yet taken (>= 1).
  int32_t max_ahead = 2;
  /// The pool the workers come from; null: WorkerPool::Default().
  std::shared_ptr<stream::WorkerPool> pool;
  /// How often a waiting Next wakes up (and returns, with `*ready` false).
  std::chrono::milliseconds wake_period{100};
  /// When true, the schema has one struct column whose fields are the rows'
  /// fields, and each batch is encoded as that one column (no nulls): the
  /// layout in which PySpark's map and grouped UDFs take a DataFrame.
  bool rows_in_one_column = false;
};

/// Encodes the batches of one output. Submit, Next, Start, Finish and Close
/// are called by one thread at a time; Cancel from any thread.
class ROWBRIDGE_EXPORT RowEncodeStream {
 public:
  struct Impl;

  /// A stream of batches of rows of `schema` (a struct, in the Arrow types
  /// RowDecoder decodes to; borrowed, read now). With
  /// `options.rows_in_one_column`, the rows are those of the schema's one
  /// struct column.
  static Status Make(const ArrowSchema& schema, const RowEncodeOptions& options,
                     std::unique_ptr<RowEncodeStream>* out);

  /// Closes the stream (see Close).
  ~RowEncodeStream();
  RowEncodeStream(const RowEncodeStream&) = delete;
  RowEncodeStream& operator=(const RowEncodeStream&) = delete;

  /// The bytes that open the output (see IpcLayout::Start) into `out`.
  Status Start(std::vector<uint8_t>* out);

  /// Hands over `num_rows` rows (row i spans [data + row_offsets[i], data +
  /// row_offsets[i + 1])) as the next batch. Borrows the rows and offsets
  /// until Next has returned this batch's message, or until Close. Invalid
  /// when K batches already wait to be taken.
  Status Submit(const uint8_t* data, const int64_t* row_offsets, int64_t num_rows);

  /// The message of the oldest batch not taken yet, when it is ready: sets
  /// `*message` (valid until the next call on the stream) and `*ready`. With
  /// `wait`, waits up to one wake period for it; without, returns at once.
  /// `*ready` false: not ready yet, or nothing submitted. A batch's error is
  /// returned here, naming the batch; every later call returns it too.
  Status Next(bool wait, const ipc::IpcMessage** message, bool* ready);

  /// Batches submitted and not yet taken.
  int64_t pending() const;

  /// The bytes that close the output (see IpcLayout::Finish) into `out`.
  /// Invalid while batches are pending.
  Status Finish(std::vector<uint8_t>* out);

  /// Bytes of output placed so far (Start, taken messages, Finish).
  int64_t position() const;

  /// Native bytes the stream holds now (encoded messages waiting, and what
  /// the workers' decoders keep for reuse is not counted).
  int64_t bytes_held() const;

  /// Stops the workers at their next batch boundary; a waiting Next returns
  /// kCancelled. Thread-safe.
  void Cancel();

  /// Cancels, waits for the workers to leave the batches (so the rows are no
  /// longer borrowed) and frees everything. Idempotent.
  void Close();

 private:
  explicit RowEncodeStream(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace rowbridge::write
