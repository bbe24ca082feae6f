// StreamCore: claims, deposits, the K/W bound, cancellation.
#include "stream/stream_core.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <new>
#include <string>

#include "stream/schema_copy.hpp"

namespace rowbridge::stream::detail {
namespace {

/// Caps on K and W, so that the per-stream item set stays a sane size.
constexpr int32_t kMaxPrefetch = 1 << 16;
constexpr int32_t kMaxInFlight = 1 << 16;

std::string BatchName(int64_t index) {
  return index < 0 ? "stream: reading the schema" : "batch " + std::to_string(index);
}

/// Runs `body` (returning a Status), turning exceptions into errors that name
/// batch `index` (-1: the schema) and `who` threw. Throws only bad_alloc,
/// when even the error message cannot be allocated.
template <typename Body>
Status Guard(int64_t index, const char* who, Body&& body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory(BatchName(index) + ": out of memory in the " + who);
  } catch (const std::exception& e) {
    return Status::Internal(BatchName(index) + ": the " + who + " threw an exception: " + e.what());
  } catch (...) {
    return Status::Internal(BatchName(index) + ": the " + who + " threw a non-standard exception");
  }
}

}  // namespace

void ReleaseArray(ArrowArray* array) {
  if (array->release != nullptr) array->release(array);
  *array = ArrowArray{};
}

Status CancelledStatus(const std::string& why) { return Status(kCancelled, why); }

Status StreamCore::Make(std::unique_ptr<BatchProducer> producer, const StageFactory& make_stage,
                        const StreamOptions& options, std::shared_ptr<StreamCore>* out) {
  if (producer == nullptr) return Status::Invalid("stream: no producer (null)");
  if (options.prefetch < 0 || options.prefetch > kMaxPrefetch) {
    return Status::Invalid("stream: prefetch " + std::to_string(options.prefetch) +
                           " is out of range (0 to " + std::to_string(kMaxPrefetch) + ")");
  }
  if (options.in_flight < 1 || options.in_flight > kMaxInFlight) {
    return Status::Invalid("stream: in_flight " + std::to_string(options.in_flight) +
                           " is out of range (1 to " + std::to_string(kMaxInFlight) + ")");
  }
  if (options.wake_period.count() <= 0) {
    return Status::Invalid("stream: the wake period must be positive");
  }
  try {
    std::shared_ptr<StreamCore> core(new StreamCore());
    core->pool_ = options.pool;
    if (core->pool_ == nullptr) ROWBRIDGE_RETURN_NOT_OK(WorkerPool::Default(&core->pool_));
    ROWBRIDGE_RETURN_NOT_OK(
        Guard(-1, "producer", [&] { return producer->ExportSchema(&core->schema_); }));
    if (core->schema_.release == nullptr) {
      return Status::Invalid("stream: the producer exported a released schema");
    }
    if (make_stage) ROWBRIDGE_RETURN_NOT_OK(make_stage(core->schema_, &core->stage_));
    core->parallel_ = producer->parallel();
    int64_t count = producer->num_batches();
    if (count >= 0) core->stop_index_ = count;
    core->options_ = options;
    core->prefetch_ = options.prefetch;
    core->in_flight_ = options.in_flight;
    if (options.ready_batches >= 0) core->ready_limit_ = options.ready_batches;
    size_t items = static_cast<size_t>(core->Capacity() + 1);
    core->items_.reserve(items);
    core->free_.reserve(items);
    for (size_t i = 0; i < items; ++i) {
      core->items_.push_back(std::make_unique<StreamItem>());
      core->free_.push_back(core->items_.back().get());
    }
    core->ring_.assign(static_cast<size_t>(core->Capacity()), nullptr);
    core->dropped_.reserve(items);
    core->spare_out_of_memory_ = Status::OutOfMemory("stream: out of memory");
    core->producer_ = std::move(producer);
    {
      std::lock_guard<std::mutex> lock(core->mutex_);
      core->RequestWork();
    }
    *out = std::move(core);
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("stream: out of memory starting the stream");
  }
}

StreamCore::~StreamCore() {
  for (auto& item : items_) ReleaseArray(&item->array);
  if (schema_.release != nullptr) schema_.release(&schema_);
}

