// The native side of a Java scan handle (io.rowbridge.scan.ScanNative), shared
// by the scans of local files (scan_jni.cpp) and of images Java fills
// (image_jni.cpp).
#pragma once

#include <jni.h>

#include <cstdint>
#include <memory>
#include <string>

#include "jni/jni_guard.hpp"
#include "jni/row_result.hpp"
#include "rowbridge/stream.hpp"
#include "scan/filled_input.hpp"

namespace rowbridge::jni {

namespace stream = rowbridge::stream;

/// What nextArray/nextRows return.
constexpr jint kBatch = 1;
constexpr jint kEnd = 0;
constexpr jint kNotYet = 2;

/// The statistics Java reads with stat(handle, which).
enum Stat : jint {
  kBatches = 0,
  kInputBytes = 1,
  kWaitNanos = 2,
  kProduceNanos = 3,
  kMaxBatchesHeld = 4,
  kBytesHeld = 5,
  kConverterBytes = 6,
};

/// A scan owned by a Java ArrowScan or RowScan (the jlong handle).
struct Scan {
  std::unique_ptr<stream::PrefetchStream> columns;
  std::unique_ptr<stream::RowStream> rows;
  stream::StreamCanceller canceller;
  stream::StreamGate gate;
  /// The image of a file Java fills, for a scan of one (else null).
  std::shared_ptr<scan::FilledImage> image;
  RowResult result;

  stream::StreamStats Stats() const { return columns ? columns->stats() : rows->stats(); }
  /// StreamStats::bytes_held without the stream's lock (an atomic read),
  /// plus the image's resident bytes.
  int64_t BytesHeld() const {
    int64_t held = columns ? columns->bytes_held() : rows->bytes_held();
    return held + (image ? image->resident_bytes() : 0);
  }
};

inline Scan* FromJava(jlong handle) {
  if (handle == 0) throw StatusError(Status::Invalid("rowbridge scan: the scan is closed"));
  return reinterpret_cast<Scan*>(handle);
}

inline std::string PathAt(jlong address) {
  if (address == 0) throw StatusError(Status::Invalid("rowbridge scan: no path"));
  return std::string(reinterpret_cast<const char*>(address));
}

/// What a scan is asked for beyond its producer: open's arguments.
struct ScanRequest {
  stream::StreamOptions options;
  bool rows = false;
  jint validation = 0;
  jlong max_chunk_bytes = 0;
  bool variants = true;  // ConverterOptions::variants
  jlong schema_address = 0;
  jlong constants_schema_address = 0;
  jlong constants_array_address = 0;
};

/// Makes the scan of `producer` (ownership taken). Throws StatusError.
std::unique_ptr<Scan> MakeScan(std::unique_ptr<stream::BatchProducer> producer,
                               const ScanRequest& request);

}  // namespace rowbridge::jni
