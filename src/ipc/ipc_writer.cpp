// IpcFileWriter: Arrow C Data batches as an Arrow IPC file.
#include "rowbridge/ipc_writer.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <utility>
#include <vector>

namespace rowbridge::ipc {

struct IpcFileWriter::Impl {
  IpcSink sink;
  std::unique_ptr<IpcBatchEncoder> encoder;
  IpcLayout layout{IpcFormat::kFile};
  IpcMessage message;  // reused batch after batch
  bool failed = false;
  bool closed = false;

  Status Emit(const std::vector<uint8_t>& bytes) {
    if (bytes.empty()) return Status::Ok();
    return sink(bytes.data(), static_cast<int64_t>(bytes.size()));
  }
};

IpcFileWriter::IpcFileWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
IpcFileWriter::~IpcFileWriter() { (void)Close(); }

Status IpcFileWriter::Open(IpcSink sink, const ArrowSchema& schema, const IpcWriteOptions& options,
                           std::unique_ptr<IpcFileWriter>* out) {
  try {
    if (!sink) return Status::Invalid("IPC writer: no sink");
    auto impl = std::make_unique<Impl>();
    impl->sink = std::move(sink);
    ROWBRIDGE_RETURN_NOT_OK(IpcBatchEncoder::Make(schema, options, &impl->encoder));
    std::vector<uint8_t> start;
    ROWBRIDGE_RETURN_NOT_OK(impl->layout.Start(*impl->encoder, &start));
    ROWBRIDGE_RETURN_NOT_OK(impl->Emit(start));
    out->reset(new IpcFileWriter(std::move(impl)));
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("IPC writer: out of memory opening the file");
  }
}

Status IpcFileWriter::Open(const std::string& path, const ArrowSchema& schema,
                           const IpcWriteOptions& options, std::unique_ptr<IpcFileWriter>* out) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) {
    return Status::Invalid(path + ": cannot create the file: " + std::strerror(errno));
  }
  std::shared_ptr<std::FILE> owned(file, [](std::FILE* f) { std::fclose(f); });
  IpcSink sink = [owned, path](const uint8_t* data, int64_t size) -> Status {
    if (data == nullptr) {  // Close: flush and close
      if (std::fflush(owned.get()) != 0) {
        return Status::Invalid(path + ": cannot write: " + std::strerror(errno));
      }
      return Status::Ok();
    }
    if (std::fwrite(data, 1, static_cast<size_t>(size), owned.get()) != static_cast<size_t>(size)) {
      return Status::Invalid(path + ": cannot write: " + std::strerror(errno));
    }
    return Status::Ok();
  };
  Status status = Open(std::move(sink), schema, options, out);
  return status.ok() ? status : status.WithContext(path);
}

Status IpcFileWriter::Write(const ArrowArray& batch) {
  Impl& impl = *impl_;
  if (impl.closed) return Status::Invalid("IPC writer: Write after Close");
  if (impl.failed) return Status::Invalid("IPC writer: Write after a failed write");
  ROWBRIDGE_RETURN_NOT_OK(impl.encoder->EncodeBatch(batch, &impl.message));
  Status status = impl.Emit(impl.message.metadata);
  if (status.ok()) status = impl.Emit(impl.message.body);
  if (status.ok()) status = impl.layout.Add(impl.message);
  if (!status.ok()) impl.failed = true;
  return status;
}

Status IpcFileWriter::Close() {
  Impl& impl = *impl_;
  if (impl.closed) return Status::Ok();
  impl.closed = true;
  if (impl.failed) return Status::Invalid("IPC writer: closed after a failed write");
  std::vector<uint8_t> end;
  ROWBRIDGE_RETURN_NOT_OK(impl.layout.Finish(*impl.encoder, &end));
  ROWBRIDGE_RETURN_NOT_OK(impl.Emit(end));
  return impl.sink(nullptr, 0);
}

int64_t IpcFileWriter::bytes_written() const { return impl_->layout.position(); }

}  // namespace rowbridge::ipc
