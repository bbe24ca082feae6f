// The entry points of io.rowbridge.RowbridgeNative. Each takes and returns
// primitives only (addresses as jlong) and is one Guard around a few calls
// of the C++ API; Java reads the results from native memory itself.
#include <cstdint>
#include <memory>
#include <string>

#include "io_rowbridge_RowbridgeNative.h"
#include "jni/jni_guard.hpp"
#include "jni/row_result.hpp"
#include "rowbridge/converter.hpp"
#include "rowbridge/rowbridge.h"

namespace rowbridge::jni {
namespace {

/// A converter owned by a Java RowbridgeConverter (the jlong handle).
struct Handle {
  std::unique_ptr<Converter> converter;
  std::string spark_schema;
  RowResult result;

  jlong Publish(const RowBatchView& view) {
    result.Publish(view);
    return reinterpret_cast<jlong>(&result);
  }
};

Handle* FromJava(jlong handle) {
  if (handle == 0) throw StatusError(Status::Invalid("rowbridge: the converter is closed"));
  return reinterpret_cast<Handle*>(handle);
}

template <typename T>
T* Pointer(jlong address) {
  return reinterpret_cast<T*>(address);
}

void ReleaseSchemaNothing(ArrowSchema*) {}
void ReleaseArrayNothing(ArrowArray*) {}

const char kVersion[] = ROWBRIDGE_VERSION_STRING;

}  // namespace
}  // namespace rowbridge::jni

using rowbridge::jni::Check;
using rowbridge::jni::FromJava;
using rowbridge::jni::Guard;
using rowbridge::jni::GuardVoid;
using rowbridge::jni::Handle;
using rowbridge::jni::Pointer;
using rowbridge::jni::StatusError;

extern "C" {

JNIEXPORT jlong JNICALL Java_io_rowbridge_RowbridgeNative_versionAddress(JNIEnv*, jclass) {
  return reinterpret_cast<jlong>(rowbridge::jni::kVersion);
}

JNIEXPORT jlong JNICALL Java_io_rowbridge_RowbridgeNative_releaseSchemaNothingAddress(JNIEnv*,
                                                                                      jclass) {
  return reinterpret_cast<jlong>(&rowbridge::jni::ReleaseSchemaNothing);
}

JNIEXPORT jlong JNICALL Java_io_rowbridge_RowbridgeNative_releaseArrayNothingAddress(JNIEnv*,
                                                                                     jclass) {
  return reinterpret_cast<jlong>(&rowbridge::jni::ReleaseArrayNothing);
}

JNIEXPORT jlong JNICALL Java_io_rowbridge_RowbridgeNative_create(
    JNIEnv* env, jclass, jlong schema_address, jint validation, jlong max_chunk_bytes,
    jboolean variants, jint kernels, jint nested_writer) {
  return Guard(env, jlong{0}, [&] {
    if (schema_address == 0)
      throw StatusError(rowbridge::Status::Invalid("rowbridge: the schema address is 0"));
    if (validation != ROWBRIDGE_VALIDATION_CHEAP && validation != ROWBRIDGE_VALIDATION_FULL) {
      throw StatusError(rowbridge::Status::Invalid("rowbridge: unknown validation level " +
                                                   std::to_string(validation)));
    }
    if (max_chunk_bytes <= 0) {
      throw StatusError(rowbridge::Status::Invalid(
          "rowbridge: max chunk bytes must be positive, not " + std::to_string(max_chunk_bytes)));
    }
    rowbridge::ConverterOptions options;
    options.validation = static_cast<rowbridge::Validation>(validation);
    options.max_chunk_bytes = max_chunk_bytes;
    options.variants = variants != JNI_FALSE;
    // Out-of-range values are refused by Converter::Make, naming the value.
    options.kernels = static_cast<rowbridge::Kernels>(kernels);
    options.nested_writer = static_cast<rowbridge::NestedWriter>(nested_writer);
    auto handle = std::make_unique<Handle>();
    Check(rowbridge::Converter::Make(*Pointer<const ArrowSchema>(schema_address), options,
                                     &handle->converter));
    handle->spark_schema = handle->converter->plan().spark_schema().ToString();
    return reinterpret_cast<jlong>(handle.release());
  });
}

JNIEXPORT void JNICALL Java_io_rowbridge_RowbridgeNative_free(JNIEnv* env, jclass, jlong handle) {
  GuardVoid(env, [&] { delete Pointer<Handle>(handle); });
}

JNIEXPORT jlong JNICALL Java_io_rowbridge_RowbridgeNative_sparkSchemaAddress(JNIEnv* env, jclass,
                                                                             jlong handle) {
  return Guard(env, jlong{0},
               [&] { return reinterpret_cast<jlong>(FromJava(handle)->spark_schema.c_str()); });
}

JNIEXPORT jlong JNICALL Java_io_rowbridge_RowbridgeNative_registeredBatch(JNIEnv* env, jclass,
                                                                          jlong handle) {
  return Guard(env, jlong{0}, [&] {
    return reinterpret_cast<jlong>(FromJava(handle)->converter->registered_batch());
  });
}

JNIEXPORT jlong JNICALL Java_io_rowbridge_RowbridgeNative_convert(JNIEnv* env, jclass, jlong handle,
                                                                  jlong num_rows) {
  return Guard(env, jlong{0}, [&] {
    Handle* converter = FromJava(handle);
    ArrowArray* batch = converter->converter->registered_batch();
    batch->length = num_rows;
    batch->null_count = 0;
    batch->offset = 0;
    rowbridge::RowBatchView view;
    Check(converter->converter->Convert(*batch, nullptr, &view));
    return converter->Publish(view);
  });
}

JNIEXPORT jlong JNICALL Java_io_rowbridge_RowbridgeNative_convertArray(JNIEnv* env, jclass,
                                                                       jlong handle,
                                                                       jlong array_address,
                                                                       jlong schema_address) {
  return Guard(env, jlong{0}, [&] {
    Handle* converter = FromJava(handle);
    if (array_address == 0)
      throw StatusError(rowbridge::Status::Invalid("rowbridge: the array address is 0"));
    rowbridge::RowBatchView view;
    Check(converter->converter->Convert(*Pointer<const ArrowArray>(array_address),
                                        Pointer<const ArrowSchema>(schema_address), &view));
    return converter->Publish(view);
  });
}

JNIEXPORT jlong JNICALL Java_io_rowbridge_RowbridgeNative_nextChunk(JNIEnv* env, jclass,
                                                                    jlong handle) {
  return Guard(env, jlong{0}, [&] {
    Handle* converter = FromJava(handle);
    rowbridge::RowBatchView view;
    Check(converter->converter->NextChunk(&view));
    return converter->Publish(view);
  });
}

}  // extern "C"
