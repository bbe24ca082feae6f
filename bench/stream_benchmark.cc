// The cost of handing a batch from a worker to the consumer (Google
// Benchmark, manual time = the handoff only):
//   BM_NextFastPath       a batch is queued and taking it frees no slot (the
//                         W producing batches are still running): no wake-up.
//   BM_NextWakesWorker    a batch is queued and taking it frees a slot whose
//                         worker sleeps: Next also wakes that worker.
//   BM_NextConsumerWaits  the consumer is blocked in Next when the batch is
//                         finished: from the end of Produce to Next returning.
//   BM_EmptyBatches       wall time per batch of a stream of empty batches,
//                         consumer and workers all busy with the machinery.
#include <benchmark/benchmark.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "rowbridge/stream.hpp"

namespace rowbridge::stream {
namespace {

using Clock = std::chrono::steady_clock;

void NoRelease(ArrowArray* array) { array->release = nullptr; }

void ExportEmptySchema(ArrowSchema* out) {
  *out = ArrowSchema{};
  out->format = "+s";
  out->release = [](ArrowSchema* schema) { schema->release = nullptr; };
}

void Spin(std::chrono::nanoseconds duration) {
  auto until = Clock::now() + duration;
  while (Clock::now() < until) {
  }
}

/// Empty batches, optionally after `work`; records when each one finished.
class EmptyProducer : public BatchProducer {
 public:
  explicit EmptyProducer(std::chrono::nanoseconds work) : work_(work) {}
  Status ExportSchema(ArrowSchema* out) override {
    ExportEmptySchema(out);
    return Status::Ok();
  }
  bool parallel() const override { return true; }
  Status Produce(int64_t, ArrowArray* out, bool*) override {
    if (work_.count() > 0) Spin(work_);
    *out = ArrowArray{};
    out->release = NoRelease;
    finished_.store(Clock::now().time_since_epoch().count(), std::memory_order_release);
    return Status::Ok();
  }
  Clock::time_point finished() const {
    return Clock::time_point(Clock::duration(finished_.load(std::memory_order_acquire)));
  }

 private:
  std::chrono::nanoseconds work_;
  std::atomic<Clock::rep> finished_{0};
};

std::shared_ptr<WorkerPool> BenchPool() {
  static std::shared_ptr<WorkerPool> pool = [] {
    std::shared_ptr<WorkerPool> made;
    (void)WorkerPool::Make(2, &made);
    return made;
  }();
  return pool;
}

std::unique_ptr<PrefetchStream> Open(std::unique_ptr<BatchProducer> producer, int32_t prefetch,
                                     int32_t in_flight) {
  StreamOptions options;
  options.pool = BenchPool();
  options.prefetch = prefetch;
  options.in_flight = in_flight;
  std::unique_ptr<PrefetchStream> stream;
  if (!PrefetchStream::Make(std::move(producer), options, &stream).ok()) return nullptr;
  return stream;
}

/// Empty batches, each produced only while the gate is open.
class GatedProducer : public BatchProducer {
 public:
  Status ExportSchema(ArrowSchema* out) override {
    ExportEmptySchema(out);
    return Status::Ok();
  }
  bool parallel() const override { return true; }
  Status Produce(int64_t, ArrowArray* out, bool*) override {
    std::unique_lock<std::mutex> lock(mutex_);
    opened_.wait(lock, [&] { return open_ || cancelled_; });
    *out = ArrowArray{};
    out->release = NoRelease;
    ++produced_;
    return Status::Ok();
  }
  void Cancel() override { SetOpen(false, true); }
  void SetOpen(bool open, bool cancelled = false) {
    std::lock_guard<std::mutex> lock(mutex_);
    open_ = open;
    cancelled_ = cancelled_ || cancelled;
    opened_.notify_all();
  }
  int64_t produced() {
    std::lock_guard<std::mutex> lock(mutex_);
    return produced_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable opened_;
  bool open_ = false;
  bool cancelled_ = false;
  int64_t produced_ = 0;
};

void BM_NextFastPath(benchmark::State& state) {
  constexpr int32_t kPrefetch = 64;
  auto producer = std::make_unique<GatedProducer>();
  GatedProducer* gate = producer.get();
  auto stream = Open(std::move(producer), kPrefetch, 1);
  int64_t taken = 0;
  int64_t queued = 0;
  for (auto _ : state) {
    ArrowArray array;
    bool end = false;
    if (queued == 0) {  // untimed: refill the queue, then block the one slot
      gate->SetOpen(true);
      while (gate->produced() < taken + kPrefetch + 1) std::this_thread::yield();
      gate->SetOpen(false);
      (void)stream->Next(&array, &end);  // promotes the slot's batch; its worker blocks
      ++taken;
      queued = kPrefetch;
    }
    auto start = Clock::now();
    Status status = stream->Next(&array, &end);
    auto stop = Clock::now();
    ++taken;
    --queued;
    if (!status.ok()) state.SkipWithError(status.message().c_str());
    state.SetIterationTime(std::chrono::duration<double>(stop - start).count());
  }
  gate->SetOpen(true);
}
BENCHMARK(BM_NextFastPath)->UseManualTime()->Unit(benchmark::kNanosecond);

void BM_NextWakesWorker(benchmark::State& state) {
  auto stream = Open(std::make_unique<EmptyProducer>(std::chrono::nanoseconds(0)), 1, 2);
  for (auto _ : state) {
    // Give the workers time to refill: K queued, W finished in their slots.
    Spin(std::chrono::microseconds(20));
    ArrowArray array;
    bool end = false;
    auto start = Clock::now();
    Status status = stream->Next(&array, &end);
    auto stop = Clock::now();
    if (!status.ok()) state.SkipWithError(status.message().c_str());
    state.SetIterationTime(std::chrono::duration<double>(stop - start).count());
  }
}
BENCHMARK(BM_NextWakesWorker)->UseManualTime()->Unit(benchmark::kNanosecond);

void BM_NextConsumerWaits(benchmark::State& state) {
  auto producer = std::make_unique<EmptyProducer>(std::chrono::microseconds(50));
  EmptyProducer* raw = producer.get();
  auto stream = Open(std::move(producer), 1, 1);
  for (auto _ : state) {
    ArrowArray array;
    bool end = false;
    Status status = stream->Next(&array, &end);  // blocks: the batch takes 50 us
    auto got = Clock::now();
    if (!status.ok()) state.SkipWithError(status.message().c_str());
    state.SetIterationTime(std::chrono::duration<double>(got - raw->finished()).count());
  }
}
BENCHMARK(BM_NextConsumerWaits)->UseManualTime()->Unit(benchmark::kMicrosecond);

void BM_EmptyBatches(benchmark::State& state) {
  auto in_flight = static_cast<int32_t>(state.range(0));
  auto stream = Open(std::make_unique<EmptyProducer>(std::chrono::nanoseconds(0)), 1, in_flight);
  for (auto _ : state) {
    ArrowArray array;
    bool end = false;
    Status status = stream->Next(&array, &end);
    if (!status.ok()) state.SkipWithError(status.message().c_str());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_EmptyBatches)->Arg(1)->Arg(2)->Unit(benchmark::kNanosecond);

}  // namespace
}  // namespace rowbridge::stream
