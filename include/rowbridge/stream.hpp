// Bounded prefetch streams: a producer of Arrow record batches driven ahead of
// one consumer by a shared pool of worker threads, by a bounded amount.
//
// A stream has three limits: at most `prefetch` (K) finished batches wait for
// the consumer, at most `in_flight` (W) batches are being produced at once, and
// a finished batch that cannot be queued yet keeps its production slot. So the
// batches alive for one stream never exceed K + W + 1 (the +1 is the batch the
// consumer holds), whatever the number of cores or pool threads. Batches reach
// the consumer in index order. Errors and exceptions of the producer reach the
// consumer as a Status after exactly the good batches that precede them; the
// stream never prints and never aborts. Exceptions of producers are caught on
// the workers; the only exception a stream call lets out is std::bad_alloc,
// when not even an error message can be allocated (the C stream and the C
// API turn it into ENOMEM).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "rowbridge/arrow_c_data.h"
#include "rowbridge/converter.hpp"
#include "rowbridge/export.h"
#include "rowbridge/status.hpp"

namespace rowbridge::stream {

/// The errno value (ECANCELED) of the status a cancelled or interrupted
/// stream returns, and of its C stream's get_next.
constexpr int kCancelledErrno = ROWBRIDGE_ECANCELED;
/// The status code of a cancelled, closed or interrupted stream.
constexpr StatusCode kCancelled = StatusCode::kCancelled;

/// True when `status` says the stream was cancelled or interrupted.
inline bool IsCancelled(const Status& status) { return status.code() == kCancelled; }

/// A fixed set of worker threads shared by streams. Workers take one batch of
/// one stream at a time from a first-in first-out queue of requests, so
/// streams get turns in the order they asked (a stream asks for at most W
/// batches at once). Thread-safe. A worker never waits for a consumer: a batch
/// that cannot be handed over stays with its stream and the worker moves on.
class ROWBRIDGE_EXPORT WorkerPool {
 public:
  struct Impl;

  /// The most threads a pool may have.
  static constexpr int32_t kMaxThreads = 1024;

  /// Starts a pool of `threads` workers (1 to kMaxThreads). Every open stream
  /// on it holds a reference; dropping the last one stops the workers and
  /// joins them (a worker dropping it is detached and exits by itself).
  static Status Make(int32_t threads, std::shared_ptr<WorkerPool>* out);

  /// Sets the size of the process-wide pool and starts it. OK when the pool
  /// did not exist yet or already has `threads` workers; Invalid when it
  /// exists with another size (the pool is never resized). Thread-safe.
  static Status InitDefault(int32_t threads);

  /// The process-wide pool, started on first use with one worker per
  /// hardware thread unless InitDefault chose the size. It lives until the
  /// process exits. Thread-safe.
  static Status Default(std::shared_ptr<WorkerPool>* out);

  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int32_t size() const;
  /// The workers running a batch of some stream now (a relaxed read).
  int32_t busy() const;
  Impl& impl() { return *impl_; }

 private:
  explicit WorkerPool(std::shared_ptr<Impl> impl);
  std::shared_ptr<Impl> impl_;  // shared with the workers, which may outlive it
};

/// A source of record batches, identified by index (0, 1, 2, ...). The stream
/// owns its producer and destroys it when the stream is closed, after the
/// last Produce call has returned.
class ROWBRIDGE_EXPORT BatchProducer {
 public:
  virtual ~BatchProducer() = default;

  /// Exports the schema of every batch (a struct with one child per column)
  /// into `out`, which is uninitialized; on success the caller owns it.
  /// Called once, by the thread that makes the stream, before any Produce.
  virtual Status ExportSchema(ArrowSchema* out) = 0;

  /// The number of batches when known in advance; -1 when only Produce can
  /// tell (by setting *end_of_stream).
  virtual int64_t num_batches() const { return -1; }

  /// True when Produce may run for several indexes at once, on different
  /// threads, in any order. When false, Produce is called for 0, 1, 2, ...
  /// in order, one call at a time (though not always on the same thread).
  virtual bool parallel() const = 0;

  /// Produces batch `index` into `out` (zeroed, released state). On success
  /// the stream owns `*out`; set `*end_of_stream` instead when there is no
  /// batch `index` (and leave `out` released). On error, return the status
  /// and leave `out` released (an array left in it is released by the
  /// stream). Exceptions are caught and become errors.
  virtual Status Produce(int64_t index, ArrowArray* out, bool* end_of_stream) = 0;