int64_t StreamCore::Claimable() const {
  if (cancelled_.load(std::memory_order_relaxed) || closed_) return 0;
  int64_t limit = std::min(stop_index_, ready_limit_);
  if (claimed_ >= limit) return 0;
  int64_t free_slots = in_flight_ - SlotsInUse();
  if (free_slots <= 0) return 0;
  if (!parallel_) return sequential_busy_ ? 0 : 1;
  return std::min(free_slots, limit - claimed_);
}

void StreamCore::OpenGate(int64_t count) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (count <= ready_limit_) return;
  ready_limit_ = count;
  RequestWork();
}

int64_t StreamCore::ReserveRequests() {
  int64_t wanted = Claimable() - requests_;
  if (wanted <= 0) return 0;
  requests_ += wanted;
  return wanted;
}

int64_t StreamCore::PostRequests(int64_t count, bool worker_finishing) noexcept {
  for (; count > 0; --count) {
    try {
      PostTask(*pool_, shared_from_this(), worker_finishing);
      worker_finishing = false;  // it takes one request, not all
    } catch (...) {
      return count;
    }
  }
  return 0;
}

void StreamCore::RequestsFailed(int64_t failed) noexcept {
  requests_ -= failed;
  if (requests_ == 0 && running_ == 0) StopAt(claimed_, TakeSpareOutOfMemory());
}

void StreamCore::RequestWork(bool worker_finishing) {
  int64_t failed = PostRequests(ReserveRequests(), worker_finishing);
  if (failed > 0) RequestsFailed(failed);
}

void StreamCore::Promote() {
  while (queued_ < prefetch_) {
    int64_t next = delivered_ + queued_;
    if (next >= claimed_ || next >= stop_index_) return;
    StreamItem* item = ring_[static_cast<size_t>(next % Capacity())];
    if (item == nullptr || !item->done) return;
    ++queued_;
  }
}

void StreamCore::StopAt(int64_t index, Status status) noexcept {
  if (index >= stop_index_) return;
  stop_index_ = index;
  stop_status_ = std::move(status);
  for (int64_t later = index + 1; later < claimed_; ++later) {
    StreamItem*& slot = ring_[static_cast<size_t>(later % Capacity())];
    if (slot != nullptr && slot->done) {
      dropped_.push_back(slot);  // never grows: reserved for every item
      slot = nullptr;
    }
  }
}

Status StreamCore::TakeSpareOutOfMemory() noexcept {
  // Moving never allocates; a moved-from status keeps its code, not its message.
  Status spare = std::move(spare_out_of_memory_);
  return spare;
}

void StreamCore::Recycle(StreamItem* item) {
  item->index = -1;
  item->done = false;
  free_.push_back(item);  // never grows: reserved for every item
}

void StreamCore::NoteHeld() {
  max_held_ = std::max(max_held_, static_cast<int64_t>(items_.size() - free_.size()));
}

Status StreamCore::Produce(StreamItem* item, bool* end_of_stream) {
  item->array = ArrowArray{};
  item->input_bytes = 0;
  item->owned_bytes = 0;
  *end_of_stream = false;
  BatchProducer::BatchCounts counts;
  Status status = Guard(item->index, "producer", [&] {
    return producer_->ProduceCounted(item->index, &item->array, end_of_stream, &counts);
  });
  if (status.ok() && !*end_of_stream && item->array.release == nullptr) {
    status = Status::Invalid(BatchName(item->index) + ": the producer returned a released array");
  }
  if (!status.ok() || *end_of_stream) {
    ReleaseArray(&item->array);
    return status;
  }
  item->input_bytes = counts.input_bytes;
  item->owned_bytes = std::max<int64_t>(counts.owned_bytes, 0);
  AddBytesHeld(item->owned_bytes);
  return status;
}

void StreamCore::ReleaseItemArray(StreamItem* item) {
  ReleaseArray(&item->array);
  AddBytesHeld(-item->owned_bytes);
  item->owned_bytes = 0;
}

void StreamCore::HandOver(StreamItem* item, ArrowArray* out) {
  *out = item->array;
  item->array = ArrowArray{};
  AddBytesHeld(-item->owned_bytes);
  item->owned_bytes = 0;
}

