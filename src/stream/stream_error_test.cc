// Errors and exceptions of producers reach the consumer in order, with their
// message, after exactly the good batches before them.
#include <gtest/gtest.h>

#include "support/stream_test_support.hpp"

namespace rowbridge::stream {
namespace {

using namespace std::chrono_literals;
using testing::BatchCounters;
using testing::Counting;
using testing::Pool;
using testing::ProducerPlan;

/// Reads until an error or the end; returns the good batches read, in order.
int64_t ReadUntilStop(PrefetchStream* stream, Status* final_status, bool* ended) {
  int64_t good = 0;
  *ended = false;
  for (;;) {
    ArrowArray array{};
    bool end = false;
    Status status = stream->Next(&array, &end);
    if (!status.ok() || end) {
      *final_status = status;
      *ended = end;
      return good;
    }
    EXPECT_EQ(testing::BatchIndex(array), good);
    ++good;
    array.release(&array);
  }
}

struct Shape {
  bool parallel;
  bool known_count;
  int32_t k;
  int32_t w;
};

const Shape kShapes[] = {{true, true, 1, 2},   {true, false, 2, 4}, {false, true, 1, 2},
                         {false, false, 0, 1}, {true, true, 0, 3},  {true, true, 4, 1}};

/// A stream of `plan`, laid out (parallel, known count) and bounded (K, W) as
/// `shape`, on `pool`, counting into `counters`.
std::unique_ptr<PrefetchStream> MakeShaped(ProducerPlan plan, const Shape& shape,
                                           const std::shared_ptr<WorkerPool>& pool,
                                           const std::shared_ptr<BatchCounters>& counters) {
  plan.known_count = plan.known_count && shape.known_count;
  StreamOptions options;
  options.prefetch = shape.k;
  options.in_flight = shape.w;
  options.pool = pool;
  std::unique_ptr<PrefetchStream> stream;
  EXPECT_TRUE(PrefetchStream::Make(Counting(plan, counters), options, &stream).ok());
  return stream;
}

TEST(PrefetchStreamErrors, AnErrorAtBatchKFollowsExactlyKGoodBatches) {
  std::shared_ptr<WorkerPool> pool = Pool(4);
  for (const Shape& shape : kShapes) {
    for (int64_t k : {0, 1, 5, 37}) {
      SCOPED_TRACE("k " + std::to_string(k) + (shape.parallel ? " parallel" : " sequential") +
                   " K " + std::to_string(shape.k) + " W " + std::to_string(shape.w));
      auto counters = std::make_shared<BatchCounters>();
      ProducerPlan plan;
      plan.batches = 60;
      plan.fail_at = k;
      plan.work = 10us;
      plan.slow_first = true;  // batches after k may finish before k does
      std::unique_ptr<PrefetchStream> stream = MakeShaped(plan, shape, pool, counters);
      ASSERT_NE(stream, nullptr);
      Status status;
      bool ended = false;
      EXPECT_EQ(ReadUntilStop(stream.get(), &status, &ended), k);
      EXPECT_FALSE(ended);
      EXPECT_EQ(status.code(), StatusCode::kInvalid);
      EXPECT_EQ(status.message(), "planned failure at batch " + std::to_string(k));
      // The error stays: no silent end of stream afterwards.
      ArrowArray array{};
      bool end = false;
      EXPECT_EQ(stream->Next(&array, &end).message(), status.message());
      EXPECT_FALSE(end);
      stream.reset();
      EXPECT_EQ(counters->alive.load(), 0);
    }
  }
}

TEST(PrefetchStreamErrors, ExceptionsBecomeErrorsInOrder) {
  std::shared_ptr<WorkerPool> pool = Pool(3);
  struct Case {
    int kind;
    StatusCode code;
    const char* text;
  };
  const Case cases[] = {{0, StatusCode::kInternal,
                         "batch 7: the producer threw an exception: "
                         "planned exception"},
                        {1, StatusCode::kInternal,
                         "batch 7: the producer threw a non-standard "
                         "exception"},
                        {2, StatusCode::kOutOfMemory, "batch 7: out of memory in the producer"}};
  for (const Shape& shape : kShapes) {
    for (const Case& c : cases) {
      auto counters = std::make_shared<BatchCounters>();
      ProducerPlan plan;
      plan.batches = 30;
      plan.throw_at = 7;
      plan.throw_kind = c.kind;
      std::unique_ptr<PrefetchStream> stream = MakeShaped(plan, shape, pool, counters);
      ASSERT_NE(stream, nullptr);
      Status status;
      bool ended = false;
      EXPECT_EQ(ReadUntilStop(stream.get(), &status, &ended), 7);
      EXPECT_EQ(status.code(), c.code);
      EXPECT_EQ(status.message(), c.text);
      stream.reset();
      EXPECT_EQ(counters->alive.load(), 0);
    }
  }
}

TEST(PrefetchStreamErrors, AnUnknownCountEndsAtTheProducersEnd) {
  std::shared_ptr<WorkerPool> pool = Pool(4);
  for (const Shape& shape : kShapes) {
    auto counters = std::make_shared<BatchCounters>();
    ProducerPlan plan;
    plan.batches = 23;
    plan.known_count = false;
    std::unique_ptr<PrefetchStream> stream = MakeShaped(plan, shape, pool, counters);
    ASSERT_NE(stream, nullptr);
    Status status;
    bool ended = false;
    EXPECT_EQ(ReadUntilStop(stream.get(), &status, &ended), 23);
    EXPECT_TRUE(status.ok());
    EXPECT_TRUE(ended);
    ArrowArray array{};
    bool end = false;
    EXPECT_TRUE(stream->Next(&array, &end).ok());  // the end stays the end
    EXPECT_TRUE(end);
    stream.reset();
    EXPECT_EQ(counters->alive.load(), 0);
  }
}

class BadProducer : public BatchProducer {
 public:
  explicit BadProducer(int mode) : mode_(mode) {}
  Status ExportSchema(ArrowSchema* out) override {
    if (mode_ == 0) throw std::runtime_error("no schema here");
    if (mode_ == 1) return Status::NotSupported("unsupported source");
    if (mode_ == 2) return Status::Ok();  // leaves it released
    testing::ExportCountedSchema(out);
    return Status::Ok();
  }
  int64_t num_batches() const override { return 5; }
  bool parallel() const override { return true; }
  Status Produce(int64_t, ArrowArray*, bool*) override { return Status::Ok(); }  // no array

