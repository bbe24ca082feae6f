// The one wrapper around every JNI entry point: C++ exceptions and error
// statuses become io.rowbridge.RowbridgeException, never a crash.
#pragma once

#include <jni.h>

#include <exception>
#include <new>
#include <string>
#include <utility>

#include "rowbridge/status.hpp"

namespace rowbridge::jni {

/// A failed Status carried as a C++ exception up to Guard.
class StatusError : public std::exception {
 public:
  explicit StatusError(Status status) : status_(std::move(status)) {}
  const Status& status() const { return status_; }
  const char* what() const noexcept override { return status_.message().c_str(); }

 private:
  Status status_;
};

/// Throws StatusError when `status` is an error.
inline void Check(Status status) {
  if (!status.ok()) throw StatusError(std::move(status));
}

/// Throws io.rowbridge.RowbridgeException(message, code) in `env`. `message`
/// is UTF-8 (invalid sequences become U+FFFD).
void ThrowRowbridgeException(JNIEnv* env, int code, const std::string& message) noexcept;

/// Runs `body` and returns its result. Any C++ exception, and any error
/// status raised through Check, becomes a pending Java exception, and
/// `on_error` is returned instead.
template <typename Result, typename Body>
Result Guard(JNIEnv* env, Result on_error, Body&& body) noexcept {
  try {
    return body();
  } catch (const StatusError& e) {
    ThrowRowbridgeException(env, static_cast<int>(e.status().code()), e.status().message());
  } catch (const std::bad_alloc&) {
    ThrowRowbridgeException(env, ROWBRIDGE_ENOMEM, "rowbridge: out of native memory");
  } catch (const std::exception& e) {
    ThrowRowbridgeException(env, ROWBRIDGE_EIO,
                            std::string("rowbridge: unexpected C++ exception: ") + e.what());
  } catch (...) {
    ThrowRowbridgeException(env, ROWBRIDGE_EIO,
                            "rowbridge: unexpected C++ exception of unknown type");
  }
  return on_error;
}

/// The same, for entry points that return nothing.
template <typename Body>
void GuardVoid(JNIEnv* env, Body&& body) noexcept {
  Guard(env, 0, [&] {
    body();
    return 0;
  });
}

}  // namespace rowbridge::jni
