// `rowbridge scan`: drains a prefetch stream over an IPC input and reports.
#include "cli/scan_command.hpp"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "cli/convert_command.hpp"
#include "rowbridge/ipc_reader.hpp"
#include "rowbridge/ipc_scan.hpp"
#include "rowbridge/stream.hpp"

namespace rowbridge::cli {
namespace {

/// Peaks of resident memory, in kB, from /proc/self/status.
struct MemoryPeaks {
  int64_t anon_kb = 0;
  int64_t file_kb = 0;
  int64_t total_kb = 0;

  void Sample() {
    std::ifstream in("/proc/self/status");
    std::string line;
    int64_t anon = 0;
    int64_t file = 0;
    int64_t shmem = 0;
    while (std::getline(in, line)) {
      if (line.rfind("RssAnon:", 0) == 0) anon = std::stoll(line.substr(8));
      if (line.rfind("RssFile:", 0) == 0) file = std::stoll(line.substr(8));
      if (line.rfind("RssShmem:", 0) == 0) shmem = std::stoll(line.substr(9));
    }
    anon_kb = std::max(anon_kb, anon);
    file_kb = std::max(file_kb, file);
    total_kb = std::max(total_kb, anon + file + shmem);
  }
};

struct Totals {
  int64_t batches = 0;
  int64_t rows = 0;
  int64_t row_bytes = 0;
};

/// Decoded body bytes and input bytes, from the input's metadata.
Status InputSizes(const std::string& path, int64_t* body_bytes, int64_t* input_bytes) {
  std::unique_ptr<ipc::IpcReader> reader;
  ROWBRIDGE_RETURN_NOT_OK(ipc::IpcReader::Open(path, ipc::IpcReadOptions(), &reader));
  ipc::IpcFileInfo info;
  ROWBRIDGE_RETURN_NOT_OK(reader->Inspect(&info));
  *input_bytes = info.input_bytes;
  *body_bytes = 0;
  for (const ipc::IpcBatchInfo& batch : info.batches) *body_bytes += batch.uncompressed_body_bytes;
  return Status::Ok();
}

Status DrainColumns(std::unique_ptr<stream::BatchProducer> producer,
                    const stream::StreamOptions& options, Totals* totals, MemoryPeaks* memory,
                    stream::StreamStats* stats) {
  std::unique_ptr<stream::PrefetchStream> scan;
  ROWBRIDGE_RETURN_NOT_OK(stream::PrefetchStream::Make(std::move(producer), options, &scan));
  for (;;) {
    ArrowArray batch{};
    bool end = false;
    ROWBRIDGE_RETURN_NOT_OK(scan->Next(&batch, &end));
    if (end) break;
    memory->Sample();  // the batch is still held: the stream's fullest moment
    ++totals->batches;
    totals->rows += batch.length;
    batch.release(&batch);
  }
  *stats = scan->stats();
  return Status::Ok();
}

Status DrainRows(std::unique_ptr<stream::BatchProducer> producer,
                 const stream::StreamOptions& options, Totals* totals, MemoryPeaks* memory,
                 stream::StreamStats* stats) {
  std::unique_ptr<stream::RowStream> scan;
  ROWBRIDGE_RETURN_NOT_OK(
      stream::RowStream::Make(std::move(producer), options, ConverterOptions(), &scan));
  for (;;) {
    stream::RowBatch batch;
    bool end = false;
    ROWBRIDGE_RETURN_NOT_OK(scan->Next(&batch, &end));
    if (end) break;
    memory->Sample();
    ++totals->batches;
    RowBatchView chunk = batch.rows;
    while (chunk.num_rows > 0) {
      totals->rows += chunk.num_rows;
      totals->row_bytes += chunk.data_size;
      ROWBRIDGE_RETURN_NOT_OK(scan->NextChunk(&chunk));
    }
  }
  *stats = scan->stats();
  return Status::Ok();
}

}  // namespace

int RunScanCommand(const ScanOptions& options) {
  const char* command = "scan";
#if defined(__GLIBC__)
  if (!options.malloc_defaults) {
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 128 << 20);
  }
#endif
  if (options.queue != "bounded" && options.queue != "per-worker") {
    return ReportFailure(
        command, Status::Invalid("--queue must be bounded or per-worker, not " + options.queue));
  }
  Status status =
      options.workers > 0 ? stream::WorkerPool::InitDefault(options.workers) : Status::Ok();
  std::shared_ptr<stream::WorkerPool> pool;
  if (status.ok()) status = stream::WorkerPool::Default(&pool);
  if (!status.ok()) return ReportFailure(command, status);

  stream::StreamOptions stream_options;
  stream_options.pool = pool;
  stream_options.prefetch = options.prefetch;
  stream_options.in_flight = options.in_flight;
  if (options.queue == "per-worker") {
    stream_options.prefetch = pool->size();
    stream_options.in_flight = pool->size();
  }

  int64_t body_bytes = 0;
  int64_t input_bytes = 0;
  status = InputSizes(options.input, &body_bytes, &input_bytes);
  if (!status.ok()) return ReportFailure(command, status);

  MemoryPeaks memory;
  Totals totals;
  stream::StreamStats stats;
  auto start = std::chrono::steady_clock::now();
  std::unique_ptr<stream::BatchProducer> producer;
  status = scan::MakeIpcProducer(options.input, ipc::IpcReadOptions(), &producer);
  if (status.ok()) {
    status = options.rows
                 ? DrainRows(std::move(producer), stream_options, &totals, &memory, &stats)
                 : DrainColumns(std::move(producer), stream_options, &totals, &memory, &stats);
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!status.ok()) return ReportFailure(command, status);

  std::printf(
      "{\"batches\": %lld, \"rows\": %lld, \"bytes\": %lld, \"seconds\": %.6f, "
      "\"max_batches_held\": %lld, \"input_bytes\": %lld, \"row_bytes\": %lld, "
      "\"workers\": %d, \"in_flight\": %d, \"prefetch\": %d, \"queue\": \"%s\", "
      "\"rows_mode\": %s, \"malloc_defaults\": %s, \"rss_anon_peak_kb\": %lld, "
      "\"rss_file_peak_kb\": %lld, \"rss_peak_kb\": %lld}\n",
      static_cast<long long>(totals.batches), static_cast<long long>(totals.rows),
      static_cast<long long>(body_bytes), seconds, static_cast<long long>(stats.max_batches_held),
      static_cast<long long>(input_bytes), static_cast<long long>(totals.row_bytes), pool->size(),
      stream_options.in_flight, stream_options.prefetch, options.queue.c_str(),
      options.rows ? "true" : "false", options.malloc_defaults ? "true" : "false",
      static_cast<long long>(memory.anon_kb), static_cast<long long>(memory.file_kb),
      static_cast<long long>(memory.total_kb));
  return 0;
}

}  // namespace rowbridge::cli
