// Producers that can only go in order: a C++ function and an Arrow C stream.
#include <string>

#include "stream/schema_copy.hpp"
#include "stream/stream_core.hpp"

namespace rowbridge::stream {
namespace {

/// Takes `*schema` over, leaving it released.
ArrowSchema TakeSchema(ArrowSchema* schema) {
  ArrowSchema taken = *schema;
  schema->release = nullptr;
  return taken;
}

class FunctionProducer : public BatchProducer {
 public:
  FunctionProducer(ArrowSchema schema, NextBatchFunction function)
      : schema_(schema), function_(std::move(function)) {}
  ~FunctionProducer() override {
    if (schema_.release != nullptr) schema_.release(&schema_);
  }

  Status ExportSchema(ArrowSchema* out) override { return detail::CopySchema(schema_, out); }
  bool parallel() const override { return false; }
  Status Produce(int64_t, ArrowArray* out, bool* end_of_stream) override {
    return function_(out, end_of_stream);
  }

 private:
  ArrowSchema schema_;
  NextBatchFunction function_;
};

class ArrayStreamProducer : public BatchProducer {
 public:
  explicit ArrayStreamProducer(ArrowArrayStream source) : source_(source) {}
  ~ArrayStreamProducer() override {
    if (source_.release != nullptr) source_.release(&source_);
  }

  Status ExportSchema(ArrowSchema* out) override {
    *out = ArrowSchema{};
    if (source_.get_schema == nullptr || source_.get_next == nullptr) {
      return Status::Invalid("source stream: get_schema or get_next is null");
    }
    int code = source_.get_schema(&source_, out);
    if (code != 0) return SourceError(code, "get_schema");
    if (out->release == nullptr) {
      return Status::Invalid("source stream: get_schema returned a released schema");
    }
    return Status::Ok();
  }

  bool parallel() const override { return false; }

  Status Produce(int64_t index, ArrowArray* out, bool* end_of_stream) override {
    int code = source_.get_next(&source_, out);
    if (code != 0) {
      return SourceError(code, "get_next of batch " + std::to_string(index));
    }
    *end_of_stream = out->release == nullptr;
    return Status::Ok();
  }

 private:
  Status SourceError(int code, const std::string& call) {
    const char* message =
        source_.get_last_error == nullptr ? nullptr : source_.get_last_error(&source_);
    std::string text = "source stream: " + call + " failed with code " + std::to_string(code);
    if (message != nullptr) text += ": " + std::string(message);
    StatusCode status_code = code == kCancelledErrno ? kCancelled : StatusCode::kInvalid;
    switch (code) {
      case ROWBRIDGE_ENOMEM: status_code = StatusCode::kOutOfMemory; break;
      case ROWBRIDGE_ENOTSUP: status_code = StatusCode::kNotSupported; break;
      case ROWBRIDGE_EOVERFLOW: status_code = StatusCode::kOverflow; break;
      case ROWBRIDGE_E2BIG: status_code = StatusCode::kCapacity; break;
      case ROWBRIDGE_EIO: status_code = StatusCode::kInternal; break;
      default: break;
    }
    return Status(status_code, text);
  }

  ArrowArrayStream source_;
};

}  // namespace

Status MakeFunctionProducer(ArrowSchema* schema, NextBatchFunction function,
                            std::unique_ptr<BatchProducer>* out) {
  if (schema == nullptr || schema->release == nullptr) {
    return Status::Invalid("function producer: no schema (null or released)");
  }
  if (!function) return Status::Invalid("function producer: no function (empty)");
  ArrowSchema taken = TakeSchema(schema);
  try {
    *out = std::make_unique<FunctionProducer>(taken, std::move(function));
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    taken.release(&taken);
    return Status::OutOfMemory("function producer: out of memory");
  }
}

Status MakeArrayStreamProducer(ArrowArrayStream* source, std::unique_ptr<BatchProducer>* out) {
  if (source == nullptr || source->release == nullptr) {
    return Status::Invalid("stream producer: no source stream (null or released)");
  }
  ArrowArrayStream taken = *source;
  source->release = nullptr;
  try {
    *out = std::make_unique<ArrayStreamProducer>(taken);
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    taken.release(&taken);
    return Status::OutOfMemory("stream producer: out of memory");
  }
}

}  // namespace rowbridge::stream
