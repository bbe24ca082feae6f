// MakeIpcProducer: an Arrow IPC input as a batch producer. A file is read by
// index in parallel, each concurrent call with its own IpcReader (a reader is
// used by one thread at a time) over one shared copy or mapping of the bytes.
#include <mutex>
#include <vector>

#include "ipc/input_file.hpp"
#include "rowbridge/ipc_reader.hpp"
#include "stream/schema_copy.hpp"
#include "stream/stream_core.hpp"

namespace rowbridge::stream {
namespace {

using ipc::IpcReader;

class IpcFileProducer : public BatchProducer {
 public:
  IpcFileProducer(ipc::InputBytes bytes, std::string path, const ipc::IpcReadOptions& options,
                  std::unique_ptr<IpcReader> first)
      : bytes_(std::move(bytes)), path_(std::move(path)), options_(options) {
    count_ = first->num_batches();
    idle_.push_back(std::move(first));
  }

  Status ExportSchema(ArrowSchema* out) override {
    std::unique_ptr<IpcReader> reader;
    ROWBRIDGE_RETURN_NOT_OK(Acquire(&reader));
    Status status = reader->ExportSchema(out);
    Return(std::move(reader));
    return status;
  }

  int64_t num_batches() const override { return count_; }
  bool parallel() const override { return true; }

  Status Produce(int64_t index, ArrowArray* out, bool*) override {
    std::unique_ptr<IpcReader> reader;
    ROWBRIDGE_RETURN_NOT_OK(Acquire(&reader));
    Status status = reader->ReadBatch(index, out);
    Return(std::move(reader));
    return status;
  }

 private:
  /// An idle reader, or a new one over the same bytes.
  Status Acquire(std::unique_ptr<IpcReader>* out) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!idle_.empty()) {
        *out = std::move(idle_.back());
        idle_.pop_back();
        return Status::Ok();
      }
    }
    return IpcReader::OpenBuffer(bytes_.owner, bytes_.data, bytes_.size, path_, options_, out);
  }

  void Return(std::unique_ptr<IpcReader> reader) {
    std::lock_guard<std::mutex> lock(mutex_);
    idle_.push_back(std::move(reader));  // capacity: at most one per concurrent call
  }

  ipc::InputBytes bytes_;
  std::string path_;
  ipc::IpcReadOptions options_;
  int64_t count_ = 0;
  std::mutex mutex_;
  std::vector<std::unique_ptr<IpcReader>> idle_;
};

/// The stream format: one reader, read in order.
class IpcStreamProducer : public BatchProducer {
 public:
  explicit IpcStreamProducer(std::unique_ptr<IpcReader> reader) : reader_(std::move(reader)) {}

  Status ExportSchema(ArrowSchema* out) override { return reader_->ExportSchema(out); }
  bool parallel() const override { return false; }
  Status Produce(int64_t, ArrowArray* out, bool* end_of_stream) override {
    return reader_->ReadNext(out, end_of_stream);
  }

 private:
  std::unique_ptr<IpcReader> reader_;
};

}  // namespace

Status MakeIpcProducer(const std::string& path, const ipc::IpcReadOptions& options,
                       std::unique_ptr<BatchProducer>* out) {
  try {
    ipc::InputBytes bytes;
    ROWBRIDGE_RETURN_NOT_OK(ipc::LoadInputFile(path, options.memory_map, &bytes));
    std::unique_ptr<IpcReader> reader;
    ROWBRIDGE_RETURN_NOT_OK(
        IpcReader::OpenBuffer(bytes.owner, bytes.data, bytes.size, path, options, &reader));
    if (reader->format() == ipc::IpcFormat::kStream) {
      *out = std::make_unique<IpcStreamProducer>(std::move(reader));
    } else {
      *out = std::make_unique<IpcFileProducer>(std::move(bytes), path, options, std::move(reader));
    }
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory(path + ": out of memory opening the input");
  }
}

}  // namespace rowbridge::stream
