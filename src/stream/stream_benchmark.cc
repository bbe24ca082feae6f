// The cost of handing a batch from a worker to the consumer (Google
// Benchmark, manual time = the handoff only):
//   BM_NextBatchWaiting   a batch is already queued: Next's fast path.
//   BM_NextConsumerWaits  the consumer is blocked in Next when the batch is
//                         finished: from the end of Produce to Next returning.
//   BM_EmptyBatches       wall time per batch of a stream of empty batches,
//                         consumer and workers all busy with the machinery.
#include <benchmark/benchmark.h>

#include <atomic>
#include <chrono>
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

void BM_NextBatchWaiting(benchmark::State& state) {
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
BENCHMARK(BM_NextBatchWaiting)->UseManualTime()->Unit(benchmark::kNanosecond);

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
