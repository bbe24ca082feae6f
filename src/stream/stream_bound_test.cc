// The bound of a prefetch stream: never more than K + W + 1 batches alive,
// whatever K, W and the pool size; order; fairness across streams.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "support/stream_test_support.hpp"

namespace rowbridge::stream {
namespace {

using namespace std::chrono_literals;
using testing::BatchCounters;
using testing::Counting;
using testing::Eventually;
using testing::Pool;
using testing::ProducerPlan;

/// Reads the whole stream, checking order, and returns the batch count.
int64_t Drain(PrefetchStream* stream, std::mt19937* random, bool slow_consumer) {
  int64_t expected = 0;
  for (;;) {
    ArrowArray array{};
    bool end = false;
    Status status = stream->Next(&array, &end);
    EXPECT_TRUE(status.ok()) << status.message();
    if (!status.ok() || end) return expected;
    EXPECT_EQ(testing::BatchIndex(array), expected);
    ++expected;
    if (slow_consumer && (*random)() % 4 == 0) std::this_thread::sleep_for(100us);
    array.release(&array);
  }
}

TEST(PrefetchStreamBound, NeverMoreThanKPlusWPlusOneAlive) {
  std::mt19937 random(20240611);  // seed printed on failure through the trace below
  const int32_t pool_sizes[] = {1, 2, 5, 16};
  const int32_t prefetches[] = {0, 1, 3};
  const int32_t in_flights[] = {1, 2, 4};
  for (int32_t threads : pool_sizes) {
    std::shared_ptr<WorkerPool> pool = Pool(threads);
    for (int32_t k : prefetches) {
      for (int32_t w : in_flights) {
        for (int variant = 0; variant < 4; ++variant) {
          SCOPED_TRACE("pool " + std::to_string(threads) + " K " + std::to_string(k) + " W " +
                       std::to_string(w) + " variant " + std::to_string(variant));
          auto counters = std::make_shared<BatchCounters>();
          ProducerPlan plan;
          plan.batches = 60;
          plan.parallel = variant % 2 == 0;
          plan.known_count = variant < 2;
          plan.work = 20us;
          plan.slow_first = true;
          StreamOptions options;
          options.prefetch = k;
          options.in_flight = w;
          options.pool = pool;
          std::unique_ptr<PrefetchStream> stream;
          ASSERT_TRUE(PrefetchStream::Make(Counting(plan, counters), options, &stream).ok());
          EXPECT_EQ(Drain(stream.get(), &random, variant >= 1), plan.batches);
          StreamStats stats = stream->stats();
          stream->Close();
          EXPECT_LE(counters->max_alive.load(), k + w + 1);
          EXPECT_LE(stats.max_batches_held, k + w + 1);
          EXPECT_EQ(stats.batches, plan.batches);
          EXPECT_EQ(counters->alive.load(), 0);
          if (!plan.parallel) {
            EXPECT_EQ(counters->max_concurrent.load(), 1);
          }
          EXPECT_LE(counters->max_concurrent.load(), w);
        }
      }
    }
  }
}

TEST(PrefetchStreamBound, FillsExactlyToTheBoundWhenTheConsumerStops) {
  std::shared_ptr<WorkerPool> pool = Pool(8);
  const std::pair<int32_t, int32_t> shapes[] = {{1, 2}, {0, 3}, {3, 1}, {2, 4}};
  for (auto [k, w] : shapes) {
    SCOPED_TRACE("K " + std::to_string(k) + " W " + std::to_string(w));
    auto counters = std::make_shared<BatchCounters>();
    ProducerPlan plan;
    plan.batches = 1000;
    StreamOptions options;
    options.prefetch = k;
    options.in_flight = w;
    options.pool = pool;
    std::unique_ptr<PrefetchStream> stream;
    ASSERT_TRUE(PrefetchStream::Make(Counting(plan, counters), options, &stream).ok());
    // Nobody consumes: K queued plus W finished in their slots, then nothing.
    ASSERT_TRUE(Eventually([&] { return counters->alive.load() == k + w; }));
    std::this_thread::sleep_for(50ms);
    EXPECT_EQ(counters->produced.load(), k + w);
    // The consumer holds one: one more is produced, and no more.
    ArrowArray held{};
    bool end = false;
    ASSERT_TRUE(stream->Next(&held, &end).ok());
    ASSERT_TRUE(Eventually([&] { return counters->alive.load() == k + w + 1; }));
    std::this_thread::sleep_for(50ms);
    EXPECT_EQ(counters->produced.load(), k + w + 1);
    EXPECT_EQ(stream->stats().max_batches_held, k + w + 1);
    held.release(&held);
    stream.reset();
    EXPECT_EQ(counters->alive.load(), 0);
  }
}

TEST(PrefetchStreamBound, ParallelBatchesFinishingOutOfOrderArriveInOrder) {
  std::shared_ptr<WorkerPool> pool = Pool(4);
  auto counters = std::make_shared<BatchCounters>();
  ProducerPlan plan;
  plan.batches = 200;
  plan.work = 50us;
  plan.slow_first = true;  // every fourth batch is 8x slower than the next ones
  StreamOptions options;
  options.in_flight = 4;
  options.pool = pool;
  std::unique_ptr<PrefetchStream> stream;
  ASSERT_TRUE(PrefetchStream::Make(Counting(plan, counters), options, &stream).ok());
  std::mt19937 random(7);
  EXPECT_EQ(Drain(stream.get(), &random, false), plan.batches);
  EXPECT_GE(counters->max_concurrent.load(), 2);  // batches really overlapped
}

TEST(PrefetchStreamBound, AStalledStreamDoesNotHoldWorkersFromOthers) {
  // Two workers; stream A is never consumed and keeps its slots full; stream
  // B on the same pool still runs to the end.
  std::shared_ptr<WorkerPool> pool = Pool(2);
  auto counters_a = std::make_shared<BatchCounters>();
  auto counters_b = std::make_shared<BatchCounters>();
  ProducerPlan plan;
  plan.batches = 500;
  StreamOptions options;
  options.pool = pool;
  std::unique_ptr<PrefetchStream> a, b;
  ASSERT_TRUE(PrefetchStream::Make(Counting(plan, counters_a), options, &a).ok());
  ASSERT_TRUE(PrefetchStream::Make(Counting(plan, counters_b), options, &b).ok());
  std::mt19937 random(1);
  EXPECT_EQ(Drain(b.get(), &random, false), plan.batches);
  EXPECT_TRUE(
      Eventually([&] { return counters_a->alive.load() == options.prefetch + options.in_flight; }));
}

TEST(PrefetchStreamBound, OneStreamRunsOnFewWorkersOfABigPool) {
  // Idle workers are woken last-in first-out and a finishing worker takes
  // the request it posts, so one stream (W = 2) keeps to a few threads of 16:
  // their caches stay warm and only their malloc arenas hold its buffers.
  // A woken worker that is preempted before it runs leaves the request to
  // the next idle one, so on a loaded machine (2 cores, other builds, ASan)
  // a few more threads make some batches (up to 9 seen); what stays is that
  // the 4 busiest make nearly all of them. Waking workers in first-in
  // first-out order would spread the batches over all 16.
  std::shared_ptr<WorkerPool> pool = Pool(16);
  auto counters = std::make_shared<BatchCounters>();
  ProducerPlan plan;
  plan.batches = 400;
  plan.work = 20us;
  StreamOptions options;
  options.pool = pool;
  std::unique_ptr<PrefetchStream> stream;
  ASSERT_TRUE(PrefetchStream::Make(Counting(plan, counters), options, &stream).ok());
  std::mt19937 random(3);
  EXPECT_EQ(Drain(stream.get(), &random, true), plan.batches);
  std::lock_guard<std::mutex> lock(counters->threads_mutex);
  std::vector<int64_t> per_thread;
  for (const auto& entry : counters->threads) per_thread.push_back(entry.second);
  std::sort(per_thread.rbegin(), per_thread.rend());
  int64_t busiest = 0;
  for (size_t i = 0; i < per_thread.size() && i < 4; ++i) busiest += per_thread[i];
  EXPECT_GE(busiest * 10, plan.batches * 9) << per_thread.size() << " threads made batches";
}

TEST(PrefetchStreamBound, StreamsShareThePoolFairly) {
  // Three streams whose queues never fill (K = 100) share one worker. Each
  // has at most W requests queued and a finished batch queues the next one
  // behind the other streams' requests, so they take turns: when one stream
  // has all its batches, the others are nearly done too. The streams start
  // producing together (a gate), however slowly they are made (TSan).
  std::shared_ptr<WorkerPool> pool = Pool(1);
  ProducerPlan plan;
  plan.batches = 60;
  plan.work = 50us;
  plan.gate = std::make_shared<std::atomic<bool>>(false);
  StreamOptions options;
  options.pool = pool;
  options.prefetch = 100;
  std::vector<std::shared_ptr<BatchCounters>> counters;
  std::vector<std::unique_ptr<PrefetchStream>> streams(3);
  for (auto& stream : streams) {
    counters.push_back(std::make_shared<BatchCounters>());
    ASSERT_TRUE(PrefetchStream::Make(Counting(plan, counters.back()), options, &stream).ok());
  }
  plan.gate->store(true);
  int64_t least = plan.batches;
  ASSERT_TRUE(Eventually([&] {
    for (const auto& c : counters) {
      if (c->produced.load() == plan.batches) {
        for (const auto& other : counters) least = std::min(least, other->produced.load());
        return true;
      }
    }
    return false;
  }));
  EXPECT_GE(least, plan.batches - 15);
}

}  // namespace
}  // namespace rowbridge::stream
