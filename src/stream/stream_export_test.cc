// Prefetch streams behind the Arrow C Stream Interface, consumed through the
// C callbacks only; and the sequential adapters (C stream, function).
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>

#include "rowbridge/stream.h"
#include "support/stream_test_support.hpp"

namespace rowbridge::stream {
namespace {

using namespace std::chrono_literals;
using testing::BatchCounters;
using testing::Counting;
using testing::Pool;
using testing::ProducerPlan;

/// Exports a counting stream as a C stream.
void ExportCounting(const ProducerPlan& plan, std::shared_ptr<BatchCounters> counters,
                    std::shared_ptr<WorkerPool> pool, ArrowArrayStream* out) {
  StreamOptions options;
  options.pool = std::move(pool);
  std::unique_ptr<PrefetchStream> stream;
  ASSERT_TRUE(PrefetchStream::Make(Counting(plan, std::move(counters)), options, &stream).ok());
  ASSERT_TRUE(ExportArrayStream(std::move(stream), out).ok());
}

/// Reads a C stream to its end or first error through its callbacks;
/// returns get_next's last code and the batches read, checking their order.
int ConsumeC(ArrowArrayStream* stream, int64_t* batches) {
  *batches = 0;
  for (;;) {
    ArrowArray array;
    std::memset(&array, 0xAB, sizeof(array));  // uninitialized, as the spec allows
    int code = stream->get_next(stream, &array);
    if (code != 0) return code;
    if (array.release == nullptr) return 0;
    EXPECT_EQ(testing::BatchIndex(array), *batches);
    ++*batches;
    array.release(&array);
  }
}

TEST(StreamExport, CStreamDeliversEveryBatchInOrder) {
  auto counters = std::make_shared<BatchCounters>();
  ProducerPlan plan;
  plan.batches = 100;
  ArrowArrayStream c{};
  ExportCounting(plan, counters, Pool(3), &c);
  ArrowSchema schema;
  ASSERT_EQ(c.get_schema(&c, &schema), 0);
  EXPECT_STREQ(schema.format, "+s");
  ASSERT_EQ(schema.n_children, 1);
  EXPECT_STREQ(schema.children[0]->format, "l");
  EXPECT_STREQ(schema.children[0]->name, "v");
  // A child moved out of the copy is released on its own.
  ArrowSchema child = *schema.children[0];
  schema.children[0]->release = nullptr;
  child.release(&child);
  schema.release(&schema);
  int64_t batches = 0;
  EXPECT_EQ(ConsumeC(&c, &batches), 0);
  EXPECT_EQ(batches, 100);
  EXPECT_EQ(c.get_last_error(&c), nullptr);
  ArrowArray after;
  EXPECT_EQ(c.get_next(&c, &after), 0);  // still the end
  EXPECT_EQ(after.release, nullptr);
  c.release(&c);
  EXPECT_EQ(c.release, nullptr);
  EXPECT_EQ(counters->alive.load(), 0);
}

TEST(StreamExport, ErrorsAreErrnoCodesWithTheirMessage) {
  for (int kind : {-1, 0, 2}) {
    auto counters = std::make_shared<BatchCounters>();
    ProducerPlan plan;
    plan.batches = 50;
    if (kind < 0) plan.fail_at = 12;
    else plan.throw_at = 12, plan.throw_kind = kind;
    ArrowArrayStream c{};
    ExportCounting(plan, counters, Pool(2), &c);
    int64_t batches = 0;
    int code = ConsumeC(&c, &batches);
    EXPECT_EQ(batches, 12);
    const char* message = c.get_last_error(&c);
    ASSERT_NE(message, nullptr);
    if (kind < 0) {
      EXPECT_EQ(code, EINVAL);
      EXPECT_STREQ(message, "planned failure at batch 12");
    } else if (kind == 0) {
      EXPECT_EQ(code, EIO);
      EXPECT_NE(std::strstr(message, "planned exception"), nullptr) << message;
    } else {
      EXPECT_EQ(code, ENOMEM);
    }
    c.release(&c);
    EXPECT_EQ(counters->alive.load(), 0);
  }
}

TEST(StreamExport, CancelWhileAnotherThreadIsInGetNext) {
  auto counters = std::make_shared<BatchCounters>();
  ProducerPlan plan;
  plan.block_until_cancel = true;
  ArrowArrayStream c{};
  ExportCounting(plan, counters, Pool(2), &c);
  std::thread other([&] {
    std::this_thread::sleep_for(30ms);
    EXPECT_EQ(rowbridge_array_stream_cancel(&c), 0);
  });
  ArrowArray array{};
  int code = c.get_next(&c, &array);
  other.join();
  EXPECT_EQ(code, ROWBRIDGE_ECANCELED);
  EXPECT_EQ(code, ECANCELED);
  ASSERT_NE(c.get_last_error(&c), nullptr);
  c.release(&c);
  ArrowArrayStream foreign{};
  EXPECT_EQ(rowbridge_array_stream_cancel(&foreign), EINVAL);
  EXPECT_EQ(rowbridge_array_stream_cancel(nullptr), EINVAL);
}

TEST(StreamExport, ReleaseMidStreamFreesEverything) {
  auto counters = std::make_shared<BatchCounters>();
  ProducerPlan plan;
  plan.batches = 10000;
  ArrowArrayStream c{};
  ExportCounting(plan, counters, Pool(4), &c);
  ArrowArray array{};
  ASSERT_EQ(c.get_next(&c, &array), 0);
  ArrowArray kept = array;  // the consumer may keep a batch past the stream's release
  ASSERT_EQ(c.get_next(&c, &array), 0);
  array.release(&array);
  c.release(&c);
  EXPECT_EQ(counters->alive.load(), 1);
  EXPECT_EQ(testing::BatchIndex(kept), 0);
  kept.release(&kept);
  EXPECT_EQ(counters->alive.load(), 0);
}

TEST(StreamExport, PrefetchOverASourceCStreamKeepsItsErrors) {
  // The source: a counting stream exported as a C stream, failing at 9.
  auto counters = std::make_shared<BatchCounters>();
  ProducerPlan plan;
  plan.batches = 20;
  plan.fail_at = 9;
  ArrowArrayStream source{};
  ExportCounting(plan, counters, Pool(2), &source);
  // Wrapped, through the C API, in a sequential prefetch stream.
  RowbridgeStreamOptions options;
  rowbridge_stream_options_init(&options);
  options.prefetch = 2;
  ArrowArrayStream wrapped{};
  RowbridgeError error;
  ASSERT_EQ(rowbridge_prefetch_array_stream(&source, &options, &wrapped, &error), 0)
      << error.message;
  EXPECT_EQ(source.release, nullptr);  // taken over
  int64_t batches = 0;
  EXPECT_EQ(ConsumeC(&wrapped, &batches), EINVAL);
  EXPECT_EQ(batches, 9);
  EXPECT_STREQ(wrapped.get_last_error(&wrapped),
               "source stream: get_next of batch 9 failed with code 22: planned failure at "
               "batch 9");
  wrapped.release(&wrapped);
  EXPECT_EQ(counters->alive.load(), 0);
  ArrowArrayStream released{};
  EXPECT_EQ(rowbridge_prefetch_array_stream(&released, &options, &wrapped, &error), EINVAL);
}

TEST(StreamExport, FunctionProducerRunsInOrder) {
  auto counters = std::make_shared<BatchCounters>();
  int64_t next = 0;
  NextBatchFunction function = [&](ArrowArray* out, bool* end) {
    if (next == 40) {
      *end = true;
      return Status::Ok();
    }
    testing::MakeCountedBatch(next++, 3, counters, out);
    return Status::Ok();
  };
  ArrowSchema schema;
  testing::ExportCountedSchema(&schema);
  std::unique_ptr<BatchProducer> producer;
  ASSERT_TRUE(MakeFunctionProducer(&schema, function, &producer).ok());
  EXPECT_EQ(schema.release, nullptr);
  StreamOptions options;
  options.pool = Pool(3);
  options.in_flight = 3;
  std::unique_ptr<PrefetchStream> stream;
  ASSERT_TRUE(PrefetchStream::Make(std::move(producer), options, &stream).ok());
  ArrowArrayStream c{};
  ASSERT_TRUE(ExportArrayStream(std::move(stream), &c).ok());
  int64_t batches = 0;
  EXPECT_EQ(ConsumeC(&c, &batches), 0);
  EXPECT_EQ(batches, 40);
  c.release(&c);
  EXPECT_EQ(counters->alive.load(), 0);
  ArrowSchema released{};
  EXPECT_FALSE(MakeFunctionProducer(&released, function, &producer).ok());
}

}  // namespace
}  // namespace rowbridge::stream
