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
  /// Leave glibc's malloc thresholds alone (see RunScanCommand).
  bool malloc_defaults = false;
};

/// Reads every batch of `options.input` through a prefetch stream and prints
/// one JSON line: batches, rows, bytes (decoded Arrow body bytes), input
/// bytes, row bytes, seconds, the stream's high-water mark of batches held,
/// and the peaks of anonymous and file-backed resident memory seen between
/// batches. Unless `malloc_defaults`, first fixes glibc's mmap and trim
/// thresholds (64 and 128 MiB): with its dynamic defaults, the megabyte-sized
/// buffers the reader decodes into are returned to the system and faulted in
/// again for every batch, and the page faults and munmaps of two workers
/// serialize on the process's memory map lock. Returns 0, or 1 after one line
/// on stderr.
int RunScanCommand(const ScanOptions& options);

}  // namespace rowbridge::cli
