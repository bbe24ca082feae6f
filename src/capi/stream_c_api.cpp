// The C API of streams: a shell over the C++ API that lets no exception out.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <new>
#include <string>

#include "capi/converter_options_c.hpp"
#include "rowbridge/ipc_reader.hpp"
#include "rowbridge/ipc_scan.hpp"
#include "rowbridge/stream.h"
#include "rowbridge/stream.hpp"

using rowbridge::Status;
namespace scan = rowbridge::scan;
namespace stream = rowbridge::stream;

struct RowbridgeRowStream {
  std::unique_ptr<stream::RowStream> rows;
  stream::StreamCanceller canceller;
};

namespace {

int Report(const Status& status, RowbridgeError* error) {
  if (!status.ok() && error != nullptr) {
    std::snprintf(error->message, sizeof(error->message), "%s", status.message().c_str());
  }
  return static_cast<int>(status.code());
}

template <typename Body>
int Guard(RowbridgeError* error, Body&& body) noexcept {
  try {
    return Report(body(), error);
  } catch (const std::bad_alloc&) {
    return Report(Status::OutOfMemory("out of memory"), error);
  } catch (const std::exception& e) {
    return Report(Status::Internal(std::string("unexpected exception: ") + e.what()), error);
  } catch (...) {
    return Report(Status::Internal("unexpected non-standard exception"), error);
  }
}

Status ToOptions(const RowbridgeStreamOptions* c, stream::StreamOptions* out) {
  RowbridgeStreamOptions defaults;
  rowbridge_stream_options_init(&defaults);
  if (c == nullptr) c = &defaults;
  out->prefetch = c->prefetch;
  out->in_flight = c->in_flight;
  out->wake_period = std::chrono::milliseconds(c->wake_period_ms);
  if (c->interrupted != nullptr) {
    auto* function = c->interrupted;
    void* context = c->interrupted_context;
    out->interrupted = [function, context] { return function(context) != 0; };
  }
  return Status::Ok();
}

Status ToScanOptions(const RowbridgeScanOptions* c, scan::IpcScanOptions* out) {
  if (c == nullptr) return Status::Ok();
  if (c->num_columns >= 0) {
    if (c->num_columns > 0 && c->columns == nullptr) {
      return Status::Invalid("scan: num_columns is " + std::to_string(c->num_columns) +
                             " but columns is null");
    }
    out->read.select_columns = true;
    out->read.columns.assign(c->columns, c->columns + c->num_columns);
  } else if (c->num_columns != -1) {
    return Status::Invalid("scan: num_columns " + std::to_string(c->num_columns) +
                           " is negative (-1 selects every column)");
  }
  out->first_batch = c->first_batch;
  out->batch_count = c->batch_count;
  out->read.validate_values = c->validate_values != 0;
  return Status::Ok();
}

Status OpenScan(const char* path, const RowbridgeStreamOptions* options,
                const RowbridgeScanOptions* scan_options,
                std::unique_ptr<stream::BatchProducer>* producer, stream::StreamOptions* out) {
  if (path == nullptr) return Status::Invalid("scan: no path (null)");
  ROWBRIDGE_RETURN_NOT_OK(ToOptions(options, out));
  scan::IpcScanOptions scan;
  ROWBRIDGE_RETURN_NOT_OK(ToScanOptions(scan_options, &scan));
  return scan::MakeIpcProducer(path, scan, producer);
}

}  // namespace

