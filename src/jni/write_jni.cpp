// The writer's entry points of io.rowbridge.RowbridgeNative (writer*): primitives
// only, each one Guard around a call of rowbridge::stream::RowEncodeStream.
// The bytes of the output reach Java by copies into a Java byte[] (the
// stream's pieces stay native until then).
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

/// A writer: its stream, and the piece of output Java copies out next.
struct WriterHandle {
  std::unique_ptr<stream::RowEncodeStream> stream;
  std::vector<uint8_t> own;  // the start or end bytes
  const uint8_t* piece = nullptr;
  int64_t piece_size = 0;
};

WriterHandle* WriterFromJava(jlong handle) {
  if (handle == 0) throw StatusError(Status::Invalid("rowbridge writer: the writer is closed"));
  return reinterpret_cast<WriterHandle*>(handle);
}

jlong OwnPiece(WriterHandle* writer) {
  writer->piece = writer->own.data();
  writer->piece_size = static_cast<int64_t>(writer->own.size());
  return writer->piece_size;
}

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

JNIEXPORT jlong JNICALL Java_io_rowbridge_RowbridgeNative_writerCreate(JNIEnv* env, jclass,
                                                                   jlong schema_address,
                                                                   jint codec, jint zstd_level,
                                                                   jint max_ahead,
                                                                   jboolean stream_format) {
  return Guard(env, jlong{0}, [&] {
    if (schema_address == 0) {
      throw StatusError(rowbridge::Status::Invalid("rowbridge writer: the schema address is 0"));
    }
    rowbridge::stream::RowEncodeOptions options;
    options.ipc.codec = static_cast<rowbridge::ipc::IpcCodec>(codec);
    options.ipc.zstd_level = zstd_level;
    options.max_ahead = max_ahead;
    options.format = stream_format ? rowbridge::ipc::IpcFormat::kStream
                                   : rowbridge::ipc::IpcFormat::kFile;
    auto writer = std::make_unique<WriterHandle>();
    Check(rowbridge::stream::RowEncodeStream::Make(
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
    writer->piece = nullptr;
    writer->piece_size = 0;
    const rowbridge::ipc::IpcMessage* message = nullptr;
    bool ready = false;
    Check(writer->stream->Next(wait == JNI_TRUE, &message, &ready));
    if (!ready) return jlong{-1};
    writer->piece = message->bytes.data();
    writer->piece_size = static_cast<int64_t>(message->bytes.size());
    return jlong{writer->piece_size};
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
                                                                jbyteArray target, jint length) {
  GuardVoid(env, [&] {
    WriterHandle* writer = WriterFromJava(handle);
    if (target == nullptr) {
      throw StatusError(rowbridge::Status::Invalid("rowbridge writer: no target array"));
    }
    if (offset < 0 || length < 0 || offset > writer->piece_size ||
        length > writer->piece_size - offset || length > env->GetArrayLength(target)) {
      throw StatusError(rowbridge::Status::Invalid(
          "rowbridge writer: bytes [" + std::to_string(offset) + ", +" + std::to_string(length) +
          ") of a piece of " + std::to_string(writer->piece_size)));
    }
    env->SetByteArrayRegion(target, 0, length,
                            reinterpret_cast<const jbyte*>(writer->piece + offset));
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
