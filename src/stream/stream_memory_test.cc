// StreamStats::bytes_held: what a stream's batches and row buffers hold,
// exact against the batches the consumer holds and what each item's
// converter holds (Converter::buffer_bytes, measured on a converter of the
// same batches; an item is known by its batch's address), read concurrently
// from another thread (run under ThreadSanitizer), and 0 after Close.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <thread>

#include "rowbridge/ipc_reader.hpp"
#include "rowbridge/ipc_scan.hpp"
#include "rowbridge/stream.h"
#include "support/scan_test_files.hpp"
#include "support/stream_test_support.hpp"

namespace rowbridge::stream {
namespace {

using testing::Pool;

/// Counted batches of `rows` rows (struct<v: int64>), batch i reporting
/// kOwnedBase + i owned bytes.
constexpr int64_t kOwnedBase = 1000;

class OwningProducer : public BatchProducer {
 public:
  OwningProducer(int64_t batches, int64_t rows)
      : batches_(batches), rows_(rows), counters_(std::make_shared<testing::BatchCounters>()) {}
  Status ExportSchema(ArrowSchema* out) override {
    testing::ExportCountedSchema(out);
    return Status::Ok();
  }
  int64_t num_batches() const override { return batches_; }
  bool parallel() const override { return true; }
  Status Produce(int64_t index, ArrowArray* out, bool*) override {
    testing::MakeCountedBatch(index, rows_, counters_, out);
    return Status::Ok();
  }
  Status ProduceCounted(int64_t index, ArrowArray* out, bool* end_of_stream,
                        BatchCounts* counts) override {
    counts->owned_bytes = kOwnedBase + index;
    return Produce(index, out, end_of_stream);
  }

 private:
  int64_t batches_;
  int64_t rows_;
  std::shared_ptr<testing::BatchCounters> counters_;
};

/// What a converter holds (Converter::buffer_bytes) once it has converted
/// `chunks` chunks of a batch of `rows` rows of struct<v: int64> with
/// `options`: the figure each item's converter must count for.
int64_t ConverterBytes(int64_t rows, const ConverterOptions& options = ConverterOptions(),
                       int chunks = 1) {
  ArrowSchema schema;
  testing::ExportCountedSchema(&schema);
  std::unique_ptr<Converter> converter;
  EXPECT_TRUE(Converter::Make(schema, options, &converter).ok());
  schema.release(&schema);
  ArrowArray batch;
  testing::MakeCountedBatch(0, rows, std::make_shared<testing::BatchCounters>(), &batch);
  RowBatchView view;
  EXPECT_TRUE(converter->Convert(batch, &view).ok());
  for (int c = 1; c < chunks; ++c) EXPECT_TRUE(converter->NextChunk(&view).ok());
  const int64_t bytes = converter->buffer_bytes();
  batch.release(&batch);
  // At least the rows and offsets it returned.
  EXPECT_GE(bytes, view.data_size + 8 * (view.num_rows + 1));
  return bytes;
}

/// The items that have handed out batches (by the address of the item's
/// batch, RowBatch::batch) and what each one's converter held last.
class Items {
 public:
  void Note(const RowBatch& batch) { converter_bytes_[batch.batch] = batch.converter_bytes; }
  int64_t count() const { return static_cast<int64_t>(converter_bytes_.size()); }
  int64_t converter_bytes() const {
    int64_t sum = 0;
    for (const auto& [item, bytes] : converter_bytes_) sum += bytes;
    return sum;
  }

