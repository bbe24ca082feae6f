// MakeIpcProducer: an Arrow IPC input as a batch producer. A file is read by
// index in parallel, each concurrent call with its own IpcReader (a reader is
// used by one thread at a time), cloned from the first over the same bytes.
#include "scan/ipc_producer.hpp"

#include <mutex>
#include <new>
#include <string>
#include <vector>

namespace rowbridge::scan {
namespace {

using ipc::IpcReader;

class IpcFileProducer : public stream::BatchProducer {
 public:
  IpcFileProducer(std::unique_ptr<IpcReader> first, int64_t first_batch, int64_t count,
                  ProducedBatchHook hook)
      : first_batch_(first_batch), count_(count), hook_(std::move(hook)) {
    idle_.push_back(std::move(first));
  }

  Status ExportSchema(ArrowSchema* out) override {
    std::lock_guard<std::mutex> lock(mutex_);
    return idle_.front()->ExportSchema(out);
  }

  int64_t num_batches() const override { return count_; }
  bool parallel() const override { return true; }

  Status Produce(int64_t index, ArrowArray* out, bool* end_of_stream) override {
    BatchCounts counts;
    return ProduceCounted(index, out, end_of_stream, &counts);
  }

  Status ProduceCounted(int64_t index, ArrowArray* out, bool*, BatchCounts* counts) override {
    std::unique_ptr<IpcReader> reader;
    ROWBRIDGE_RETURN_NOT_OK(Acquire(&reader));
    int64_t before = reader->body_bytes_read();
    int64_t owned_before = reader->owned_bytes_read();
    Status status = reader->ReadBatch(first_batch_ + index, out);
    counts->input_bytes = reader->body_bytes_read() - before;
    counts->owned_bytes = reader->owned_bytes_read() - owned_before;
    Return(std::move(reader));
    if (status.ok() && hook_) status = hook_(first_batch_ + index, out);
    return status;
  }

 private:
  /// An idle reader, or a clone of the first (kept as the model for
  /// clones). Cloning happens under the lock, at most once per concurrent
  /// call over the stream's life.
  Status Acquire(std::unique_ptr<IpcReader>* out) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (idle_.size() > 1) {
      *out = std::move(idle_.back());
      idle_.pop_back();
      return Status::Ok();
    }
    return idle_.front()->Clone(out);
  }

  void Return(std::unique_ptr<IpcReader> reader) {
    std::lock_guard<std::mutex> lock(mutex_);
    idle_.push_back(std::move(reader));  // at most one per concurrent call, plus the model
  }

  int64_t first_batch_ = 0;
  int64_t count_ = 0;
  ProducedBatchHook hook_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<IpcReader>> idle_;
};

/// The stream format: one reader, read in order.
class IpcStreamProducer : public stream::BatchProducer {
 public:
  IpcStreamProducer(std::unique_ptr<IpcReader> reader, int64_t first_batch, int64_t count)
      : reader_(std::move(reader)), skip_(first_batch), first_batch_(first_batch), count_(count) {}

  Status ExportSchema(ArrowSchema* out) override { return reader_->ExportSchema(out); }
  int64_t num_batches() const override { return count_; }
  bool parallel() const override { return false; }

  Status Produce(int64_t index, ArrowArray* out, bool* end_of_stream) override {
    BatchCounts counts;
    return ProduceCounted(index, out, end_of_stream, &counts);
  }

  Status ProduceCounted(int64_t index, ArrowArray* out, bool* end_of_stream,
                        BatchCounts* counts) override {
    for (; skip_ > 0; --skip_) {  // the batches before the range
      ArrowArray dropped{};
      ROWBRIDGE_RETURN_NOT_OK(reader_->ReadNext(&dropped, end_of_stream));
      if (*end_of_stream) return RangeError(index);
      dropped.release(&dropped);
    }
    int64_t before = reader_->body_bytes_read();
    int64_t owned_before = reader_->owned_bytes_read();
    ROWBRIDGE_RETURN_NOT_OK(reader_->ReadNext(out, end_of_stream));
    counts->input_bytes = reader_->body_bytes_read() - before;
    counts->owned_bytes = reader_->owned_bytes_read() - owned_before;
    if (*end_of_stream && count_ >= 0) return RangeError(index);
    return Status::Ok();
  }

 private:
  Status RangeError(int64_t index) const {
    return Status::Invalid(reader_->name() + ": the stream ends before batch " +
                           std::to_string(first_batch_ + index) + " of the range");
  }

  std::unique_ptr<IpcReader> reader_;
  int64_t skip_ = 0;
  int64_t first_batch_ = 0;
  int64_t count_ = -1;
};

Status CheckRange(const std::string& path, const IpcScanOptions& options, int64_t available) {
  if (options.first_batch < 0 || options.batch_count < -1) {
    return Status::Invalid(path + ": invalid batch range (first " +
                           std::to_string(options.first_batch) + ", count " +
                           std::to_string(options.batch_count) + ")");
  }
  if (available < 0) return Status::Ok();  // a stream: checked while reading
  int64_t end = options.batch_count < 0 ? available : options.first_batch + options.batch_count;
  if (options.first_batch > available || end > available || end < options.first_batch) {
    return Status::Invalid(path + ": batch range [" + std::to_string(options.first_batch) + ", " +
                           std::to_string(end) + ") is outside the file's " +
                           std::to_string(available) + " record batches");
  }
  return Status::Ok();
}

}  // namespace

Status MakeIpcProducer(std::unique_ptr<IpcReader> reader, const IpcScanOptions& options,
                       ProducedBatchHook hook, std::unique_ptr<stream::BatchProducer>* out) {
  try {
    const std::string& name = reader->name();
    bool file = reader->format() == ipc::IpcFormat::kFile;
    ROWBRIDGE_RETURN_NOT_OK(CheckRange(name, options, file ? reader->num_batches() : -1));
    if (!file) {
      *out = std::make_unique<IpcStreamProducer>(std::move(reader), options.first_batch,
                                                 options.batch_count);
      return Status::Ok();
    }
    int64_t count = options.batch_count >= 0 ? options.batch_count
                                             : reader->num_batches() - options.first_batch;
    *out = std::make_unique<IpcFileProducer>(std::move(reader), options.first_batch, count,
                                             std::move(hook));
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("out of memory making the producer of an IPC input");
  }
}

Status MakeIpcProducer(const std::string& path, const IpcScanOptions& options,
                       std::unique_ptr<stream::BatchProducer>* out) {
  std::unique_ptr<IpcReader> reader;
  ROWBRIDGE_RETURN_NOT_OK(IpcReader::Open(path, options.read, &reader));
  return MakeIpcProducer(std::move(reader), options, {}, out);
}

Status MakeIpcProducer(const std::string& path, const ipc::IpcReadOptions& options,
                       std::unique_ptr<stream::BatchProducer>* out) {
  IpcScanOptions scan;
  scan.read = options;
  return MakeIpcProducer(path, scan, out);
}

}  // namespace rowbridge::scan
