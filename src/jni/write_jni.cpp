// The writer's entry points of io.rowbridge.RowbridgeNative (writer*): primitives
// only, each one Guard around a call of rowbridge::write::RowEncodeStream.
// The bytes of the output reach Java by copies into a Java byte[] (the
// stream's pieces stay native until then).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "io_rowbridge_RowbridgeNative.h"
#include "jni/jni_guard.hpp"
#include "rowbridge/row_encode_stream.hpp"

namespace rowbridge::jni {
namespace {

/// A writer: its stream, and the piece of output Java copies out next, in
/// up to two parts (a message's metadata and body).
struct WriterHandle {
  std::unique_ptr<write::RowEncodeStream> stream;
  std::vector<uint8_t> own;  // the start or end bytes
  const uint8_t* parts[2] = {nullptr, nullptr};
  int64_t part_sizes[2] = {0, 0};

  int64_t piece_size() const { return part_sizes[0] + part_sizes[1]; }
  jlong SetPiece(const std::vector<uint8_t>& first, const std::vector<uint8_t>* second) {
    parts[0] = first.data();
    part_sizes[0] = static_cast<int64_t>(first.size());
    parts[1] = second != nullptr ? second->data() : nullptr;
    part_sizes[1] = second != nullptr ? static_cast<int64_t>(second->size()) : 0;
    return piece_size();
  }
};

WriterHandle* WriterFromJava(jlong handle) {
  if (handle == 0) throw StatusError(Status::Invalid("rowbridge writer: the writer is closed"));
  return reinterpret_cast<WriterHandle*>(handle);
}

jlong OwnPiece(WriterHandle* writer) { return writer->SetPiece(writer->own, nullptr); }

}  // namespace
}  // namespace rowbridge::jni

using rowbridge::jni::Check;
using rowbridge::jni::Guard;
using rowbridge::jni::GuardVoid;
using rowbridge::jni::OwnPiece;
using rowbridge::jni::StatusError;
using rowbridge::jni::WriterFromJava;
using rowbridge::jni::WriterHandle;

extern "C" {

JNIEXPORT jlong JNICALL Java_io_rowbridge_RowbridgeNative_writerCreate(
    JNIEnv* env, jclass, jlong schema_address, jint codec, jint zstd_level, jint max_ahead,
    jboolean stream_format, jboolean in_one_column) {
  return Guard(env, jlong{0}, [&] {
    if (schema_address == 0) {
      throw StatusError(rowbridge::Status::Invalid("rowbridge writer: the schema address is 0"));
    }
    rowbridge::write::RowEncodeOptions options;
    options.ipc.codec = static_cast<rowbridge::ipc::IpcCodec>(codec);
    options.ipc.zstd_level = zstd_level;
    options.max_ahead = max_ahead;
    options.format =
        stream_format ? rowbridge::ipc::IpcFormat::kStream : rowbridge::ipc::IpcFormat::kFile;
    options.rows_in_one_column = in_one_column == JNI_TRUE;
    auto writer = std::make_unique<WriterHandle>();
    Check(rowbridge::write::RowEncodeStream::Make(
        *reinterpret_cast<const ArrowSchema*>(schema_address), options, &writer->stream));
    return reinterpret_cast<jlong>(writer.release());
  });
}

JNIEXPORT void JNICALL Java_io_rowbridge_RowbridgeNative_writerFree(JNIEnv* env, jclass,
                                                                    jlong handle) {
  GuardVoid(env, [&] { delete reinterpret_cast<WriterHandle*>(handle); });
}

JNIEXPORT jlong JNICALL Java_io_rowbridge_RowbridgeNative_writerStart(JNIEnv* env, jclass,
                                                                      jlong handle) {
  return Guard(env, jlong{-1}, [&] {
    WriterHandle* writer = WriterFromJava(handle);
    Check(writer->stream->Start(&writer->own));
    return OwnPiece(writer);
  });
}

JNIEXPORT void JNICALL Java_io_rowbridge_RowbridgeNative_writerSubmit(JNIEnv* env, jclass,
                                                                      jlong handle, jlong data,
                                                                      jlong offsets,
                                                                      jlong num_rows) {
  GuardVoid(env, [&] {
    Check(WriterFromJava(handle)->stream->Submit(reinterpret_cast<const uint8_t*>(data),
                                                 reinterpret_cast<const int64_t*>(offsets),
                                                 num_rows));
  });
}

JNIEXPORT jlong JNICALL Java_io_rowbridge_RowbridgeNative_writerNext(JNIEnv* env, jclass,
                                                                     jlong handle, jboolean wait) {
  return Guard(env, jlong{-1}, [&] {
    WriterHandle* writer = WriterFromJava(handle);
    writer->part_sizes[0] = writer->part_sizes[1] = 0;
    const rowbridge::ipc::IpcMessage* message = nullptr;
    bool ready = false;
    Check(writer->stream->Next(wait == JNI_TRUE, &message, &ready));
    if (!ready) return jlong{-1};
    return writer->SetPiece(message->metadata, &message->body);
  });
}

JNIEXPORT jlong JNICALL Java_io_rowbridge_RowbridgeNative_writerFinish(JNIEnv* env, jclass,
                                                                       jlong handle) {
  return Guard(env, jlong{-1}, [&] {
    WriterHandle* writer = WriterFromJava(handle);
    Check(writer->stream->Finish(&writer->own));
    return OwnPiece(writer);
  });
}

JNIEXPORT void JNICALL Java_io_rowbridge_RowbridgeNative_writerCopy(JNIEnv* env, jclass,
                                                                    jlong handle, jlong offset,
                                                                    jbyteArray target,
                                                                    jint length) {
  GuardVoid(env, [&] {
    WriterHandle* writer = WriterFromJava(handle);
    if (target == nullptr) {
      throw StatusError(rowbridge::Status::Invalid("rowbridge writer: no target array"));
    }
    const int64_t size = writer->piece_size();
    if (offset < 0 || length < 0 || offset > size || length > size - offset ||
        length > env->GetArrayLength(target)) {
      throw StatusError(rowbridge::Status::Invalid(
          "rowbridge writer: bytes [" + std::to_string(offset) + ", +" + std::to_string(length) +
          ") of a piece of " + std::to_string(size)));
    }
    jsize at = 0;
    for (int part = 0; part < 2 && at < length; ++part) {  // the range may span both parts
      if (offset >= writer->part_sizes[part]) {
        offset -= writer->part_sizes[part];
        continue;
      }
      const jsize n =
          static_cast<jsize>(std::min<int64_t>(length - at, writer->part_sizes[part] - offset));
      env->SetByteArrayRegion(target, at, n,
                              reinterpret_cast<const jbyte*>(writer->parts[part] + offset));
      at += n;
      offset = 0;
    }
  });
}

JNIEXPORT jlong JNICALL Java_io_rowbridge_RowbridgeNative_writerPending(JNIEnv* env, jclass,
                                                                        jlong handle) {
  return Guard(env, jlong{0}, [&] { return jlong{WriterFromJava(handle)->stream->pending()}; });
}

JNIEXPORT jlong JNICALL Java_io_rowbridge_RowbridgeNative_writerBytesHeld(JNIEnv* env, jclass,
                                                                          jlong handle) {
  return Guard(env, jlong{0}, [&] { return jlong{WriterFromJava(handle)->stream->bytes_held()}; });
}

JNIEXPORT void JNICALL Java_io_rowbridge_RowbridgeNative_writerCancel(JNIEnv* env, jclass,
                                                                      jlong handle) {
  GuardVoid(env, [&] { WriterFromJava(handle)->stream->Cancel(); });
}

}  // extern "C"
