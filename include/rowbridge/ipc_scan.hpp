// The IPC scan: producers of record batches read from an Arrow IPC file or
// stream, for the bounded streams of stream.hpp. The producers own their
// readers and the file's mapping; the stream that takes a producer owns it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "rowbridge/export.h"
#include "rowbridge/ipc_reader.hpp"
#include "rowbridge/status.hpp"
#include "rowbridge/stream.hpp"

namespace rowbridge::scan {

/// What an IPC scan reads.
struct IpcScanOptions {
  /// Limits, value checks and the column selection (IpcReadOptions::columns:
  /// top-level column indices; the other columns are not decoded).
  ipc::IpcReadOptions read;
  /// The record batches [first_batch, first_batch + batch_count) of the
  /// input; batch_count -1: to the end. A range reaching past the last batch
  /// is an error (an empty range is not). For the stream format, the batches
  /// before the range are read and dropped.
  int64_t first_batch = 0;
  int64_t batch_count = -1;
};

/// A producer over an Arrow IPC input (CONTRACTS.md §4): for the file format, batches
/// are decoded (decompressed) in parallel by index, each concurrent call with
/// its own reader (IpcReader::Clone) over one shared mapping of the file; a
/// stream-format input is read in order. Batch i of the producer is batch
/// first_batch + i of the input. Reports each batch's stored body bytes as
/// its input bytes. Errors name the input and the batch.
ROWBRIDGE_EXPORT Status MakeIpcProducer(const std::string& path, const IpcScanOptions& options,
                                        std::unique_ptr<stream::BatchProducer>* out);
/// The same over every batch and column.
ROWBRIDGE_EXPORT Status MakeIpcProducer(const std::string& path, const ipc::IpcReadOptions& options,
                                        std::unique_ptr<stream::BatchProducer>* out);

}  // namespace rowbridge::scan