extern "C" {

void rowbridge_stream_options_init(RowbridgeStreamOptions* options) {
  if (options == nullptr) return;
  *options = RowbridgeStreamOptions{};
  options->prefetch = 1;
  options->in_flight = 2;
  options->wake_period_ms = 100;
}

void rowbridge_scan_options_init(RowbridgeScanOptions* options) {
  if (options == nullptr) return;
  *options = RowbridgeScanOptions{};
  options->num_columns = -1;
  options->batch_count = -1;
  options->validate_values = 1;
}

int rowbridge_ipc_file_info(const char* path, struct ArrowSchema* schema, RowbridgeIpcFileInfo* out,
                            RowbridgeError* error) {
  return Guard(error, [&] {
    if (path == nullptr || out == nullptr) return Status::Invalid("file info: null argument");
    *out = RowbridgeIpcFileInfo{};
    std::unique_ptr<rowbridge::ipc::IpcReader> reader;
    ROWBRIDGE_RETURN_NOT_OK(
        rowbridge::ipc::IpcReader::Open(path, rowbridge::ipc::IpcReadOptions(), &reader));
    rowbridge::ipc::IpcFileInfo info;
    ROWBRIDGE_RETURN_NOT_OK(reader->Inspect(&info));
    std::unique_ptr<RowbridgeIpcBatchInfo[]> batches(
        new RowbridgeIpcBatchInfo[std::max<size_t>(info.batches.size(), 1)]);
    for (size_t i = 0; i < info.batches.size(); ++i) {
      batches[i].num_rows = info.batches[i].num_rows;
      batches[i].body_bytes = info.batches[i].body_bytes;
      batches[i].uncompressed_body_bytes = info.batches[i].uncompressed_body_bytes;
    }
    if (schema != nullptr) ROWBRIDGE_RETURN_NOT_OK(reader->ExportSchema(schema));
    out->format = static_cast<int32_t>(info.format);
    out->input_bytes = info.input_bytes;
    out->num_batches = info.num_record_batches;
    out->batches = batches.release();
    return Status::Ok();
  });
}

void rowbridge_ipc_file_info_free(RowbridgeIpcFileInfo* info) {
  if (info == nullptr) return;
  delete[] info->batches;
  *info = RowbridgeIpcFileInfo{};
}

int rowbridge_worker_pool_init(int32_t threads, RowbridgeError* error) {
  return Guard(error, [&] { return stream::WorkerPool::InitDefault(threads); });
}

int rowbridge_scan_ipc(const char* path, const RowbridgeStreamOptions* options,
                       const RowbridgeScanOptions* scan_options, struct ArrowArrayStream* out,
                       RowbridgeError* error) {
  return Guard(error, [&] {
    if (out == nullptr) return Status::Invalid("scan: null output");
    std::unique_ptr<stream::BatchProducer> producer;
    stream::StreamOptions stream_options;
    ROWBRIDGE_RETURN_NOT_OK(OpenScan(path, options, scan_options, &producer, &stream_options));
    std::unique_ptr<stream::PrefetchStream> prefetch;
    ROWBRIDGE_RETURN_NOT_OK(
        stream::PrefetchStream::Make(std::move(producer), stream_options, &prefetch));
    return stream::ExportArrayStream(std::move(prefetch), out);
  });
}

int rowbridge_prefetch_array_stream(struct ArrowArrayStream* source,
                                    const RowbridgeStreamOptions* options,
                                    struct ArrowArrayStream* out, RowbridgeError* error) {
  return Guard(error, [&] {
    if (out == nullptr) {
      if (source != nullptr && source->release != nullptr) source->release(source);
      return Status::Invalid("prefetch: null output");
    }
    std::unique_ptr<stream::BatchProducer> producer;
    ROWBRIDGE_RETURN_NOT_OK(stream::MakeArrayStreamProducer(source, &producer));
    stream::StreamOptions stream_options;
    ROWBRIDGE_RETURN_NOT_OK(ToOptions(options, &stream_options));
    std::unique_ptr<stream::PrefetchStream> prefetch;
    ROWBRIDGE_RETURN_NOT_OK(
        stream::PrefetchStream::Make(std::move(producer), stream_options, &prefetch));
    return stream::ExportArrayStream(std::move(prefetch), out);
  });
}

int rowbridge_array_stream_cancel(struct ArrowArrayStream* stream_in) {
  try {
    stream::StreamCanceller canceller;
    if (!stream::ArrayStreamCanceller(stream_in, &canceller).ok()) return ROWBRIDGE_EINVAL;
    canceller.Cancel();
    return ROWBRIDGE_OK;
  } catch (...) {
    return ROWBRIDGE_EIO;
  }
}

int rowbridge_row_stream_scan_ipc(const char* path, const RowbridgeStreamOptions* options,
                                  const RowbridgeScanOptions* scan_options,
                                  const RowbridgeConverterOptions* converter_options,
                                  RowbridgeRowStream** out, RowbridgeError* error) {
  return Guard(error, [&] {
    if (out == nullptr) return Status::Invalid("row stream: null output");
    std::unique_ptr<stream::BatchProducer> producer;
    stream::StreamOptions stream_options;
    ROWBRIDGE_RETURN_NOT_OK(OpenScan(path, options, scan_options, &producer, &stream_options));
    rowbridge::ConverterOptions convert;
    ROWBRIDGE_RETURN_NOT_OK(rowbridge::capi::ToConverterOptions(converter_options, &convert));
    auto handle = std::make_unique<RowbridgeRowStream>();
    ROWBRIDGE_RETURN_NOT_OK(
        stream::RowStream::Make(std::move(producer), stream_options, convert, &handle->rows));
    handle->canceller = handle->rows->canceller();
    *out = handle.release();
    return Status::Ok();
  });
}

int rowbridge_row_stream_next(RowbridgeRowStream* stream_in, RowbridgeRowBatch* out,
                              int* end_of_stream, RowbridgeError* error) {
  return Guard(error, [&] {
    if (stream_in == nullptr || out == nullptr || end_of_stream == nullptr) {
      return Status::Invalid("row stream next: null argument");
    }
    stream::RowBatch batch;
    bool end = false;
    *out = RowbridgeRowBatch{};
    ROWBRIDGE_RETURN_NOT_OK(stream_in->rows->Next(&batch, &end));
    *end_of_stream = end ? 1 : 0;
    if (!end) rowbridge::capi::ToRowBatch(batch.rows, out);
    return Status::Ok();
  });
}

int rowbridge_row_stream_next_chunk(RowbridgeRowStream* stream_in, RowbridgeRowBatch* out,
                                    RowbridgeError* error) {
  return Guard(error, [&] {
    if (stream_in == nullptr || out == nullptr) {
      return Status::Invalid("row stream next_chunk: null argument");
    }
    rowbridge::RowBatchView view;
    *out = RowbridgeRowBatch{};
    ROWBRIDGE_RETURN_NOT_OK(stream_in->rows->NextChunk(&view));
    rowbridge::capi::ToRowBatch(view, out);
    return Status::Ok();
  });
}

void rowbridge_row_stream_cancel(RowbridgeRowStream* stream_in) {
  if (stream_in == nullptr) return;
  try {
    stream_in->canceller.Cancel();
  } catch (...) {
    // Cancel throws nothing; nothing may escape a C function anyway.
  }
}

int64_t rowbridge_row_stream_bytes_held(const RowbridgeRowStream* stream_in) {
  return stream_in == nullptr ? 0 : stream_in->rows->bytes_held();  // an atomic read: no throw
}

void rowbridge_row_stream_free(RowbridgeRowStream* stream_in) { delete stream_in; }

}  // extern "C"
