// ExportArrayStream: an IpcReader behind the C stream interface.
#include <new>
#include <string>

#include "rowbridge/ipc_reader.hpp"

namespace rowbridge::ipc {
namespace {

struct StreamPrivate {
  std::unique_ptr<IpcReader> reader;
  std::string last_error;
};

int Report(StreamPrivate* p, const Status& status) {
  if (status.ok()) return 0;
  p->last_error = status.message();
  return static_cast<int>(status.code());
}

int GetSchema(ArrowArrayStream* stream, ArrowSchema* out) {
  auto* p = static_cast<StreamPrivate*>(stream->private_data);
  try {
    return Report(p, p->reader->ExportSchema(out));
  } catch (const std::bad_alloc&) {
    return Report(p, Status::OutOfMemory("out of memory"));
  }
}

int GetNext(ArrowArrayStream* stream, ArrowArray* out) {
  auto* p = static_cast<StreamPrivate*>(stream->private_data);
  try {
    bool end = false;
    Status status = p->reader->ReadNext(out, &end);
    if (status.ok() && end) out->release = nullptr;
    return Report(p, status);
  } catch (const std::bad_alloc&) {
    return Report(p, Status::OutOfMemory("out of memory"));
  }
}

const char* GetLastError(ArrowArrayStream* stream) {
  auto* p = static_cast<StreamPrivate*>(stream->private_data);
  return p->last_error.empty() ? nullptr : p->last_error.c_str();
}

void Release(ArrowArrayStream* stream) {
  delete static_cast<StreamPrivate*>(stream->private_data);
  stream->release = nullptr;
}

}  // namespace

Status ExportArrayStream(std::unique_ptr<IpcReader> reader, ArrowArrayStream* out) {
  if (reader == nullptr) return Status::Invalid("ExportArrayStream: null reader");
  try {
    auto* p = new StreamPrivate;
    p->reader = std::move(reader);
    out->get_schema = GetSchema;
    out->get_next = GetNext;
    out->get_last_error = GetLastError;
    out->release = Release;
    out->private_data = p;
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("out of memory exporting a stream");
  }
}

}  // namespace rowbridge::ipc
