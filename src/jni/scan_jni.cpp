// The entry points of io.rowbridge.scan.ScanNative: scans of Arrow IPC inputs
// behind prefetch streams, as Arrow C Data arrays (which Java imports with
// arrow-c-data) or as rows converted by the stream's workers. Primitives
// only: strings and index lists arrive in native memory Java wrote, results
// are read by Java at fixed offsets.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io_rowbridge_scan_ScanNative.h"
#include "jni/scan_handle.hpp"
#include "rowbridge/ipc_reader.hpp"
#include "rowbridge/rowbridge.h"
#include "rowbridge/stream.hpp"

namespace rowbridge::jni {

std::unique_ptr<Scan> MakeScan(std::unique_ptr<stream::BatchProducer> producer,
                               const ScanRequest& request) {
  auto handle = std::make_unique<Scan>();
  if (request.rows) {
    if (request.validation != ROWBRIDGE_VALIDATION_CHEAP &&
        request.validation != ROWBRIDGE_VALIDATION_FULL) {
      throw StatusError(Status::Invalid("rowbridge scan: unknown validation level " +
                                        std::to_string(request.validation)));
    }
    if (request.max_chunk_bytes <= 0) {
      throw StatusError(Status::Invalid("rowbridge scan: max chunk bytes must be positive"));
    }
    rowbridge::ConverterOptions convert;
    convert.validation = static_cast<rowbridge::Validation>(request.validation);
    convert.max_chunk_bytes = request.max_chunk_bytes;
    convert.variants = request.variants;
    stream::ConstantColumns constants;
    stream::ConstantColumns* constants_given = nullptr;
    if (request.constants_schema_address != 0 && request.constants_array_address != 0) {
      // Moved: the stream owns them from here on, also when Make fails.
      auto* schema = reinterpret_cast<ArrowSchema*>(request.constants_schema_address);
      auto* array = reinterpret_cast<ArrowArray*>(request.constants_array_address);
      constants.schema = *schema;
      constants.values = *array;
      schema->release = nullptr;
      array->release = nullptr;
      constants_given = &constants;
    }
    Check(stream::RowStream::Make(std::move(producer), request.options, convert, &handle->rows,
                                  constants_given));
    handle->canceller = handle->rows->canceller();
    handle->gate = handle->rows->gate();
    if (request.schema_address != 0) {
      Check(handle->rows->ExportSchema(reinterpret_cast<ArrowSchema*>(request.schema_address)));
    }
  } else {
    if (request.constants_schema_address != 0 || request.constants_array_address != 0) {
      throw StatusError(Status::Invalid("rowbridge scan: constant columns need a row scan"));
    }
    Check(stream::PrefetchStream::Make(std::move(producer), request.options, &handle->columns));
    handle->canceller = handle->columns->canceller();
    handle->gate = handle->columns->gate();
    if (request.schema_address != 0) {
      Check(handle->columns->ExportSchema(reinterpret_cast<ArrowSchema*>(request.schema_address)));
    }
  }
  return handle;
}

}  // namespace rowbridge::jni

using rowbridge::Status;
using rowbridge::jni::Check;
using rowbridge::jni::FromJava;
using rowbridge::jni::Guard;
using rowbridge::jni::GuardVoid;
using rowbridge::jni::Scan;
using rowbridge::jni::StatusError;
namespace scan = rowbridge::scan;
namespace stream = rowbridge::stream;

