// RowEncodeStream: a gated PrefetchStream whose producer decodes the rows of
// submitted batch i and encodes them as an IPC message. The stream's "batch"
// is an empty struct array that owns the message.
#include "rowbridge/row_encode_stream.hpp"

#include <mutex>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "rowbridge/row_decoder.hpp"
#include "stream/schema_copy.hpp"

namespace rowbridge::write {
namespace {

/// One batch of rows, borrowed from the submitting thread.
struct SubmittedRows {
  const uint8_t* data = nullptr;
  const int64_t* offsets = nullptr;
  int64_t num_rows = 0;
};

/// What one worker needs to turn rows into a message.
struct EncodeWorker {
  std::unique_ptr<RowDecoder> decoder;
  std::unique_ptr<ipc::IpcBatchEncoder> encoder;
};

/// The schema the rows decode to: the whole schema, or its one struct column.
Status RowsSchema(const ArrowSchema& schema, bool in_one_column, const ArrowSchema** out) {
  *out = &schema;
  if (!in_one_column) return Status::Ok();
  if (schema.n_children != 1 || schema.children == nullptr || schema.children[0] == nullptr ||
      schema.children[0]->format == nullptr || std::string(schema.children[0]->format) != "+s") {
    return Status::Invalid("encode stream: rows in one column need a schema of one struct column");
  }
  *out = schema.children[0];
  return Status::Ok();
}

/// Encoded messages, kept for reuse after their array is released (their
/// capacity is the size of a batch).
class MessagePool {
 public:
  explicit MessagePool(size_t keep) : keep_(keep) {}
  std::unique_ptr<ipc::IpcMessage> Get() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (free_.empty()) return std::make_unique<ipc::IpcMessage>();
    std::unique_ptr<ipc::IpcMessage> message = std::move(free_.back());
    free_.pop_back();
    return message;
  }
  void Put(std::unique_ptr<ipc::IpcMessage> message) noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    if (free_.size() < keep_) {
      try {
        free_.push_back(std::move(message));
      } catch (const std::bad_alloc&) {
        // Dropped: the message is freed here.
      }
    }
  }

 private:
  std::mutex mutex_;
  size_t keep_;
  std::vector<std::unique_ptr<ipc::IpcMessage>> free_;
};

struct MessageArrayData {
  std::unique_ptr<ipc::IpcMessage> message;
  std::shared_ptr<MessagePool> pool;
};

const void* kNoBuffers[1] = {nullptr};

void ReleaseMessageArray(ArrowArray* array) {
  auto* data = static_cast<MessageArrayData*>(array->private_data);
  if (data->pool != nullptr) data->pool->Put(std::move(data->message));
  delete data;
  array->release = nullptr;
}

/// An empty struct array owning `message`.
void WrapMessage(std::unique_ptr<ipc::IpcMessage> message, std::shared_ptr<MessagePool> pool,
                 ArrowArray* out) {
  auto* data = new MessageArrayData{std::move(message), std::move(pool)};
  *out = ArrowArray{};
  out->n_buffers = 1;
  out->buffers = kNoBuffers;
  out->private_data = data;
  out->release = ReleaseMessageArray;
}

/// The state the submitting thread and the workers share.
struct EncodeShared {
  std::mutex mutex;
  std::vector<SubmittedRows> ring;  // batch i at i % K
  std::vector<std::unique_ptr<EncodeWorker>> idle;
  ArrowSchema rows_schema{};  // the decoders' schema, for new workers
  std::unique_ptr<ipc::IpcBatchEncoder> prototype;
  std::shared_ptr<MessagePool> messages;
  bool rows_in_one_column = false;

  ~EncodeShared() {
    if (rows_schema.release != nullptr) rows_schema.release(&rows_schema);
  }
};

class EncodeProducer : public stream::BatchProducer {
 public:
  explicit EncodeProducer(std::shared_ptr<EncodeShared> shared) : shared_(std::move(shared)) {}

  Status ExportSchema(ArrowSchema* out) override {
    return stream::detail::CopySchema(shared_->rows_schema, out);
  }
  bool parallel() const override { return true; }

  Status Produce(int64_t index, ArrowArray* out, bool* end_of_stream) override {
    BatchCounts counts;
    return ProduceCounted(index, out, end_of_stream, &counts);
  }

