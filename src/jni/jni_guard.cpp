// JNI_OnLoad / JNI_OnUnload, and the conversion of a failure into a Java
// exception.
#include "jni/jni_guard.hpp"

#include <cstdint>
#include <vector>

namespace rowbridge::jni {
namespace {

constexpr jint kJniVersion = JNI_VERSION_1_8;

// Cached by JNI_OnLoad: a global reference to RowbridgeException and its
// (String message, int code) constructor.
jclass g_exception_class = nullptr;
jmethodID g_exception_constructor = nullptr;

/// Decodes UTF-8 into UTF-16; an invalid or truncated sequence becomes U+FFFD.
std::vector<jchar> Utf16(const std::string& text) {
  std::vector<jchar> out;
  out.reserve(text.size());
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  size_t size = text.size();
  size_t i = 0;
  while (i < size) {
    unsigned char lead = bytes[i];
    int extra = lead < 0x80             ? 0
                : (lead & 0xE0) == 0xC0 ? 1
                : (lead & 0xF0) == 0xE0 ? 2
                : (lead & 0xF8) == 0xF0 ? 3
                                        : -1;
    uint32_t code = extra == 0   ? lead
                    : extra == 1 ? (lead & 0x1Fu)
                    : extra == 2 ? (lead & 0x0Fu)
                                 : (lead & 0x07u);
    bool valid = extra >= 0 && i + static_cast<size_t>(extra) < size;
    for (int k = 1; valid && k <= extra; ++k) {
      unsigned char next = bytes[i + static_cast<size_t>(k)];
      valid = (next & 0xC0) == 0x80;
      code = (code << 6) | (next & 0x3Fu);
    }
    static constexpr uint32_t kMinimum[] = {0, 0x80, 0x800, 0x10000};
    if (!valid || code < kMinimum[extra < 0 ? 0 : extra] || code > 0x10FFFF ||
        (code >= 0xD800 && code <= 0xDFFF)) {
      out.push_back(0xFFFD);
      ++i;
      continue;
    }
    if (code >= 0x10000) {
      code -= 0x10000;
      out.push_back(static_cast<jchar>(0xD800 + (code >> 10)));
      out.push_back(static_cast<jchar>(0xDC00 + (code & 0x3FF)));
    } else {
      out.push_back(static_cast<jchar>(code));
    }
    i += static_cast<size_t>(extra) + 1;
  }
  return out;
}

}  // namespace

void ThrowRowbridgeException(JNIEnv* env, int code, const std::string& message) noexcept {
  try {
    if (env->ExceptionCheck()) return;  // keep the first failure
    std::vector<jchar> chars = Utf16(message);
    jstring text = env->NewString(chars.data(), static_cast<jsize>(chars.size()));
    if (text == nullptr) return;  // OutOfMemoryError pending
    auto exception = static_cast<jthrowable>(
        env->NewObject(g_exception_class, g_exception_constructor, text, static_cast<jint>(code)));
    env->DeleteLocalRef(text);
    if (exception != nullptr) {
      env->Throw(exception);
      env->DeleteLocalRef(exception);
    }
  } catch (...) {
    // Out of memory while building the message: the JVM's own OutOfMemoryError
    // (or nothing) is the best left to do.
    if (!env->ExceptionCheck()) {
      jclass error = env->FindClass("java/lang/OutOfMemoryError");
      if (error != nullptr) env->ThrowNew(error, "rowbridge: out of native memory");
    }
  }
}

}  // namespace rowbridge::jni

extern "C" {

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void* /*reserved*/) {
  using namespace rowbridge::jni;
  JNIEnv* env = nullptr;
  if (vm->GetEnv(reinterpret_cast<void**>(&env), kJniVersion) != JNI_OK) return JNI_ERR;
  jclass local = env->FindClass("io/rowbridge/RowbridgeException");
  if (local == nullptr) return JNI_ERR;
  g_exception_class = static_cast<jclass>(env->NewGlobalRef(local));
  env->DeleteLocalRef(local);
  if (g_exception_class == nullptr) return JNI_ERR;
  g_exception_constructor = env->GetMethodID(g_exception_class, "<init>", "(Ljava/lang/String;I)V");
  if (g_exception_constructor == nullptr) return JNI_ERR;
  return kJniVersion;
}

JNIEXPORT void JNICALL JNI_OnUnload(JavaVM* vm, void* /*reserved*/) {
  using namespace rowbridge::jni;
  JNIEnv* env = nullptr;
  if (vm->GetEnv(reinterpret_cast<void**>(&env), kJniVersion) != JNI_OK) return;
  if (g_exception_class != nullptr) env->DeleteGlobalRef(g_exception_class);
  g_exception_class = nullptr;
  g_exception_constructor = nullptr;
}

}  // extern "C"
