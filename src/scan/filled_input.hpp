// Inputs fetched by the caller: an Arrow IPC file whose bytes another party
// (the JVM, reading through Hadoop's FileSystem) writes into an image of the
// file, range by range, while a gated stream (StreamOptions::ready_batches)
// decodes the batches already there.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "rowbridge/ipc_reader.hpp"
#include "rowbridge/ipc_scan.hpp"
#include "rowbridge/stream.hpp"

namespace rowbridge::scan {

/// The bytes of a file as they arrive: address space for the whole file,
/// committed page by page as ranges are written into it (an anonymous private
/// mapping reserved without swap). Unwritten bytes read as zeros. Shared by
/// the readers and the arrays that point into it; unmapped with the last.
class FilledImage {
 public:
  /// Reserves `size` (> 0) bytes. On success `*out` owns the image.
  static Status Make(int64_t size, std::shared_ptr<FilledImage>* out);
  ~FilledImage();
  FilledImage(const FilledImage&) = delete;
  FilledImage& operator=(const FilledImage&) = delete;

  /// Where the caller writes: [data(), data() + size()).
  uint8_t* data() const { return data_; }
  int64_t size() const { return size_; }

  /// Records that `bytes` were written for record batch `batch` (-1: the
  /// footer, the file's head, dictionaries). They count in resident_bytes
  /// until the batch is discarded, or the image destroyed. Thread-safe.
  void NoteFilled(int64_t batch, int64_t bytes);

  /// Gives the whole pages inside [offset, offset + length) back to the
  /// operating system (they read as zeros afterwards) and takes the bytes
  /// noted for `batch` off resident_bytes. Thread-safe.
  void Discard(int64_t batch, int64_t offset, int64_t length);

  /// Bytes written and not yet discarded.
  int64_t resident_bytes() const { return resident_.load(std::memory_order_relaxed); }

 private:
  FilledImage(uint8_t* data, int64_t size) : data_(data), size_(size) {}

  uint8_t* data_;
  int64_t size_;
  std::mutex mutex_;
  std::unordered_map<int64_t, int64_t> filled_;  // batch -> bytes noted
  std::atomic<int64_t> resident_{0};
};

/// Opens a reader over `image` (borrowed; the reader shares it), named
/// `name` in errors. A file needs its first 8 bytes and its footer written
/// first; a stream, all of it.
Status OpenFilledReader(const std::shared_ptr<FilledImage>& image, const std::string& name,
                        const ipc::IpcReadOptions& options, std::unique_ptr<ipc::IpcReader>* out);

/// A producer of the record batches of `options`' range (options.read is
/// ignored) over clones of `reader` (borrowed). Each batch's block is
/// discarded from the image once its array is released. The stream must be
/// gated (a file) so that no batch is produced before its bytes are written.
Status MakeFilledProducer(const std::shared_ptr<FilledImage>& image, const ipc::IpcReader& reader,
                          const IpcScanOptions& options,
                          std::unique_ptr<stream::BatchProducer>* out);

}  // namespace rowbridge::scan
