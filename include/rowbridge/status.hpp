// Status: the result of every fallible rowbridge operation.
#pragma once

#include <memory>
#include <string>
#include <utility>

#include "rowbridge/status_codes.h"

namespace rowbridge {

/// Errno-style outcome codes, identical to the ROWBRIDGE_* codes of the C API.
enum class StatusCode : int {
  kOk = ROWBRIDGE_OK,
  kInvalid = ROWBRIDGE_EINVAL,
  kNotSupported = ROWBRIDGE_ENOTSUP,
  kOutOfMemory = ROWBRIDGE_ENOMEM,
  kOverflow = ROWBRIDGE_EOVERFLOW,
  kCapacity = ROWBRIDGE_E2BIG,
  kInternal = ROWBRIDGE_EIO,
  kCancelled = ROWBRIDGE_ECANCELED,
};

/// A status code plus a human-readable message. The OK status is one integer
/// and a null pointer, so creating, returning and testing it costs next to
/// nothing on hot paths; an error owns its message.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message)
      : code_(code),
        message_(code == StatusCode::kOk ? nullptr
                                         : std::make_unique<std::string>(std::move(message))) {}
  Status(const Status& other)
      : code_(other.code_),
        message_(other.message_ ? std::make_unique<std::string>(*other.message_) : nullptr) {}
  Status(Status&&) noexcept = default;
  Status& operator=(const Status& other) {
    if (this != &other) *this = Status(other);
    return *this;
  }
  Status& operator=(Status&&) noexcept = default;

  static Status Ok() { return Status(); }
  static Status Invalid(std::string message) { return {StatusCode::kInvalid, std::move(message)}; }
  static Status NotSupported(std::string message) {
    return {StatusCode::kNotSupported, std::move(message)};
  }
  static Status Overflow(std::string message) {
    return {StatusCode::kOverflow, std::move(message)};
  }
  static Status Capacity(std::string message) {
    return {StatusCode::kCapacity, std::move(message)};
  }
  static Status OutOfMemory(std::string message) {
    return {StatusCode::kOutOfMemory, std::move(message)};
  }
  static Status Internal(std::string message) {
    return {StatusCode::kInternal, std::move(message)};
  }
  static Status Cancelled(std::string message) {
    return {StatusCode::kCancelled, std::move(message)};
  }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  /// The message; empty for the OK status.
  const std::string& message() const { return message_ ? *message_ : EmptyMessage(); }

  /// Returns a copy of this status whose message starts with `context`.
  Status WithContext(const std::string& context) const {
    if (ok()) return Status();
    return Status(code_, context + ": " + message());
  }

 private:
  static const std::string& EmptyMessage() {
    static const std::string kEmpty;
    return kEmpty;
  }

  StatusCode code_ = StatusCode::kOk;
  std::unique_ptr<std::string> message_;
};

}  // namespace rowbridge

/// Returns from the enclosing function when `expr` yields an error status.
#define ROWBRIDGE_RETURN_NOT_OK(expr)                      \
  do {                                                     \
    ::rowbridge::Status rowbridge_status_ = (expr);        \
    if (!rowbridge_status_.ok()) return rowbridge_status_; \
  } while (false)