 private:
  int mode_;
};

TEST(PrefetchStreamErrors, BadProducersAndOptionsAreErrors) {
  std::unique_ptr<PrefetchStream> stream;
  Status status = PrefetchStream::Make(std::make_unique<BadProducer>(0), StreamOptions(), &stream);
  EXPECT_EQ(status.code(), StatusCode::kInternal);
  EXPECT_NE(status.message().find("no schema here"), std::string::npos) << status.message();
  status = PrefetchStream::Make(std::make_unique<BadProducer>(1), StreamOptions(), &stream);
  EXPECT_EQ(status.code(), StatusCode::kNotSupported);
  status = PrefetchStream::Make(std::make_unique<BadProducer>(2), StreamOptions(), &stream);
  EXPECT_EQ(status.code(), StatusCode::kInvalid);
  EXPECT_FALSE(PrefetchStream::Make(nullptr, StreamOptions(), &stream).ok());
  StreamOptions bad;
  bad.in_flight = 0;
  EXPECT_FALSE(PrefetchStream::Make(std::make_unique<BadProducer>(3), bad, &stream).ok());
  bad = StreamOptions();
  bad.prefetch = -1;
  EXPECT_FALSE(PrefetchStream::Make(std::make_unique<BadProducer>(3), bad, &stream).ok());
  bad = StreamOptions();
  bad.wake_period = std::chrono::milliseconds(0);
  EXPECT_FALSE(PrefetchStream::Make(std::make_unique<BadProducer>(3), bad, &stream).ok());
  EXPECT_EQ(stream, nullptr);

  // A producer that claims success without an array.
  ASSERT_TRUE(
      PrefetchStream::Make(std::make_unique<BadProducer>(3), StreamOptions(), &stream).ok());
  ArrowArray array{};
  bool end = false;
  status = stream->Next(&array, &end);
  EXPECT_EQ(status.message(), "batch 0: the producer returned a released array");
}

}  // namespace
}  // namespace rowbridge::stream