  Status ProduceCounted(int64_t index, ArrowArray* out, bool* end_of_stream,
                        BatchCounts* counts) override {
    *end_of_stream = false;
    SubmittedRows rows;
    std::unique_ptr<EncodeWorker> worker;
    {
      std::lock_guard<std::mutex> lock(shared_->mutex);
      rows = shared_->ring[static_cast<size_t>(index) % shared_->ring.size()];
      if (!shared_->idle.empty()) {
        worker = std::move(shared_->idle.back());
        shared_->idle.pop_back();
      }
    }
    if (worker == nullptr) ROWBRIDGE_RETURN_NOT_OK(MakeWorker(&worker));
    std::unique_ptr<ipc::IpcMessage> message = shared_->messages->Get();
    Status status = Encode(*worker, rows, shared_->rows_in_one_column, message.get());
    {
      std::lock_guard<std::mutex> lock(shared_->mutex);
      shared_->idle.push_back(std::move(worker));
    }
    if (!status.ok()) return status.WithContext("batch " + std::to_string(index));
    counts->input_bytes = rows.num_rows > 0 ? rows.offsets[rows.num_rows] - rows.offsets[0] : 0;
    counts->owned_bytes =
        static_cast<int64_t>(message->metadata.capacity() + message->body.capacity());
    WrapMessage(std::move(message), shared_->messages, out);
    return Status::Ok();
  }

 private:
  Status MakeWorker(std::unique_ptr<EncodeWorker>* out) {
    auto worker = std::make_unique<EncodeWorker>();
    ROWBRIDGE_RETURN_NOT_OK(RowDecoder::Make(shared_->rows_schema, &worker->decoder));
    ROWBRIDGE_RETURN_NOT_OK(shared_->prototype->Clone(&worker->encoder));
    *out = std::move(worker);
    return Status::Ok();
  }

  static Status Encode(EncodeWorker& worker, const SubmittedRows& rows, bool in_one_column,
                       ipc::IpcMessage* out) {
    ArrowArray batch{};
    ROWBRIDGE_RETURN_NOT_OK(worker.decoder->Decode(rows.data, rows.offsets, rows.num_rows, &batch));
    Status status;
    if (in_one_column) {
      // A struct batch of one column, the decoded batch: borrowed for the call.
      ArrowArray* column = &batch;
      ArrowArray outer{};
      outer.length = batch.length;
      outer.n_buffers = 1;
      outer.buffers = kNoBuffers;
      outer.n_children = 1;
      outer.children = &column;
      outer.release = ReleaseBorrowed;
      status = worker.encoder->EncodeBatch(outer, out);
    } else {
      status = worker.encoder->EncodeBatch(batch, out);
    }
    batch.release(&batch);
    return status;
  }

  static void ReleaseBorrowed(ArrowArray* array) { array->release = nullptr; }

  std::shared_ptr<EncodeShared> shared_;
};

}  // namespace

struct RowEncodeStream::Impl {
  std::shared_ptr<EncodeShared> shared;
  std::unique_ptr<stream::PrefetchStream> stream;
  stream::StreamGate gate;
  ipc::IpcLayout layout{ipc::IpcFormat::kFile};
  int64_t max_ahead = 0;
  int64_t submitted = 0;
  int64_t taken = 0;
  ArrowArray held{};  // the array of the message Next returned last
  Status failure;
  bool started = false;
  bool finished = false;
  bool closed = false;

  void ReleaseHeld() {
    if (held.release != nullptr) held.release(&held);
  }
};

