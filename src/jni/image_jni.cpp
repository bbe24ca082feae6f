// The entry points of io.rowbridge.scan.ScanNative for files Java reads
// itself (through Hadoop's FileSystem): Java writes byte ranges into an image
// of the file (stream/filled_input.hpp), asks which ranges a batch needs, and
// opens the gate of the scan batch by batch as their bytes arrive. Native
// code never calls into Java.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io_rowbridge_scan_ScanNative.h"
#include "jni/scan_handle.hpp"
#include "rowbridge/ipc_reader.hpp"
#include "scan/filled_input.hpp"

namespace rowbridge::jni {
namespace {

/// An image and, once its head and footer are written, its reader (the
/// jlong handle of imageCreate).
struct Image {
  std::shared_ptr<scan::FilledImage> image;
  std::unique_ptr<ipc::IpcReader> reader;
};

Image* ImageFromJava(jlong handle) {
  if (handle == 0) throw StatusError(Status::Invalid("rowbridge image: the image is freed"));
  return reinterpret_cast<Image*>(handle);
}

const ipc::IpcReader& OpenedReader(const Image& image) {
  if (image.reader == nullptr) {
    throw StatusError(Status::Invalid("rowbridge image: imageOpen has not succeeded"));
  }
  return *image.reader;
}

jlongArray ToJava(JNIEnv* env, const std::vector<int64_t>& values) {
  jlongArray array = env->NewLongArray(static_cast<jsize>(values.size()));
  if (array == nullptr) return nullptr;  // OutOfMemoryError pending
  env->SetLongArrayRegion(array, 0, static_cast<jsize>(values.size()),
                          reinterpret_cast<const jlong*>(values.data()));
  return array;
}

}  // namespace
}  // namespace rowbridge::jni

using rowbridge::Status;
using rowbridge::jni::Check;
using rowbridge::jni::Guard;
using rowbridge::jni::GuardVoid;
using rowbridge::jni::Image;
using rowbridge::jni::ImageFromJava;
using rowbridge::jni::StatusError;
namespace ipc = rowbridge::ipc;
namespace scan = rowbridge::scan;
namespace stream = rowbridge::stream;

