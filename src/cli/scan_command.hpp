// `rowbridge scan IN`: the parallel IPC scan behind a bounded prefetch stream.
#pragma once

#include <cstdint>
#include <string>

namespace rowbridge::cli {

struct ScanOptions {
  std::string input;
  /// Threads of the process-wide worker pool; 0: one per hardware thread.
  int32_t workers = 0;
  /// W and K of the stream.
  int32_t in_flight = 2;
  int32_t prefetch = 1;
  /// Convert every batch to UnsafeRows in the workers.
  bool rows = false;
  /// "bounded" (K and W as given) or "per-worker": the baseline that queues
  /// one finished batch per worker (K = W = workers), as a per-core queue does.
  std::string queue = "bounded";
};

/// Reads every batch of `options.input` through a prefetch stream and prints
/// one JSON line: batches, rows, bytes (decoded Arrow body bytes), input
/// bytes, row bytes, seconds, the stream's high-water mark of batches held,
/// and the peaks of anonymous and file-backed resident memory seen between
/// batches. Returns 0, or 1 after one line on stderr.
int RunScanCommand(const ScanOptions& options);

}  // namespace rowbridge::cli