RowEncodeStream::RowEncodeStream(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
RowEncodeStream::~RowEncodeStream() { Close(); }

Status RowEncodeStream::Make(const ArrowSchema& schema, const RowEncodeOptions& options,
                             std::unique_ptr<RowEncodeStream>* out) {
  try {
    if (options.max_ahead < 1) {
      return Status::Invalid("encode stream: max_ahead must be at least 1, not " +
                             std::to_string(options.max_ahead));
    }
    auto shared = std::make_shared<EncodeShared>();
    shared->ring.resize(static_cast<size_t>(options.max_ahead));
    shared->messages = std::make_shared<MessagePool>(static_cast<size_t>(options.max_ahead) + 1);
    // The decoder checks that rows can decode to the schema; the encoder, that
    // the IPC writer writes it.
    shared->rows_in_one_column = options.rows_in_one_column;
    const ArrowSchema* rows_schema = nullptr;
    ROWBRIDGE_RETURN_NOT_OK(RowsSchema(schema, options.rows_in_one_column, &rows_schema));
    std::unique_ptr<RowDecoder> decoder;
    ROWBRIDGE_RETURN_NOT_OK(RowDecoder::Make(*rows_schema, &decoder));
    ROWBRIDGE_RETURN_NOT_OK(decoder->ExportSchema(&shared->rows_schema));
    ROWBRIDGE_RETURN_NOT_OK(ipc::IpcBatchEncoder::Make(schema, options.ipc, &shared->prototype));
    auto worker = std::make_unique<EncodeWorker>();
    worker->decoder = std::move(decoder);
    ROWBRIDGE_RETURN_NOT_OK(shared->prototype->Clone(&worker->encoder));
    shared->idle.push_back(std::move(worker));

    auto impl = std::make_unique<Impl>();
    impl->shared = shared;
    impl->layout = ipc::IpcLayout(options.format);
    impl->max_ahead = options.max_ahead;
    stream::StreamOptions stream_options;
    stream_options.prefetch = options.max_ahead;
    stream_options.in_flight = options.max_ahead;
    stream_options.pool = options.pool;
    stream_options.wake_period = options.wake_period;
    stream_options.ready_batches = 0;
    ROWBRIDGE_RETURN_NOT_OK(stream::PrefetchStream::Make(std::make_unique<EncodeProducer>(shared),
                                                         stream_options, &impl->stream));
    impl->gate = impl->stream->gate();
    out->reset(new RowEncodeStream(std::move(impl)));
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("encode stream: out of memory starting");
  }
}

Status RowEncodeStream::Start(std::vector<uint8_t>* out) {
  Impl& impl = *impl_;
  if (impl.closed) return Status::Invalid("encode stream: Start after Close");
  if (impl.started) return Status::Invalid("encode stream: Start called twice");
  impl.started = true;
  return impl.layout.Start(*impl.shared->prototype, out);
}

Status RowEncodeStream::Submit(const uint8_t* data, const int64_t* row_offsets, int64_t num_rows) {
  Impl& impl = *impl_;
  if (impl.closed || impl.finished) return Status::Invalid("encode stream: Submit after the end");
  if (!impl.failure.ok()) return impl.failure;
  if (num_rows < 0) return Status::Invalid("encode stream: a negative row count");
  if (num_rows > 0 && (data == nullptr || row_offsets == nullptr)) {
    return Status::Invalid("encode stream: rows at address 0");
  }
  if (impl.submitted - impl.taken >= impl.max_ahead) {
    return Status::Invalid("encode stream: " + std::to_string(impl.max_ahead) +
                           " batches already wait; take one first");
  }
  {
    std::lock_guard<std::mutex> lock(impl.shared->mutex);
    impl.shared->ring[static_cast<size_t>(impl.submitted % impl.max_ahead)] = {data, row_offsets,
                                                                               num_rows};
  }
  ++impl.submitted;
  impl.gate.Open(impl.submitted);
  return Status::Ok();
}

Status RowEncodeStream::Next(bool wait, const ipc::IpcMessage** message, bool* ready) {
  Impl& impl = *impl_;
  *message = nullptr;
  *ready = false;
  impl.ReleaseHeld();
  if (impl.closed) return Status::Invalid("encode stream: Next after Close");
  if (!impl.failure.ok()) return impl.failure;
  if (impl.taken == impl.submitted) return Status::Ok();
  bool end_of_stream = false;
  bool got = false;
  ArrowArray array{};
  Status status = wait ? impl.stream->Poll(&array, &end_of_stream, &got)
                       : impl.stream->TryNext(&array, &end_of_stream, &got);
  if (status.ok() && end_of_stream) status = Status::Invalid("encode stream: ended early");
  if (!status.ok()) {
    if (array.release != nullptr) array.release(&array);
    impl.failure = status;
    return status;
  }
  if (!got) return Status::Ok();
  impl.held = array;
  const ipc::IpcMessage& taken = *static_cast<MessageArrayData*>(array.private_data)->message;
  ROWBRIDGE_RETURN_NOT_OK(impl.layout.Add(taken));
  ++impl.taken;
  *message = &taken;
  *ready = true;
  return Status::Ok();
}

int64_t RowEncodeStream::pending() const { return impl_->submitted - impl_->taken; }

Status RowEncodeStream::Finish(std::vector<uint8_t>* out) {
  Impl& impl = *impl_;
  impl.ReleaseHeld();
  if (impl.closed) return Status::Invalid("encode stream: Finish after Close");
  if (!impl.failure.ok()) return impl.failure;
  if (!impl.started) return Status::Invalid("encode stream: Finish before Start");
  if (impl.finished) return Status::Invalid("encode stream: Finish called twice");
  if (impl.taken != impl.submitted) {
    return Status::Invalid("encode stream: Finish with " +
                           std::to_string(impl.submitted - impl.taken) + " batches not taken");
  }
  impl.finished = true;
  return impl.layout.Finish(*impl.shared->prototype, out);
}

int64_t RowEncodeStream::position() const { return impl_->layout.position(); }

int64_t RowEncodeStream::bytes_held() const {
  return impl_->closed ? 0 : impl_->stream->bytes_held();
}

void RowEncodeStream::Cancel() {
  if (impl_->stream != nullptr) impl_->stream->Cancel();
}

void RowEncodeStream::Close() {
  Impl& impl = *impl_;
  if (impl.closed) return;
  impl.closed = true;
  impl.ReleaseHeld();
  impl.stream->Close();  // the workers have left every batch: no rows are borrowed
}

}  // namespace rowbridge::write