  /// What producing one batch took and holds, for StreamStats.
  struct BatchCounts {
    /// Bytes of input the batch took (StreamStats::input_bytes).
    int64_t input_bytes = 0;
    /// Bytes of memory the produced array holds for itself until released
    /// (buffers the producer allocated for it, not input it points into);
    /// counted in StreamStats::bytes_held while the stream holds the batch.
    int64_t owned_bytes = 0;
  };

  /// Produce, also filling `*counts` (zeroed by the caller). The stream
  /// calls this one; the default calls Produce and reports zeros.
  virtual Status ProduceCounted(int64_t index, ArrowArray* out, bool* end_of_stream,
                                BatchCounts* counts) {
    (void)counts;
    return Produce(index, out, end_of_stream);
  }

  /// Asks running Produce calls to return early (with any status: nobody
  /// will see it). Called at most once, from any thread, possibly while
  /// Produce runs on others. Without it, a stream stops at the next batch.
  virtual void Cancel() {}
};

/// Produces the next batch into `out` or sets `*end_of_stream`; called in
/// order, one call at a time. May throw (the exception becomes an error).
using NextBatchFunction = std::function<Status(ArrowArray* out, bool* end_of_stream)>;

/// A sequential producer over `function`. Takes ownership of `schema` (moves
/// it out and marks `*schema` released). The function is destroyed with the
/// producer.
ROWBRIDGE_EXPORT Status MakeFunctionProducer(ArrowSchema* schema, NextBatchFunction function,
                                             std::unique_ptr<BatchProducer>* out);

/// A sequential producer over an Arrow C stream: get_schema once, then
/// get_next in order. Takes ownership of `source` (moves it out and marks
/// `*source` released); the producer releases it when destroyed. Errors of
/// the source carry its get_last_error message.
ROWBRIDGE_EXPORT Status MakeArrayStreamProducer(ArrowArrayStream* source,
                                                std::unique_ptr<BatchProducer>* out);

struct StreamOptions {
  /// K: the most finished batches waiting for the consumer (>= 0).
  int32_t prefetch = 1;
  /// W: the most batches being produced at once (>= 1). A finished batch
  /// that cannot be queued yet keeps its slot.
  int32_t in_flight = 2;
  /// How often a blocked Next wakes up to call `interrupted`.
  std::chrono::milliseconds wake_period{100};
  /// Called by a blocked Next at every wake-up, on the consumer's thread;
  /// returning true cancels the stream and Next returns kCancelled. Empty:
  /// never interrupted. Exceptions it throws count as true.
  std::function<bool()> interrupted;
  /// The pool the stream's workers come from; null: WorkerPool::Default().
  std::shared_ptr<WorkerPool> pool;
  /// -1: every batch may be produced as soon as the bound allows. Otherwise
  /// only the first `ready_batches` may, until the stream's StreamGate says
  /// more are ready: for a producer whose input another thread fetches.
  int64_t ready_batches = -1;
};

/// Counters of a stream, readable from any thread.
struct StreamStats {
  /// Batches handed to the consumer so far.
  int64_t batches = 0;
  /// The most batches alive at once for this stream: being produced,
  /// finished, queued, plus the one the consumer holds (a batch returned by
  /// Next counts until the consumer's next call). At most K + W + 1.
  int64_t max_batches_held = 0;
  /// Input bytes of the batches handed to the consumer, as their producer
  /// reported them (BatchProducer::ProduceCounted; an IPC scan: stored body
  /// bytes).
  int64_t input_bytes = 0;
  /// Nanoseconds the consumer spent waiting in Next/Poll for a batch that
  /// was not ready (a batch taken at once costs no clock read).
  int64_t wait_nanos = 0;
  /// Nanoseconds the workers spent producing batches (and, for a row
  /// stream, converting their first chunk), summed over workers, for every
  /// batch produced without error.
  int64_t produce_nanos = 0;
  /// Bytes of native memory the stream holds now (bytes_held()): its
  /// batches' owned bytes (BatchProducer::BatchCounts::owned_bytes) from
  /// production until the batch is released or, for a PrefetchStream,
  /// handed to the consumer; plus, for a RowStream, what its converters hold
  /// (up to K + W + 1, each counted as Converter::buffer_bytes: the
  /// capacities of its row buffers and scratch, kept for reuse until Close).
  /// 0 after Close.
  int64_t bytes_held = 0;
};

namespace detail {
class StreamCore;
enum class TakeWait : int32_t;  // how long a consumer waits (stream_core.hpp)
}  // namespace detail

/// Lets any thread cancel a stream, even after the stream was closed or
/// destroyed (then it does nothing). Copyable; thread-safe.
class ROWBRIDGE_EXPORT StreamCanceller {
 public:
  StreamCanceller() = default;
  explicit StreamCanceller(std::weak_ptr<detail::StreamCore> core) : core_(std::move(core)) {}
  /// Cancels the stream: a Next blocked on another thread returns kCancelled
  /// promptly, and no new batch starts. Does not wait.
  void Cancel() const;

