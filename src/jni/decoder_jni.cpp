// The row decoder's entry points of io.rowbridge.RowbridgeNative: primitives
// only, each one Guard around a call of rowbridge::RowDecoder.
#include <cstdint>
#include <memory>
#include <string>

#include "io_rowbridge_RowbridgeNative.h"
#include "jni/jni_guard.hpp"
#include "rowbridge/row_decoder.hpp"

namespace rowbridge::jni {
namespace {

RowDecoder* DecoderFromJava(jlong handle) {
  if (handle == 0) throw StatusError(Status::Invalid("rowbridge: the decoder is closed"));
  return reinterpret_cast<RowDecoder*>(handle);
}

void CheckRows(jlong data, jlong offsets, jlong num_rows) {
  if (num_rows < 0) throw StatusError(Status::Invalid("rowbridge: a negative row count"));
  if (num_rows > 0 && (data == 0 || offsets == 0)) {
    throw StatusError(Status::Invalid("rowbridge: rows at address 0"));
  }
}

}  // namespace
}  // namespace rowbridge::jni

using rowbridge::jni::Check;
using rowbridge::jni::CheckRows;
using rowbridge::jni::DecoderFromJava;
using rowbridge::jni::Guard;
using rowbridge::jni::GuardVoid;
using rowbridge::jni::StatusError;

extern "C" {

JNIEXPORT jlong JNICALL Java_io_rowbridge_RowbridgeNative_decoderCreate(JNIEnv* env, jclass,
                                                                        jlong schema_address) {
  return Guard(env, jlong{0}, [&] {
    if (schema_address == 0) {
      throw StatusError(rowbridge::Status::Invalid("rowbridge: the schema address is 0"));
    }
    std::unique_ptr<rowbridge::RowDecoder> decoder;
    Check(rowbridge::RowDecoder::Make(*reinterpret_cast<const ArrowSchema*>(schema_address),
                                      &decoder));
    return reinterpret_cast<jlong>(decoder.release());
  });
}

JNIEXPORT void JNICALL Java_io_rowbridge_RowbridgeNative_decoderFree(JNIEnv* env, jclass,
                                                                     jlong handle) {
  GuardVoid(env, [&] { delete reinterpret_cast<rowbridge::RowDecoder*>(handle); });
}

JNIEXPORT jint JNICALL Java_io_rowbridge_RowbridgeNative_decoderTargets(JNIEnv* env, jclass,
                                                                        jlong handle) {
  return Guard(env, jint{0},
               [&] { return static_cast<jint>(DecoderFromJava(handle)->num_targets()); });
}

JNIEXPORT jboolean JNICALL Java_io_rowbridge_RowbridgeNative_decodeInto(
    JNIEnv* env, jclass, jlong handle, jlong data, jlong offsets, jlong num_rows, jlong targets,
    jint num_targets) {
  return Guard(env, jboolean{JNI_FALSE}, [&] {
    rowbridge::RowDecoder* decoder = DecoderFromJava(handle);
    CheckRows(data, offsets, num_rows);
    if (targets == 0) {
      throw StatusError(rowbridge::Status::Invalid("rowbridge: the target table's address is 0"));
    }
    bool decoded = false;
    Check(decoder->DecodeInto(
        reinterpret_cast<const uint8_t*>(data), reinterpret_cast<const int64_t*>(offsets), num_rows,
        reinterpret_cast<rowbridge::DecodeTarget*>(targets), num_targets, &decoded));
    return decoded ? jboolean{JNI_TRUE} : jboolean{JNI_FALSE};
  });
}

JNIEXPORT void JNICALL Java_io_rowbridge_RowbridgeNative_decodeToArray(
    JNIEnv* env, jclass, jlong handle, jlong data, jlong offsets, jlong num_rows, jlong array) {
  GuardVoid(env, [&] {
    rowbridge::RowDecoder* decoder = DecoderFromJava(handle);
    CheckRows(data, offsets, num_rows);
    if (array == 0) {
      throw StatusError(rowbridge::Status::Invalid("rowbridge: the ArrowArray's address is 0"));
    }
    Check(decoder->Decode(reinterpret_cast<const uint8_t*>(data),
                          reinterpret_cast<const int64_t*>(offsets), num_rows,
                          reinterpret_cast<ArrowArray*>(array)));
  });
}

}  // extern "C"
