// Producers over an IpcReader already open, for inputs the caller brought
// into memory itself (see filled_input.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "rowbridge/ipc_reader.hpp"
#include "rowbridge/ipc_scan.hpp"
#include "rowbridge/stream.hpp"

namespace rowbridge::scan {

/// Called on the worker with each record batch a file-format producer read
/// (its index in the file) before the stream takes it; may wrap the array.
/// An error fails the batch (and `array` is then released by the stream).
using ProducedBatchHook = std::function<Status(int64_t batch, ArrowArray* array)>;

/// The producer of MakeIpcProducer(path, ...) over `reader` (ownership taken,
/// also on failure), which reads only the batches of `options`' range;
/// `options.read` is ignored (the reader's own options apply). `hook` (may be
/// empty) applies to the file format only.
Status MakeIpcProducer(std::unique_ptr<ipc::IpcReader> reader, const IpcScanOptions& options,
                       ProducedBatchHook hook, std::unique_ptr<stream::BatchProducer>* out);

}  // namespace rowbridge::scan