 private:
  std::weak_ptr<detail::StreamCore> core_;
};

/// Lets the thread that fetches a gated stream's input (see
/// StreamOptions::ready_batches) say how many batches may be produced.
/// Copyable; thread-safe; does nothing once the stream is gone.
class ROWBRIDGE_EXPORT StreamGate {
 public:
  StreamGate() = default;
  explicit StreamGate(std::weak_ptr<detail::StreamCore> core) : core_(std::move(core)) {}
  /// Batches [0, count) may be produced from now on (a smaller count than
  /// before changes nothing); idle workers start on them.
  void Open(int64_t count) const;

 private:
  std::weak_ptr<detail::StreamCore> core_;
};

/// A prefetch stream of Arrow record batches, for one consumer thread: Next,
/// ExportSchema and Close are called by one thread at a time; Cancel,
/// canceller() and stats() from any thread.
class ROWBRIDGE_EXPORT PrefetchStream {
 public:
  /// Starts a stream over `producer` (ownership taken, also on failure). Reads
  /// the producer's schema, then asks the pool for the first W batches.
  static Status Make(std::unique_ptr<BatchProducer> producer, const StreamOptions& options,
                     std::unique_ptr<PrefetchStream>* out);

  /// Closes the stream (see Close).
  ~PrefetchStream();
  PrefetchStream(const PrefetchStream&) = delete;
  PrefetchStream& operator=(const PrefetchStream&) = delete;

  /// Exports a copy of the schema into `out` (uninitialized); the caller
  /// owns it.
  Status ExportSchema(ArrowSchema* out) const;

  /// Moves the next batch into `out` (uninitialized; on success the caller
  /// owns it and releases it, ideally before the next call), or sets
  /// `*end_of_stream` (then `out` is released). Takes a waiting batch without
  /// blocking; otherwise waits, waking every wake_period to consult
  /// `interrupted`. After an error, every call returns the same error.
  Status Next(ArrowArray* out, bool* end_of_stream);

  /// Next, but waiting at most about one wake period: when no batch is ready
  /// by then, returns OK with `*ready` false (and `out` released), so that a
  /// caller can check for interruption itself and call again. `interrupted`
  /// is consulted as in Next. `*ready` is true when a batch or the end was
  /// returned.
  Status Poll(ArrowArray* out, bool* end_of_stream, bool* ready);
  /// Poll without waiting: `*ready` false when no batch is ready now.
  Status TryNext(ArrowArray* out, bool* end_of_stream, bool* ready);

  /// Cancels the stream without waiting (thread-safe; see StreamCanceller).
  void Cancel();
  StreamCanceller canceller() const;
  /// The gate of a stream made with StreamOptions::ready_batches.
  StreamGate gate() const;

  /// Cancels, waits for batches being produced to reach their boundary (the
  /// producer's Cancel may cut them short), releases every batch and
  /// destroys the producer. Idempotent. Must not be called from a producer.
  void Close();

  StreamStats stats() const;
  /// StreamStats::bytes_held alone, without taking the stream's lock: an
  /// atomic read, from any thread, at any time before destruction.
  int64_t bytes_held() const;

