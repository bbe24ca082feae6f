// ExportArrayStream: a PrefetchStream behind the Arrow C Stream Interface.
// Every callback catches everything: nothing unwinds into the caller.
#include <cerrno>
#include <new>
#include <string>

#include "rowbridge/stream.hpp"

namespace rowbridge::stream {
namespace {

struct ExportedStream {
  std::unique_ptr<PrefetchStream> stream;
  StreamCanceller canceller;
  std::string last_error;
};

ExportedStream* Private(ArrowArrayStream* stream) {
  return static_cast<ExportedStream*>(stream->private_data);
}

/// Records the message of a failed `status` and returns its errno value.
int Report(ExportedStream* exported, const Status& status) noexcept {
  if (status.ok()) return 0;
  try {
    exported->last_error = status.message();
  } catch (...) {
    exported->last_error.clear();
  }
  int code = static_cast<int>(status.code());
  return code > 0 ? code : EIO;
}

template <typename Body>
int Guard(ArrowArrayStream* stream, Body&& body) noexcept {
  if (stream == nullptr || stream->private_data == nullptr) return EINVAL;
  ExportedStream* exported = Private(stream);
  try {
    return Report(exported, body(exported));
  } catch (const std::bad_alloc&) {
    return Report(exported, Status::OutOfMemory("stream: out of memory"));
  } catch (const std::exception& e) {
    return Report(exported,
                  Status::Internal(std::string("stream: unexpected exception: ") + e.what()));
  } catch (...) {
    return Report(exported, Status::Internal("stream: unexpected non-standard exception"));
  }
}

int GetSchema(ArrowArrayStream* stream, ArrowSchema* out) noexcept {
  return Guard(stream, [&](ExportedStream* exported) {
    if (out == nullptr) return Status::Invalid("get_schema: null output");
    return exported->stream->ExportSchema(out);
  });
}

int GetNext(ArrowArrayStream* stream, ArrowArray* out) noexcept {
  return Guard(stream, [&](ExportedStream* exported) {
    if (out == nullptr) return Status::Invalid("get_next: null output");
    bool end = false;
    return exported->stream->Next(out, &end);  // at the end, *out is released
  });
}

const char* GetLastError(ArrowArrayStream* stream) noexcept {
  if (stream == nullptr || stream->private_data == nullptr) return nullptr;
  const std::string& message = Private(stream)->last_error;
  return message.empty() ? nullptr : message.c_str();
}

void Release(ArrowArrayStream* stream) noexcept {
  if (stream == nullptr || stream->release == nullptr) return;
  // Closing waits for running batches and releases everything; it throws
  // nothing, and destroying the producer must not either.
  delete Private(stream);
  stream->private_data = nullptr;
  stream->release = nullptr;
}

}  // namespace

Status ExportArrayStream(std::unique_ptr<PrefetchStream> stream, ArrowArrayStream* out) {
  if (stream == nullptr) return Status::Invalid("ExportArrayStream: no stream (null)");
  if (out == nullptr) return Status::Invalid("ExportArrayStream: null output");
  try {
    auto* exported = new ExportedStream;
    exported->canceller = stream->canceller();
    exported->stream = std::move(stream);
    out->get_schema = GetSchema;
    out->get_next = GetNext;
    out->get_last_error = GetLastError;
    out->private_data = exported;
    out->release = Release;
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("ExportArrayStream: out of memory");
  }
}

Status ArrayStreamCanceller(const ArrowArrayStream* stream, StreamCanceller* out) {
  if (stream == nullptr || stream->release != Release || stream->private_data == nullptr) {
    return Status::Invalid("not a live stream exported by rowbridge::stream::ExportArrayStream");
  }
  *out = static_cast<const ExportedStream*>(stream->private_data)->canceller;
  return Status::Ok();
}

}  // namespace rowbridge::stream