extern "C" {

JNIEXPORT void JNICALL Java_io_rowbridge_scan_ScanNative_initPool(JNIEnv* env, jclass,
                                                                  jint threads) {
  GuardVoid(env, [&] { Check(stream::WorkerPool::InitDefault(threads)); });
}

JNIEXPORT jint JNICALL Java_io_rowbridge_scan_ScanNative_poolSize(JNIEnv* env, jclass) {
  return Guard(env, jint{0}, [&] {
    std::shared_ptr<stream::WorkerPool> pool;
    Check(stream::WorkerPool::Default(&pool));
    return static_cast<jint>(pool->size());
  });
}

JNIEXPORT jint JNICALL Java_io_rowbridge_scan_ScanNative_poolBusy(JNIEnv* env, jclass) {
  return Guard(env, jint{0}, [&] {
    std::shared_ptr<stream::WorkerPool> pool;
    Check(stream::WorkerPool::Default(&pool));
    return static_cast<jint>(pool->busy());
  });
}

JNIEXPORT jlong JNICALL Java_io_rowbridge_scan_ScanNative_inspect(JNIEnv* env, jclass,
                                                                  jlong path_address,
                                                                  jlong schema_address) {
  return Guard(env, jlong{0}, [&] {
    std::string path = rowbridge::jni::PathAt(path_address);
    std::unique_ptr<rowbridge::ipc::IpcReader> reader;
    Check(rowbridge::ipc::IpcReader::Open(path, rowbridge::ipc::IpcReadOptions(), &reader));
    rowbridge::ipc::IpcFileInfo info;
    Check(reader->Inspect(&info));
    // [format, input bytes, batches, then per batch: rows, body bytes, uncompressed bytes,
    //  message offset, message bytes (framing, metadata and body)]
    constexpr size_t kPerBatch = 5;
    size_t count = info.batches.size();
    auto values = std::make_unique<int64_t[]>(3 + kPerBatch * count);
    values[0] = static_cast<int64_t>(info.format);
    values[1] = info.input_bytes;
    values[2] = static_cast<int64_t>(count);
    for (size_t i = 0; i < count; ++i) {
      const rowbridge::ipc::IpcBatchInfo& batch = info.batches[i];
      int64_t* at = values.get() + 3 + kPerBatch * i;
      at[0] = batch.num_rows;
      at[1] = batch.body_bytes;
      at[2] = batch.uncompressed_body_bytes;
      at[3] = batch.offset;
      at[4] = batch.metadata_bytes + batch.body_bytes;
    }
    if (schema_address != 0)
      Check(reader->ExportSchema(reinterpret_cast<ArrowSchema*>(schema_address)));
    return reinterpret_cast<jlong>(values.release());
  });
}

JNIEXPORT void JNICALL Java_io_rowbridge_scan_ScanNative_freeInspect(JNIEnv* env, jclass,
                                                                     jlong address) {
  GuardVoid(env, [&] { delete[] reinterpret_cast<int64_t*>(address); });
}

JNIEXPORT jlong JNICALL Java_io_rowbridge_scan_ScanNative_open(
    JNIEnv* env, jclass, jlong path_address, jlong columns_address, jint num_columns,
    jlong first_batch, jlong batch_count, jboolean validate_values, jint prefetch, jint in_flight,
    jint wake_millis, jboolean rows, jint validation, jlong max_chunk_bytes, jboolean variants,
    jlong schema_address, jlong constants_schema_address, jlong constants_array_address) {
  return Guard(env, jlong{0}, [&] {
    std::string path = rowbridge::jni::PathAt(path_address);
    scan::IpcScanOptions scan;
    if (num_columns >= 0) {
      if (num_columns > 0 && columns_address == 0) {
        throw StatusError(Status::Invalid("rowbridge scan: no column indices"));
      }
      const auto* columns = reinterpret_cast<const int32_t*>(columns_address);
      scan.read.select_columns = true;
      scan.read.columns.assign(columns, columns + num_columns);
    }
    scan.first_batch = first_batch;
    scan.batch_count = batch_count;
    scan.read.validate_values = validate_values != JNI_FALSE;
    rowbridge::jni::ScanRequest request;
    request.options.prefetch = prefetch;
    request.options.in_flight = in_flight;
    request.options.wake_period = std::chrono::milliseconds(wake_millis);
    request.rows = rows != JNI_FALSE;
    request.validation = validation;
    request.max_chunk_bytes = max_chunk_bytes;
    request.variants = variants != JNI_FALSE;
    request.schema_address = schema_address;
    request.constants_schema_address = constants_schema_address;
    request.constants_array_address = constants_array_address;
    std::unique_ptr<stream::BatchProducer> producer;
    Check(scan::MakeIpcProducer(path, scan, &producer));
    auto handle = rowbridge::jni::MakeScan(std::move(producer), request);
    return reinterpret_cast<jlong>(handle.release());
  });
}

JNIEXPORT jint JNICALL Java_io_rowbridge_scan_ScanNative_nextArray(JNIEnv* env, jclass,
                                                                   jlong handle,
                                                                   jlong array_address) {
  return Guard(env, jint{-1}, [&] {
    Scan* scan = FromJava(handle);
    if (scan->columns == nullptr || array_address == 0) {
      throw StatusError(
          Status::Invalid("rowbridge scan: nextArray on a row scan or without an array"));
    }
    bool end = false;
    bool ready = false;
    Check(scan->columns->Poll(reinterpret_cast<ArrowArray*>(array_address), &end, &ready));
    return !ready ? rowbridge::jni::kNotYet : end ? rowbridge::jni::kEnd : rowbridge::jni::kBatch;
  });
}

JNIEXPORT jint JNICALL Java_io_rowbridge_scan_ScanNative_nextRows(JNIEnv* env, jclass,
                                                                  jlong handle) {
  return Guard(env, jint{-1}, [&] {
    Scan* scan = FromJava(handle);
    if (scan->rows == nullptr) {
      throw StatusError(Status::Invalid("rowbridge scan: nextRows on an Arrow scan"));
    }
    scan->result = rowbridge::jni::RowResult{};
    stream::RowBatch batch;
    bool end = false;
    bool ready = false;
    Check(scan->rows->Poll(&batch, &end, &ready));
    if (!ready) return rowbridge::jni::kNotYet;
    if (end) return rowbridge::jni::kEnd;
    scan->result.Publish(batch.rows);
    return rowbridge::jni::kBatch;
  });
}

JNIEXPORT jlong JNICALL Java_io_rowbridge_scan_ScanNative_nextChunk(JNIEnv* env, jclass,
                                                                    jlong handle) {
  return Guard(env, jlong{-1}, [&] {
    Scan* scan = FromJava(handle);
    if (scan->rows == nullptr) {
      throw StatusError(Status::Invalid("rowbridge scan: nextChunk on an Arrow scan"));
    }
    rowbridge::RowBatchView view;
    Check(scan->rows->NextChunk(&view));
    scan->result.Publish(view);
    return static_cast<jlong>(view.num_rows);
  });
}

JNIEXPORT jlong JNICALL Java_io_rowbridge_scan_ScanNative_result(JNIEnv* env, jclass,
                                                                 jlong handle) {
  return Guard(env, jlong{0}, [&] { return reinterpret_cast<jlong>(&FromJava(handle)->result); });
}

JNIEXPORT jlong JNICALL Java_io_rowbridge_scan_ScanNative_stat(JNIEnv* env, jclass, jlong handle,
                                                               jint which) {
  return Guard(env, jlong{0}, [&] {
    Scan* scan = FromJava(handle);
    if (which == rowbridge::jni::kBytesHeld) return static_cast<jlong>(scan->BytesHeld());
    if (which == rowbridge::jni::kConverterBytes)
      return static_cast<jlong>(scan->rows ? scan->rows->converter_bytes() : 0);
    stream::StreamStats stats = scan->Stats();
    switch (which) {
      case rowbridge::jni::kBatches: return static_cast<jlong>(stats.batches);
      case rowbridge::jni::kInputBytes: return static_cast<jlong>(stats.input_bytes);
      case rowbridge::jni::kWaitNanos: return static_cast<jlong>(stats.wait_nanos);
      case rowbridge::jni::kProduceNanos: return static_cast<jlong>(stats.produce_nanos);
      case rowbridge::jni::kMaxBatchesHeld: return static_cast<jlong>(stats.max_batches_held);
      default:
        throw StatusError(
            Status::Invalid("rowbridge scan: unknown statistic " + std::to_string(which)));
    }
  });
}

JNIEXPORT void JNICALL Java_io_rowbridge_scan_ScanNative_cancel(JNIEnv* env, jclass, jlong handle) {
  GuardVoid(env, [&] { FromJava(handle)->canceller.Cancel(); });
}

JNIEXPORT void JNICALL Java_io_rowbridge_scan_ScanNative_close(JNIEnv* env, jclass, jlong handle) {
  // Closing waits for batches being produced to reach their boundary, then
  // releases every batch the stream holds (not those Java imported: their
  // buffers release them), the producer and the file.
  GuardVoid(env, [&] { delete reinterpret_cast<Scan*>(handle); });
}

}  // extern "C"
