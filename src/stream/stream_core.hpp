// StreamCore: the shared state of one prefetch stream, between its consumer
// and the pool workers producing its batches.
//
// Batches are claimed by index in order. Claimed batches [delivered_,
// claimed_) sit in a ring of K + W items; the first `queued_` of them are
// finished and count against K, the others hold one of the W production
// slots, finished or not. A worker never waits: it produces, deposits the
// batch in its item, moves finished batches from slots to the queue while
// the queue has room, and asks the pool for more work only for slots that are
// free. The consumer takes the first item when it is finished.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "rowbridge/stream.hpp"
#include "stream/pool_task.hpp"

namespace rowbridge::stream::detail {

/// One batch of a stream, reused: produced into by one worker, then handed
/// to the consumer, then given back. Only its current owner touches it.
struct StreamItem {
  int64_t index = -1;
  ArrowArray array{};
  bool done = false;
  /// What producing the batch took: input bytes, worker nanoseconds.
  int64_t input_bytes = 0;
  int64_t produce_nanos = 0;
  /// What `array` holds for itself (BatchCounts::owned_bytes), counted in
  /// the stream's bytes_held while the item holds the array.
  int64_t owned_bytes = 0;
  /// Row stage state, kept across reuses. `row_bytes`: what the converter
  /// holds (Converter::buffer_bytes, which never shrinks), set by the stage
  /// after each conversion; the stream counts its growth in bytes_held.
  std::unique_ptr<Converter> converter;
  RowBatchView rows;
  int64_t row_bytes = 0;
  /// The row stage's own per-item state (the batch with its constant
  /// columns appended), kept across reuses.
  std::shared_ptr<void> stage_state;

  /// Raises row_bytes to what the converter holds now; returns by how much.
  int64_t NoteConverter() {
    const int64_t bytes = converter == nullptr ? 0 : converter->buffer_bytes();
    if (bytes <= row_bytes) return 0;
    const int64_t growth = bytes - row_bytes;
    row_bytes = bytes;
    return growth;
  }
};

/// Work run by the producing worker on a finished batch, in parallel with
/// other batches (e.g. conversion to rows). Must be thread-safe across
/// distinct items.
class ItemStage {
 public:
  virtual ~ItemStage() = default;
  virtual Status Process(StreamItem* item) = 0;
};

/// Makes the stage of a stream from its schema (borrowed), before any batch
/// is produced.
using StageFactory =
    std::function<Status(const ArrowSchema& schema, std::unique_ptr<ItemStage>* out)>;

/// Releases `array` when it holds data; marks it released.
void ReleaseArray(ArrowArray* array);

/// The status of a cancelled stream, with `why`.
Status CancelledStatus(const std::string& why);

/// How long StreamCore::Take waits for a batch that is not ready.
enum class TakeWait : int32_t { kBlock, kOnePeriod, kNone };

class StreamCore : public PoolTask, public std::enable_shared_from_this<StreamCore> {
 public:
  /// Validates `options`, reads the producer's schema, makes the stage with
  /// `make_stage` (when not empty) and asks the pool for the first batches.
  /// Takes ownership of `producer`, also on failure.
  static Status Make(std::unique_ptr<BatchProducer> producer, const StageFactory& make_stage,
                     const StreamOptions& options, std::shared_ptr<StreamCore>* out);

  ~StreamCore() override;

  /// Consumer: gives back the item taken before (if any), then takes the next
  /// finished item, waiting when there is none. On success the consumer owns
  /// `*item` until its next Take or Close. Sets `*end_of_stream` instead when
  /// every batch has been delivered. With kOnePeriod, returns OK with
  /// neither (`*item` null, `*end_of_stream` false) once a wake period
  /// passed without a batch; with kNone, at once.
  Status Take(StreamItem** item, bool* end_of_stream, TakeWait wait = TakeWait::kBlock);

  /// Consumer: the item taken last, or null.
  StreamItem* held() const { return held_; }

  /// Any thread: cancels without waiting.
  void Cancel();
  /// Any thread: batches below `count` may be claimed (StreamGate::Open).
  void OpenGate(int64_t count);
  /// Consumer: cancels, waits for running productions, releases everything.
  void Close();

  StreamStats stats() const;
  /// Any thread: StreamStats::bytes_held (an atomic read, no lock).
  int64_t bytes_held() const { return bytes_held_.load(std::memory_order_relaxed); }
  /// Adds `delta` to bytes_held: the owner of an item whose converter grew.
  void AddBytesHeld(int64_t delta) { bytes_held_.fetch_add(delta, std::memory_order_relaxed); }
  /// Consumer: moves the held item's array into `out` (the consumer owns it
  /// from now on, so it leaves bytes_held).
  void HandOver(StreamItem* item, ArrowArray* out);
  Status ExportSchema(ArrowSchema* out) const;
  const ArrowSchema& schema() const { return schema_; }