 private:
  std::map<const void*, int64_t> converter_bytes_;
};

/// K = 0, W = 1: at most two items, the batch in hand and the next.
StreamOptions OneAtATime() {
  StreamOptions options;
  options.pool = Pool(2);
  options.prefetch = 0;
  options.in_flight = 1;
  return options;
}

TEST(RowStream, BytesHeldCountsHeldBatchesAndRowBuffersUntilClose) {
  constexpr int64_t kRows = 100;
  std::unique_ptr<RowStream> stream;
  ASSERT_TRUE(RowStream::Make(std::make_unique<OwningProducer>(3, kRows), OneAtATime(),
                              ConverterOptions(), &stream)
                  .ok());
  const int64_t converter_bytes = ConverterBytes(kRows);
  Items items;
  RowBatch batch;
  bool end = false;
  ASSERT_TRUE(stream->Next(&batch, &end).ok());
  ASSERT_FALSE(end);
  items.Note(batch);
  // Batch 0 is held; batch 1 may be under way in the other item.
  int64_t first = stream->bytes_held();
  EXPECT_GE(first, kOwnedBase + converter_bytes);
  EXPECT_LE(first, kOwnedBase + (kOwnedBase + 1) + 2 * converter_bytes);
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(stream->Next(&batch, &end).ok());
    ASSERT_FALSE(end);
    items.Note(batch);
  }
  ASSERT_EQ(batch.index, 2);
  EXPECT_EQ(batch.converter_bytes, converter_bytes);
  EXPECT_EQ(items.converter_bytes(), items.count() * converter_bytes);
  // Batches 0 and 1 were given back; the last is held, and every converter
  // that wrote rows keeps its buffers.
  EXPECT_EQ(stream->bytes_held(), kOwnedBase + 2 + items.count() * converter_bytes);
  EXPECT_EQ(stream->stats().bytes_held, stream->bytes_held());
  ASSERT_TRUE(stream->Next(&batch, &end).ok());
  ASSERT_TRUE(end);
  EXPECT_EQ(stream->bytes_held(), items.count() * converter_bytes);
  stream->Close();
  EXPECT_EQ(stream->bytes_held(), 0);
  EXPECT_EQ(stream->stats().bytes_held, 0);
}

TEST(RowStream, BytesHeldGrowsWithRowsConvertedOnTheConsumersThread) {
  constexpr int64_t kRows = 1000;
  ConverterOptions convert;
  convert.max_chunk_bytes = 16 * 300;  // chunks of 300 rows: 300, 300, 300, 100
  std::unique_ptr<RowStream> stream;
  ASSERT_TRUE(
      RowStream::Make(std::make_unique<OwningProducer>(1, kRows), OneAtATime(), convert, &stream)
          .ok());
  RowBatch batch;
  bool end = false;
  ASSERT_TRUE(stream->Next(&batch, &end).ok());
  ASSERT_EQ(batch.rows.num_rows, 300);
  EXPECT_EQ(stream->bytes_held(), kOwnedBase + ConverterBytes(kRows, convert));
  int chunks = 1;
  for (;;) {
    RowBatchView chunk;
    ASSERT_TRUE(stream->NextChunk(&chunk).ok());
    if (chunk.num_rows == 0) break;
    ++chunks;
    // Whatever the converter holds after this chunk, never less than before.
    EXPECT_EQ(stream->bytes_held(), kOwnedBase + ConverterBytes(kRows, convert, chunks));
    EXPECT_GE(ConverterBytes(kRows, convert, chunks), ConverterBytes(kRows, convert, chunks - 1));
  }
  EXPECT_EQ(chunks, 4);
  stream->Close();
  EXPECT_EQ(stream->bytes_held(), 0);
}

TEST(PrefetchStream, BytesHeldLeavesWithTheBatchHandedToTheConsumer) {
  std::unique_ptr<PrefetchStream> stream;
  ASSERT_TRUE(
      PrefetchStream::Make(std::make_unique<OwningProducer>(2, 10), OneAtATime(), &stream).ok());
  rowbridge::testing::OwnedArray first;
  bool end = false;
  ASSERT_TRUE(stream->Next(&first.array, &end).ok());
  rowbridge::testing::OwnedArray second;
  ASSERT_TRUE(stream->Next(&second.array, &end).ok());
  ASSERT_FALSE(end);
  // Both batches belong to the consumer now; nothing else will be produced.
  EXPECT_EQ(stream->bytes_held(), 0);
  stream->Close();
  EXPECT_EQ(stream->bytes_held(), 0);
}

TEST(RowStream, BytesHeldIsReadableFromAnotherThreadWhileWorkersRun) {
  const int64_t converter_bytes = ConverterBytes(64);
  std::unique_ptr<RowStream> stream;
  StreamOptions options;
  options.pool = Pool(3);
  options.prefetch = 2;
  options.in_flight = 3;
  ASSERT_TRUE(RowStream::Make(std::make_unique<OwningProducer>(200, 64), options,
                              ConverterOptions(), &stream)
                  .ok());
  std::atomic<bool> done{false};
  std::atomic<int64_t> most{0};
  std::atomic<bool> negative{false};
  std::thread reader([&] {
    while (!done.load()) {
      int64_t held = stream->bytes_held();
      if (held < 0) negative = true;
      if (held > most.load()) most = held;
      std::this_thread::yield();
    }
  });
  int64_t batches = 0;
  for (;;) {
    RowBatch batch;
    bool end = false;
    ASSERT_TRUE(stream->Next(&batch, &end).ok());
    if (end) break;
    ++batches;
    int64_t held = stream->bytes_held();
    EXPECT_GE(held, kOwnedBase + converter_bytes);  // at least the batch in hand
  }
  done = true;
  reader.join();
  EXPECT_EQ(batches, 200);
  EXPECT_FALSE(negative.load());
  // At most K + W + 1 batches and converters at once.
  int64_t items = options.prefetch + options.in_flight + 1;
  EXPECT_LE(most.load(), items * (kOwnedBase + 200 + converter_bytes));
  stream->Close();
  EXPECT_EQ(stream->bytes_held(), 0);
}

/// Reads `path` as a K = 0, W = 1 row stream; returns bytes_held beyond the
/// converters' rows while the last batch is held (`*last_batch`), and checks
/// that once the stream ends only the converters' rows remain.
void ScanBytesHeld(const std::string& path, int64_t* last_batch) {
  std::unique_ptr<BatchProducer> producer;
  ASSERT_TRUE(scan::MakeIpcProducer(path, ipc::IpcReadOptions(), &producer).ok());
  std::unique_ptr<RowStream> stream;
  ASSERT_TRUE(RowStream::Make(std::move(producer), OneAtATime(), ConverterOptions(), &stream).ok());
  Items items;
  for (;;) {
    RowBatch batch;
    bool end = false;
    ASSERT_TRUE(stream->Next(&batch, &end).ok());
    if (end) break;
    items.Note(batch);
    // At least the rows and offsets it handed out.
    EXPECT_GE(batch.converter_bytes, batch.rows.data_size + 8 * (batch.rows.num_rows + 1));
    *last_batch = stream->bytes_held() - items.converter_bytes();
  }
  EXPECT_GT(items.converter_bytes(), 0);
  EXPECT_EQ(stream->bytes_held(), items.converter_bytes());
  stream->Close();
  EXPECT_EQ(stream->bytes_held(), 0);
}

TEST(IpcScan, BytesHeldCountsTheDecompressedBuffersOfHeldBatches) {
  ASSERT_FALSE(testing::ScanFiles().empty())
      << "no Python with pyarrow (make deps) to write the inputs";
  std::string compressed = testing::ScanFiles() + "/lists.zstd.arrow";
  // What the reader allocates to decompress the last batch.
  std::unique_ptr<ipc::IpcReader> reader;
  ASSERT_TRUE(ipc::IpcReader::Open(compressed, ipc::IpcReadOptions(), &reader).ok());
  ipc::IpcFileInfo info;
  ASSERT_TRUE(reader->Inspect(&info).ok());
  ASSERT_EQ(info.batches.size(), 12u);
  rowbridge::testing::OwnedArray last;
  ASSERT_TRUE(reader->ReadBatch(11, &last.array).ok());
  int64_t owned = reader->owned_bytes_read();
  EXPECT_GT(owned, 0);
  EXPECT_LE(owned, info.batches[11].uncompressed_body_bytes);
  // The compressed scan holds the last batch's decompressed buffers on top
  // of the converters' rows; the plain one, whose buffers pyarrow aligned,
  // points into the mapping and holds nothing more.
  int64_t compressed_last = -1;
  int64_t plain_last = -1;
  ScanBytesHeld(compressed, &compressed_last);
  ScanBytesHeld(testing::ScanFiles() + "/lists.none.arrow", &plain_last);
  EXPECT_EQ(compressed_last, owned);
  EXPECT_EQ(plain_last, 0);
}

TEST(IpcScan, CApiRowStreamReportsBytesHeld) {
  ASSERT_FALSE(testing::ScanFiles().empty())
      << "no Python with pyarrow (make deps) to write the inputs";
  std::string path = testing::ScanFiles() + "/flat.zstd.arrow";
  RowbridgeRowStream* stream = nullptr;
  RowbridgeError error{};
  ASSERT_EQ(rowbridge_row_stream_scan_ipc(path.c_str(), nullptr, nullptr, nullptr, &stream, &error),
            0)
      << error.message;
  EXPECT_EQ(rowbridge_row_stream_bytes_held(nullptr), 0);
  RowbridgeRowBatch rows{};
  int end = 0;
  ASSERT_EQ(rowbridge_row_stream_next(stream, &rows, &end, &error), 0) << error.message;
  ASSERT_EQ(end, 0);
  EXPECT_GT(rowbridge_row_stream_bytes_held(stream), rows.data_size + 8 * rows.num_rows);
  rowbridge_row_stream_free(stream);
}

}  // namespace
}  // namespace rowbridge::stream