 private:
  explicit PrefetchStream(std::shared_ptr<detail::StreamCore> core);
  Status Poll(ArrowArray* out, bool* end_of_stream, bool* ready, detail::TakeWait wait);
  std::shared_ptr<detail::StreamCore> core_;
};

/// A batch converted to rows by a RowStream.
struct RowBatch {
  /// The index of the batch in the stream.
  int64_t index = -1;
  /// The columnar batch the rows come from (owned by the stream).
  const ArrowArray* batch = nullptr;
  /// The first chunk of rows (all of them unless the rows exceed
  /// ConverterOptions::max_chunk_bytes; then call NextChunk).
  RowBatchView rows;
  /// What the converter that wrote `rows` holds (Converter::buffer_bytes):
  /// counted in bytes_held, with the other converters', until Close.
  int64_t converter_bytes = 0;
};

/// Columns with one value for every row (a partition's values), which a
/// RowStream appends after each batch's own columns. `values` is a struct
/// array of one row whose children are the columns, described by `schema`
/// (a struct). Each batch takes them as run-end encoded columns of one run
/// over that value, so nothing is written per row but the row's own bytes.
struct ConstantColumns {
  ArrowSchema schema{};
  ArrowArray values{};
};

/// A prefetch stream whose batches are converted to Spark UnsafeRows by the
/// worker that produced them, so rows are ready when the consumer asks. Each
/// batch in flight has its own Converter, from a per-stream set of K + W + 1
/// reused after warm-up, so the steady state allocates no row buffers.
/// Threading as for PrefetchStream.
class ROWBRIDGE_EXPORT RowStream {
 public:
  /// Starts a row stream over `producer` (ownership taken, also on failure).
  /// Fails when the schema has a type Spark rows cannot carry. With
  /// `constants` (may be null), every row ends with their values; the stream
  /// takes ownership of both structs (moved out, released at close, also on
  /// failure).
  static Status Make(std::unique_ptr<BatchProducer> producer, const StreamOptions& options,
                     const ConverterOptions& converter_options, std::unique_ptr<RowStream>* out,
                     ConstantColumns* constants = nullptr);

  ~RowStream();
  RowStream(const RowStream&) = delete;
  RowStream& operator=(const RowStream&) = delete;

  /// Stores the next batch of rows in `out`, or sets `*end_of_stream`. The
  /// rows and the batch stay valid until the next call to Next or Close;
  /// that call gives the batch back to the stream. Waits as PrefetchStream.
  Status Next(RowBatch* out, bool* end_of_stream);

  /// Next, waiting at most about one wake period (see PrefetchStream::Poll).
  Status Poll(RowBatch* out, bool* end_of_stream, bool* ready);

  /// Converts the next chunk of the current batch, on the caller's thread
  /// (only the first chunk of a batch is converted by a worker);
  /// `out->num_rows` is 0 when every row has been returned.
  Status NextChunk(RowBatchView* out);

  const RowPlan& plan() const;
  Status ExportSchema(ArrowSchema* out) const;
  void Cancel();
  StreamCanceller canceller() const;
  StreamGate gate() const;
  /// As PrefetchStream::Close; the last rows become invalid.
  void Close();
  StreamStats stats() const;
  /// As PrefetchStream::bytes_held: what the batches and the converters
  /// hold now; grows as workers produce batches ahead of the consumer (also
  /// between calls to Next), 0 after Close.
  int64_t bytes_held() const;
  /// What the converter of the batch in hand holds now
  /// (Converter::buffer_bytes, also after NextChunk grew it), part of
  /// bytes_held; 0 without a batch in hand. The consumer's thread only.
  int64_t converter_bytes() const;

 private:
  struct State;
  explicit RowStream(std::unique_ptr<State> state);
  Status Take(RowBatch* out, bool* end_of_stream, bool* ready, bool wait);
  std::unique_ptr<State> state_;
};

/// Exports `stream` as an Arrow C stream (get_schema, get_next until a
/// released array, get_last_error, release). Takes ownership of `stream`
/// (also on failure); `out` must be uninitialized or released, and owns the
/// stream until `out->release(out)`, which closes it. Errors are errno-style
/// codes (kCancelledErrno when cancelled) and get_last_error returns the
/// message, valid until the next call on the stream. No callback throws.
ROWBRIDGE_EXPORT Status ExportArrayStream(std::unique_ptr<PrefetchStream> stream,
                                          ArrowArrayStream* out);

/// Stores the canceller of a live C stream exported by ExportArrayStream in
/// `*out`; Invalid for any other stream. Not concurrent with the stream's
/// release; the canceller itself may be used at any time afterwards.
ROWBRIDGE_EXPORT Status ArrayStreamCanceller(const ArrowArrayStream* stream, StreamCanceller* out);

}  // namespace rowbridge::stream