StreamItem* StreamCore::Claim() noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  --requests_;
  if (Claimable() <= 0) return nullptr;
  StreamItem* item = free_.back();
  free_.pop_back();
  item->index = claimed_++;
  item->done = false;
  ring_[static_cast<size_t>(item->index % Capacity())] = item;
  ++running_;
  if (!parallel_) sequential_busy_ = true;
  NoteHeld();
  return item;
}

Status StreamCore::Work(StreamItem* item, bool* end_of_stream) {
  auto start = std::chrono::steady_clock::now();
  Status status = Produce(item, end_of_stream);
  if (!parallel_) {
    // Let the next batch start while this one goes through the stage.
    std::lock_guard<std::mutex> lock(mutex_);
    sequential_busy_ = false;
    if (!status.ok() || *end_of_stream) {
      StopAt(item->index, std::move(status));
      return Status::Ok();  // the stream stops at this batch: Deposit drops it
    }
    RequestWork();
  }
  if (status.ok() && !*end_of_stream && stage_ != nullptr &&
      !cancelled_.load(std::memory_order_relaxed)) {
    int64_t row_bytes = item->row_bytes;
    status = Guard(item->index, "batch stage", [&] { return stage_->Process(item); });
    AddBytesHeld(item->row_bytes - row_bytes);  // the converter's buffers grew
  }
  item->produce_nanos =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start)
          .count();
  return status;
}

void StreamCore::Deposit(StreamItem* item, Status status, bool end_of_stream) noexcept {
  std::unique_lock<std::mutex> lock(mutex_);
  --running_;
  int64_t index = item->index;
  if (!status.ok() || end_of_stream) StopAt(index, std::move(status));
  if (index >= stop_index_) {  // the end, an error, or a batch past them: never delivered
    ring_[static_cast<size_t>(index % Capacity())] = nullptr;
    dropped_.push_back(item);
  } else {
    item->done = true;
    produce_nanos_ += item->produce_nanos;
    Promote();
  }
  for (StreamItem* dropped : dropped_) {
    ReleaseItemArray(dropped);  // rare (end or error): under the lock, kept simple
    Recycle(dropped);
  }
  dropped_.clear();
  bool wake_consumer = false;
  if (consumer_waiting_) {
    StreamItem* front = ring_[static_cast<size_t>(delivered_ % Capacity())];
    wake_consumer = delivered_ >= stop_index_ || (front != nullptr && front->done);
  }
  RequestWork(/*worker_finishing=*/true);
  bool idle = running_ == 0 && cancelled_.load(std::memory_order_relaxed);
  lock.unlock();
  if (wake_consumer) consumer_wakeup_.notify_one();
  if (idle) idle_.notify_all();
}

void StreamCore::Run() noexcept {
  StreamItem* item = Claim();
  if (item == nullptr) return;
  bool end = false;
  Status status;
  try {
    status = Work(item, &end);
  } catch (...) {  // only bad_alloc, when not even an error message fits
    status = TakeSpareOutOfMemory();
  }
  if (!status.ok() || end) ReleaseItemArray(item);
  Deposit(item, std::move(status), end);
}

namespace {

/// Adds the time since the first Start to `total` when destroyed.
class WaitTimer {
 public:
  explicit WaitTimer(std::atomic<int64_t>* total) : total_(total) {}
  ~WaitTimer() {
    if (started_) {
      total_->fetch_add(std::chrono::duration_cast<std::chrono::nanoseconds>(
                            std::chrono::steady_clock::now() - start_)
                            .count(),
                        std::memory_order_relaxed);
    }
  }
  void Start() {
    if (started_) return;
    started_ = true;
    start_ = std::chrono::steady_clock::now();
  }