extern "C" {

JNIEXPORT jlong JNICALL Java_io_rowbridge_scan_ScanNative_imageCreate(JNIEnv* env, jclass,
                                                                      jlong size) {
  return Guard(env, jlong{0}, [&] {
    auto image = std::make_unique<Image>();
    Check(scan::FilledImage::Make(size, &image->image));
    return reinterpret_cast<jlong>(image.release());
  });
}

JNIEXPORT jobject JNICALL Java_io_rowbridge_scan_ScanNative_imageBuffer(JNIEnv* env, jclass,
                                                                        jlong handle, jlong offset,
                                                                        jint length) {
  return Guard(env, jobject{nullptr}, [&]() -> jobject {
    const scan::FilledImage& image = *ImageFromJava(handle)->image;
    if (offset < 0 || length < 0 || offset > image.size() || length > image.size() - offset) {
      throw StatusError(Status::Invalid("rowbridge image: range [" + std::to_string(offset) +
                                        ", +" + std::to_string(length) + ") is outside its " +
                                        std::to_string(image.size()) + " bytes"));
    }
    return env->NewDirectByteBuffer(image.data() + offset, length);
  });
}

JNIEXPORT void JNICALL Java_io_rowbridge_scan_ScanNative_imageFilled(JNIEnv* env, jclass,
                                                                     jlong handle, jlong batch,
                                                                     jlong bytes) {
  GuardVoid(env, [&] { ImageFromJava(handle)->image->NoteFilled(batch, bytes); });
}

JNIEXPORT jlong JNICALL Java_io_rowbridge_scan_ScanNative_imageResident(JNIEnv* env, jclass,
                                                                        jlong handle) {
  return Guard(env, jlong{0},
               [&] { return static_cast<jlong>(ImageFromJava(handle)->image->resident_bytes()); });
}

JNIEXPORT jlongArray JNICALL Java_io_rowbridge_scan_ScanNative_imageOpen(
    JNIEnv* env, jclass, jlong handle, jlong path_address, jlong columns_address, jint num_columns,
    jboolean validate_values, jlong schema_address) {
  return Guard(env, jlongArray{nullptr}, [&] {
    Image* image = ImageFromJava(handle);
    ipc::IpcReadOptions read;
    read.validate_values = validate_values != JNI_FALSE;
    if (num_columns >= 0) {
      if (num_columns > 0 && columns_address == 0) {
        throw StatusError(Status::Invalid("rowbridge image: no column indices"));
      }
      const auto* columns = reinterpret_cast<const int32_t*>(columns_address);
      read.select_columns = true;
      read.columns.assign(columns, columns + num_columns);
    }
    std::string path = rowbridge::jni::PathAt(path_address);
    std::unique_ptr<ipc::IpcReader> reader;
    Check(scan::OpenFilledReader(image->image, path, read, &reader));
    // [format, footer offset, dictionaries, (offset, bytes) each,
    //  batches, (offset, metadata bytes, body bytes) each]
    std::vector<int64_t> values = {static_cast<int64_t>(reader->format())};
    if (reader->format() == ipc::IpcFormat::kFile) {
      ipc::IpcFileLayout layout;
      Check(reader->Layout(&layout));
      values.push_back(layout.footer_offset);
      values.push_back(static_cast<int64_t>(layout.dictionaries.size()));
      for (const auto& block : layout.dictionaries) {
        values.push_back(block.offset);
        values.push_back(block.metadata_bytes + block.body_bytes);
      }
      values.push_back(static_cast<int64_t>(layout.record_batches.size()));
      for (const auto& block : layout.record_batches) {
        values.push_back(block.offset);
        values.push_back(block.metadata_bytes);
        values.push_back(block.body_bytes);
      }
    }
    if (schema_address != 0) {
      // The whole file's schema, whatever the selection: a clone without one.
      ipc::IpcReadOptions all = read;
      all.select_columns = false;
      all.columns.clear();
      std::unique_ptr<ipc::IpcReader> whole;
      Check(scan::OpenFilledReader(image->image, path, all, &whole));
      Check(whole->ExportSchema(reinterpret_cast<ArrowSchema*>(schema_address)));
    }
    image->reader = std::move(reader);
    return rowbridge::jni::ToJava(env, values);
  });
}

JNIEXPORT jlongArray JNICALL Java_io_rowbridge_scan_ScanNative_imageBatchRanges(JNIEnv* env, jclass,
                                                                                jlong handle,
                                                                                jlong batch) {
  return Guard(env, jlongArray{nullptr}, [&] {
    const ipc::IpcReader& reader = rowbridge::jni::OpenedReader(*ImageFromJava(handle));
    std::vector<ipc::IpcByteRange> ranges;
    Check(reader.BatchByteRanges(batch, &ranges));
    std::vector<int64_t> values;
    values.reserve(2 * ranges.size());
    for (const auto& range : ranges) {
      values.push_back(range.offset);
      values.push_back(range.length);
    }
    return rowbridge::jni::ToJava(env, values);
  });
}

JNIEXPORT void JNICALL Java_io_rowbridge_scan_ScanNative_imageFree(JNIEnv* env, jclass,
                                                                   jlong handle) {
  // The mapping lives on while a scan or an array Java imported points into it.
  GuardVoid(env, [&] { delete reinterpret_cast<Image*>(handle); });
}

JNIEXPORT jlong JNICALL Java_io_rowbridge_scan_ScanNative_openImage(
    JNIEnv* env, jclass, jlong image_handle, jlong first_batch, jlong batch_count, jint prefetch,
    jint in_flight, jint wake_millis, jboolean rows, jint validation, jlong max_chunk_bytes,
    jboolean variants, jlong schema_address, jlong constants_schema_address,
    jlong constants_array_address) {
  return Guard(env, jlong{0}, [&] {
    Image* image = ImageFromJava(image_handle);
    const ipc::IpcReader& reader = rowbridge::jni::OpenedReader(*image);
    scan::IpcScanOptions scan;
    scan.first_batch = first_batch;
    scan.batch_count = batch_count;
    rowbridge::jni::ScanRequest request;
    request.options.prefetch = prefetch;
    request.options.in_flight = in_flight;
    request.options.wake_period = std::chrono::milliseconds(wake_millis);
    // A file waits for Java's ready(); a stream is read whole before it opens.
    request.options.ready_batches = reader.format() == ipc::IpcFormat::kFile ? 0 : -1;
    request.rows = rows != JNI_FALSE;
    request.validation = validation;
    request.max_chunk_bytes = max_chunk_bytes;
    request.variants = variants != JNI_FALSE;
    request.schema_address = schema_address;
    request.constants_schema_address = constants_schema_address;
    request.constants_array_address = constants_array_address;
    std::unique_ptr<stream::BatchProducer> producer;
    Check(scan::MakeFilledProducer(image->image, reader, scan, &producer));
    auto handle = rowbridge::jni::MakeScan(std::move(producer), request);
    handle->image = image->image;
    return reinterpret_cast<jlong>(handle.release());
  });
}

JNIEXPORT void JNICALL Java_io_rowbridge_scan_ScanNative_ready(JNIEnv* env, jclass, jlong handle,
                                                               jlong count) {
  GuardVoid(env, [&] { rowbridge::jni::FromJava(handle)->gate.Open(count); });
}

}  // extern "C"