  /// Worker: runs one request (claims and produces one batch if allowed).
  void Run() noexcept override;

 private:
  StreamCore() = default;

  int64_t Capacity() const { return prefetch_ + in_flight_; }
  int64_t SlotsInUse() const { return claimed_ - delivered_ - queued_; }
  /// Batches a worker may claim now. Requires mutex_.
  int64_t Claimable() const;
  /// Counts requests for every claimable batch without a request already
  /// queued and returns how many to post. Requires mutex_.
  int64_t ReserveRequests();
  /// Queues `count` reserved requests in the pool; returns how many could not
  /// be queued (out of memory). Needs no lock: pool_ changes only in Close.
  /// `worker_finishing`: the caller is a worker about to return to the pool,
  /// which takes the first request itself.
  int64_t PostRequests(int64_t count, bool worker_finishing = false) noexcept;
  /// Gives back `failed` reserved requests; stops the stream with an error
  /// when nothing would ever run it again. Requires mutex_.
  void RequestsFailed(int64_t failed) noexcept;
  /// ReserveRequests and PostRequests, under mutex_.
  void RequestWork(bool worker_finishing = false);
  /// Moves finished batches from their slots to the queue while it has room.
  /// Requires mutex_.
  void Promote();
  /// Records that the stream ends at `index` with `status` (OK: end of
  /// stream) unless it already ends earlier; finished items after it are
  /// moved to dropped_. Requires mutex_.
  void StopAt(int64_t index, Status status) noexcept;
  /// The error for when not even an error message can be allocated: a
  /// status made at Make, moved out (later calls: the code, no message).
  Status TakeSpareOutOfMemory() noexcept;
  /// Gives items back to the free list. Requires mutex_; their arrays must
  /// already be released.
  void Recycle(StreamItem* item);
  /// Releases the item's array and takes its owned bytes off bytes_held.
  /// Only the item's owner calls it.
  void ReleaseItemArray(StreamItem* item);
  void NoteHeld();

  Status Produce(StreamItem* item, bool* end_of_stream);
  /// Worker steps of Run: claim the next batch (null: nothing to do),
  /// produce it and run the stage, then hand it in. Only Work may throw
  /// (bad_alloc, when even an error message cannot be allocated).
  StreamItem* Claim() noexcept;
  Status Work(StreamItem* item, bool* end_of_stream);
  void Deposit(StreamItem* item, Status status, bool end_of_stream) noexcept;
  /// Consumer: waits (mutex_ held by `lock`) until a worker signals or the
  /// wake period passes; then consults `interrupted` and cancels if asked.
  /// Returns true when the wake period passed.
  bool WaitForWork(std::unique_lock<std::mutex>* lock);
  /// Cancels with `why` as the status Take returns; the first call wins.
  void CancelWith(Status why);

  mutable std::mutex mutex_;
  std::condition_variable consumer_wakeup_;
  std::condition_variable idle_;

  // Fixed at Make.
  std::unique_ptr<BatchProducer> producer_;
  std::unique_ptr<ItemStage> stage_;
  std::shared_ptr<WorkerPool> pool_;  // dropped by Close, on the consumer's thread
  StreamOptions options_;
  ArrowSchema schema_{};
  bool parallel_ = false;
  int64_t prefetch_ = 1;
  int64_t in_flight_ = 2;

  // Guarded by mutex_.
  std::vector<std::unique_ptr<StreamItem>> items_;
  std::vector<StreamItem*> free_;
  std::vector<StreamItem*> ring_;     // item of batch i at i % Capacity(), or null
  std::vector<StreamItem*> dropped_;  // finished items not to deliver; capacity: all items
  Status spare_out_of_memory_;
  int64_t delivered_ = 0;            // batches handed to the consumer
  int64_t queued_ = 0;               // finished batches counted against K
  int64_t claimed_ = 0;              // batches claimed by workers
  int64_t stop_index_ = INT64_MAX;   // the batch at which the stream ends
  int64_t ready_limit_ = INT64_MAX;  // batches below it may be claimed (StreamGate)
  Status stop_status_;               // OK: end of stream; otherwise the error
  int64_t requests_ = 0;             // requests queued in the pool
  int64_t running_ = 0;              // claims not yet deposited
  bool sequential_busy_ = false;     // a sequential producer is in Produce
  bool consumer_waiting_ = false;
  bool cancel_running_ = false;  // a thread is in producer_->Cancel()
  bool closed_ = false;
  Status cancel_status_;
  int64_t max_held_ = 0;
  int64_t input_bytes_ = 0;    // of delivered batches
  int64_t produce_nanos_ = 0;  // of batches produced without error
  std::atomic<int64_t> wait_nanos_{0};
  std::atomic<int64_t> bytes_held_{0};  // see StreamStats::bytes_held

  std::atomic<bool> cancelled_{false};
  StreamItem* held_ = nullptr;  // consumer side only
};

}  // namespace rowbridge::stream::detail
