// PrefetchStream, StreamCanceller and StreamGate: handles on a StreamCore.
#include "stream/stream_core.hpp"

namespace rowbridge::stream {

void StreamCanceller::Cancel() const {
  if (std::shared_ptr<detail::StreamCore> core = core_.lock()) core->Cancel();
}

void StreamGate::Open(int64_t count) const {
  if (std::shared_ptr<detail::StreamCore> core = core_.lock()) core->OpenGate(count);
}

PrefetchStream::PrefetchStream(std::shared_ptr<detail::StreamCore> core) : core_(std::move(core)) {}

PrefetchStream::~PrefetchStream() { Close(); }

Status PrefetchStream::Make(std::unique_ptr<BatchProducer> producer, const StreamOptions& options,
                            std::unique_ptr<PrefetchStream>* out) {
  std::shared_ptr<detail::StreamCore> core;
  ROWBRIDGE_RETURN_NOT_OK(detail::StreamCore::Make(std::move(producer), {}, options, &core));
  try {
    out->reset(new PrefetchStream(core));
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    core->Close();
    return Status::OutOfMemory("stream: out of memory");
  }
}

Status PrefetchStream::ExportSchema(ArrowSchema* out) const { return core_->ExportSchema(out); }

Status PrefetchStream::Next(ArrowArray* out, bool* end_of_stream) {
  bool ready = false;
  return Poll(out, end_of_stream, &ready, detail::TakeWait::kBlock);
}

Status PrefetchStream::Poll(ArrowArray* out, bool* end_of_stream, bool* ready) {
  return Poll(out, end_of_stream, ready, detail::TakeWait::kOnePeriod);
}

Status PrefetchStream::TryNext(ArrowArray* out, bool* end_of_stream, bool* ready) {
  return Poll(out, end_of_stream, ready, detail::TakeWait::kNone);
}

Status PrefetchStream::Poll(ArrowArray* out, bool* end_of_stream, bool* ready,
                            detail::TakeWait wait) {
  *out = ArrowArray{};
  *ready = false;
  detail::StreamItem* item = nullptr;
  ROWBRIDGE_RETURN_NOT_OK(core_->Take(&item, end_of_stream, wait));
  if (item != nullptr) {
    core_->HandOver(item, out);  // moved to the caller; the empty item counts until the next call
  }
  *ready = item != nullptr || *end_of_stream;
  return Status::Ok();
}

void PrefetchStream::Cancel() { core_->Cancel(); }

StreamCanceller PrefetchStream::canceller() const { return StreamCanceller(core_); }

StreamGate PrefetchStream::gate() const { return StreamGate(core_); }

void PrefetchStream::Close() { core_->Close(); }

StreamStats PrefetchStream::stats() const { return core_->stats(); }

int64_t PrefetchStream::bytes_held() const { return core_->bytes_held(); }

}  // namespace rowbridge::stream
