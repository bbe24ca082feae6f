// Cancellation, close and teardown of prefetch streams: prompt, complete,
// and without leaking batches, threads or memory.
#include <gtest/gtest.h>

#include "support/stream_test_support.hpp"

namespace rowbridge::stream {
namespace {

using namespace std::chrono_literals;
using testing::BatchCounters;
using testing::Counting;
using testing::Eventually;
using testing::Pool;
using testing::ProducerPlan;

TEST(PrefetchStreamCancel, CloseAfterTheFirstOf10000StopsWithinW) {
  std::shared_ptr<WorkerPool> pool = Pool(4);
  for (bool parallel : {true, false}) {
    SCOPED_TRACE(parallel ? "parallel" : "sequential");
    auto counters = std::make_shared<BatchCounters>();
    ProducerPlan plan;
    plan.batches = 10000;
    plan.parallel = parallel;
    plan.work = 100us;
    StreamOptions options;
    options.pool = pool;
    std::unique_ptr<PrefetchStream> stream;
    ASSERT_TRUE(PrefetchStream::Make(Counting(plan, counters), options, &stream).ok());
    ArrowArray first{};
    bool end = false;
    ASSERT_TRUE(stream->Next(&first, &end).ok());
    EXPECT_EQ(testing::BatchIndex(first), 0);
    first.release(&first);
    int64_t started_before = counters->started.load();
    stream->Close();
    int64_t started_after = counters->started.load();
    EXPECT_LE(started_after - started_before, options.in_flight);
    EXPECT_LE(started_after, 1 + options.prefetch + options.in_flight + options.in_flight);
    EXPECT_EQ(counters->alive.load(), 0);
    std::this_thread::sleep_for(20ms);
    EXPECT_EQ(counters->started.load(), started_after);  // nothing starts after Close
    ArrowArray more{};
    Status status = stream->Next(&more, &end);
    EXPECT_FALSE(status.ok());
    EXPECT_EQ(more.release, nullptr);
  }
}

TEST(PrefetchStreamCancel, CancelFromAnotherThreadWakesABlockedNext) {
  std::shared_ptr<WorkerPool> pool = Pool(2);
  auto counters = std::make_shared<BatchCounters>();
  ProducerPlan plan;
  plan.block_until_cancel = true;
  StreamOptions options;
  options.pool = pool;
  options.wake_period = 10s;  // the wake-up must come from Cancel, not a timeout
  std::unique_ptr<PrefetchStream> stream;
  ASSERT_TRUE(PrefetchStream::Make(Counting(plan, counters), options, &stream).ok());
  StreamCanceller canceller = stream->canceller();
  std::thread other([&] {
    std::this_thread::sleep_for(50ms);
    canceller.Cancel();
  });
  auto start = std::chrono::steady_clock::now();
  ArrowArray array{};
  bool end = false;
  Status status = stream->Next(&array, &end);
  other.join();
  EXPECT_TRUE(IsCancelled(status)) << status.message();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  EXPECT_TRUE(counters->cancel_called.load());
  stream->Close();
  EXPECT_EQ(counters->alive.load(), 0);
  canceller.Cancel();  // after Close: nothing happens
  stream.reset();
  canceller.Cancel();  // after destruction too
}

TEST(PrefetchStreamCancel, CloseWhileWorkersAreBlockedInTheProducer) {
  std::shared_ptr<WorkerPool> pool = Pool(3);
  auto counters = std::make_shared<BatchCounters>();
  ProducerPlan plan;
  plan.block_until_cancel = true;
  StreamOptions options;
  options.in_flight = 3;
  options.pool = pool;
  std::unique_ptr<PrefetchStream> stream;
  ASSERT_TRUE(PrefetchStream::Make(Counting(plan, counters), options, &stream).ok());
  ASSERT_TRUE(Eventually([&] { return counters->concurrent.load() == 3; }));
  stream->Close();  // returns because Close calls the producer's Cancel
  EXPECT_EQ(counters->concurrent.load(), 0);
  // The pool is free again for other streams.
  auto other_counters = std::make_shared<BatchCounters>();
  ProducerPlan quick;
  quick.batches = 10;
  std::unique_ptr<PrefetchStream> other;
  ASSERT_TRUE(PrefetchStream::Make(Counting(quick, other_counters), options, &other).ok());
  int64_t count = 0;
  for (;;) {
    ArrowArray array{};
    bool end = false;
    ASSERT_TRUE(other->Next(&array, &end).ok());
    if (end) break;
    array.release(&array);
    ++count;
  }
  EXPECT_EQ(count, 10);
}

TEST(PrefetchStreamCancel, CloseWithAFullQueueAndFinishedSlots) {
  std::shared_ptr<WorkerPool> pool = Pool(4);
  for (int32_t k : {0, 1, 4}) {
    auto counters = std::make_shared<BatchCounters>();
    ProducerPlan plan;
    plan.batches = 1000;
    StreamOptions options;
    options.prefetch = k;
    options.in_flight = 3;
    options.pool = pool;
    std::unique_ptr<PrefetchStream> stream;
    ASSERT_TRUE(PrefetchStream::Make(Counting(plan, counters), options, &stream).ok());
    ASSERT_TRUE(Eventually([&] { return counters->alive.load() == k + 3; }));
    stream.reset();  // the destructor closes
    EXPECT_EQ(counters->alive.load(), 0);
  }
}

TEST(PrefetchStreamCancel, InterruptedCallbackCancelsABlockedNext) {
  std::shared_ptr<WorkerPool> pool = Pool(2);
  auto counters = std::make_shared<BatchCounters>();
  ProducerPlan plan;
  plan.block_until_cancel = true;
  std::atomic<int> calls{0};
  StreamOptions options;
  options.pool = pool;
  options.wake_period = 5ms;
  options.interrupted = [&] { return ++calls >= 3; };
  std::unique_ptr<PrefetchStream> stream;
  ASSERT_TRUE(PrefetchStream::Make(Counting(plan, counters), options, &stream).ok());
  ArrowArray array{};
  bool end = false;
  Status status = stream->Next(&array, &end);
  EXPECT_TRUE(IsCancelled(status)) << status.message();
  EXPECT_NE(status.message().find("interrupted"), std::string::npos) << status.message();
  EXPECT_EQ(calls.load(), 3);
  EXPECT_TRUE(counters->cancel_called.load());
  // A throwing check counts as an interruption, too.
  auto counters2 = std::make_shared<BatchCounters>();
  options.interrupted = []() -> bool { throw std::runtime_error("no JVM"); };
  ASSERT_TRUE(PrefetchStream::Make(Counting(plan, counters2), options, &stream).ok());
  EXPECT_TRUE(IsCancelled(stream->Next(&array, &end)));
}

TEST(PrefetchStreamCancel, ThousandsOfOpenCloseCyclesLeakNothing) {
  std::shared_ptr<WorkerPool> pool = Pool(4);
  auto cycle = [&](int i) {
    auto counters = std::make_shared<BatchCounters>();
    ProducerPlan plan;
    plan.batches = 50;
    plan.rows = 256;
    plan.parallel = i % 3 != 0;
    StreamOptions options;
    options.prefetch = i % 3;
    options.in_flight = 1 + i % 4;
    options.pool = pool;
    std::unique_ptr<PrefetchStream> stream;
    ASSERT_TRUE(PrefetchStream::Make(Counting(plan, counters), options, &stream).ok());
    for (int taken = 0; taken < i % 4; ++taken) {
      ArrowArray array{};
      bool end = false;
      ASSERT_TRUE(stream->Next(&array, &end).ok());
      if (!end) array.release(&array);
    }
    if (i % 2 == 0) stream->Cancel();
    stream.reset();
    ASSERT_EQ(counters->alive.load(), 0);
  };
  for (int i = 0; i < 500; ++i) cycle(i);  // warm-up: allocator pools, thread stacks
  std::this_thread::sleep_for(50ms);       // let threads of earlier tests' pools be reaped
  int64_t threads = testing::ThreadCount();
  [[maybe_unused]] int64_t rss_anon = testing::StatusKilobytes("RssAnon");  // unread under ASan
  for (int i = 0; i < 3000; ++i) cycle(i);
  EXPECT_TRUE(Eventually([&] { return testing::ThreadCount() <= threads; }))  // exits are reaped
      << testing::ThreadCount() << " threads, " << threads << " before";
#if !defined(__SANITIZE_ADDRESS__)  // AddressSanitizer's quarantine grows by design
  EXPECT_LT(testing::StatusKilobytes("RssAnon") - rss_anon, 8 * 1024);
#endif
}

TEST(PrefetchStreamCancel, DefaultPoolIsSizedOnceAndStreamsAddNoThreads) {
  std::shared_ptr<WorkerPool> pool;
  ASSERT_TRUE(WorkerPool::Default(&pool).ok());
  EXPECT_TRUE(WorkerPool::InitDefault(pool->size()).ok());
  EXPECT_FALSE(WorkerPool::InitDefault(pool->size() + 1).ok());
  int64_t threads = testing::ThreadCount();  // may still count threads of earlier tests' pools
  auto counters = std::make_shared<BatchCounters>();
  ProducerPlan plan;
  plan.batches = 20;
  std::vector<std::unique_ptr<PrefetchStream>> streams(8);
  for (auto& stream : streams) {
    ASSERT_TRUE(PrefetchStream::Make(Counting(plan, counters), StreamOptions(), &stream).ok());
  }
  EXPECT_TRUE(Eventually([&] { return testing::ThreadCount() <= threads; }))
      << testing::ThreadCount() << " threads, " << threads << " before";
  streams.clear();
  EXPECT_EQ(counters->alive.load(), 0);
  std::shared_ptr<WorkerPool> bad;
  EXPECT_FALSE(WorkerPool::Make(0, &bad).ok());
  EXPECT_FALSE(WorkerPool::Make(WorkerPool::kMaxThreads + 1, &bad).ok());
}

}  // namespace
}  // namespace rowbridge::stream