 private:
  std::atomic<int64_t>* total_;
  bool started_ = false;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

Status StreamCore::Take(StreamItem** out, bool* end_of_stream, TakeWait wait) {
  *out = nullptr;
  *end_of_stream = false;
  WaitTimer timer(&wait_nanos_);
  bool period_passed = false;
  StreamItem* previous = held_;
  held_ = nullptr;
  if (previous != nullptr) ReleaseItemArray(previous);  // ours until recycled
  std::unique_lock<std::mutex> lock(mutex_);
  if (previous != nullptr && !closed_) Recycle(previous);
  for (;;) {
    if (closed_) return Status::Invalid("stream: Next after Close");
    if (cancelled_.load(std::memory_order_relaxed)) return cancel_status_;
    if (delivered_ >= stop_index_) {
      *end_of_stream = stop_status_.ok();
      return stop_status_;
    }
    StreamItem*& front = ring_[static_cast<size_t>(delivered_ % Capacity())];
    if (front != nullptr && front->done) {
      held_ = front;
      front = nullptr;
      ++delivered_;
      input_bytes_ += held_->input_bytes;
      if (queued_ > 0) --queued_;
      Promote();
      *out = held_;
      // Wake a worker only for a slot this freed; after unlocking, so that
      // it does not wait for this thread's lock.
      int64_t requests = ReserveRequests();
      lock.unlock();
      if (requests > 0) {
        int64_t failed = PostRequests(requests);
        if (failed > 0) {
          lock.lock();
          RequestsFailed(failed);
        }
      }
      return Status::Ok();
    }
    if (wait == TakeWait::kNone || (wait == TakeWait::kOnePeriod && period_passed)) {
      return Status::Ok();  // nothing yet: the caller comes back
    }
    timer.Start();
    period_passed = WaitForWork(&lock);
  }
}

bool StreamCore::WaitForWork(std::unique_lock<std::mutex>* lock) {
  consumer_waiting_ = true;
  std::cv_status woke = consumer_wakeup_.wait_for(*lock, options_.wake_period);
  consumer_waiting_ = false;
  if (woke == std::cv_status::no_timeout) return false;
  if (!options_.interrupted) return true;
  lock->unlock();
  bool interrupted = true;
  try {
    interrupted = options_.interrupted();
  } catch (...) {
    // An interruption check that fails counts as an interruption.
  }
  if (interrupted) CancelWith(CancelledStatus("stream: interrupted while waiting for a batch"));
  lock->lock();
  return true;
}

void StreamCore::CancelWith(Status why) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (cancelled_.load(std::memory_order_relaxed) || closed_) return;
    cancelled_.store(true, std::memory_order_relaxed);
    cancel_status_ = std::move(why);
    cancel_running_ = true;
  }
  consumer_wakeup_.notify_all();
  try {
    producer_->Cancel();
  } catch (...) {
    // Cancellation is best effort: the stream stops at the next batch anyway.
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    cancel_running_ = false;
  }
  idle_.notify_all();
}

void StreamCore::Cancel() { CancelWith(CancelledStatus("stream: cancelled")); }

void StreamCore::Close() {
  CancelWith(CancelledStatus("stream: closed"));
  std::unique_ptr<BatchProducer> producer;
  std::unique_ptr<ItemStage> stage;
  std::vector<std::unique_ptr<StreamItem>> items;
  std::shared_ptr<WorkerPool> pool;  // requests still queued hold the core, not the pool
  {
    std::unique_lock<std::mutex> lock(mutex_);
    if (closed_) return;
    idle_.wait(lock, [&] { return running_ == 0 && !cancel_running_; });
    closed_ = true;
    pool = std::move(pool_);
    producer = std::move(producer_);
    stage = std::move(stage_);
    items = std::move(items_);
    free_.clear();
    std::fill(ring_.begin(), ring_.end(), nullptr);
    held_ = nullptr;
  }
  for (auto& item : items) ReleaseArray(&item->array);
  items.clear();  // with the converters and their row buffers
  bytes_held_.store(0, std::memory_order_relaxed);
  stage.reset();
  producer.reset();
  pool.reset();
}

StreamStats StreamCore::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  StreamStats stats;
  stats.batches = delivered_;
  stats.max_batches_held = max_held_;
  stats.input_bytes = input_bytes_;
  stats.produce_nanos = produce_nanos_;
  stats.wait_nanos = wait_nanos_.load(std::memory_order_relaxed);
  stats.bytes_held = bytes_held();
  return stats;
}

Status StreamCore::ExportSchema(ArrowSchema* out) const { return CopySchema(schema_, out); }

}  // namespace rowbridge::stream::detail
