// What an IPC scan reads: column projection, batch ranges, readers cloned for
// parallel reads, the footer info of the C API, and the stream's metrics.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "rowbridge/ipc_reader.hpp"
#include "rowbridge/stream.h"
#include "support/scan_test_files.hpp"
#include "support/stream_test_support.hpp"

namespace rowbridge::scan {
namespace {

using stream::testing::AppendRows;
using stream::testing::Pool;
using stream::testing::ScanFiles;
using stream::testing::ScanRows;
using stream::testing::SequentialRows;

void ReleaseNothingSchema(ArrowSchema*) {}
void ReleaseNothingArray(ArrowArray*) {}

/// A borrowed view of some top-level children of a struct schema and array.
struct Projection {
  std::vector<ArrowSchema*> schema_children;
  std::vector<ArrowArray*> array_children;
  ArrowSchema schema{};
  ArrowArray array{};
  const void* buffers[1] = {nullptr};

  Projection(ArrowSchema* full_schema, ArrowArray* full_array,
             const std::vector<int32_t>& columns) {
    for (int32_t c : columns) {
      schema_children.push_back(full_schema->children[c]);
      if (full_array != nullptr) array_children.push_back(full_array->children[c]);
    }
    schema.format = "+s";
    schema.name = "";
    schema.n_children = static_cast<int64_t>(columns.size());
    schema.children = schema_children.data();
    schema.release = ReleaseNothingSchema;
    if (full_array != nullptr) {
      array.length = full_array->length;
      array.n_buffers = 1;
      array.buffers = buffers;
      array.n_children = static_cast<int64_t>(columns.size());
      array.children = array_children.data();
      array.release = ReleaseNothingArray;
    }
  }
};

/// The rows of batches [first, first + count) of `path`, only `columns`: read
/// in full, in order, and projected afterwards.
std::vector<std::string> ProjectedRows(const std::string& path, const std::vector<int32_t>& columns,
                                       int64_t first, int64_t count) {
  std::vector<std::string> rows;
  std::unique_ptr<ipc::IpcReader> reader;
  EXPECT_TRUE(ipc::IpcReader::Open(path, ipc::IpcReadOptions(), &reader).ok());
  rowbridge::testing::OwnedSchema schema;
  EXPECT_TRUE(reader->ExportSchema(&schema.schema).ok());
  Projection schema_view(&schema.schema, nullptr, columns);
  std::unique_ptr<Converter> converter;
  EXPECT_TRUE(Converter::Make(schema_view.schema, ConverterOptions(), &converter).ok());
  for (int64_t index = 0;; ++index) {
    rowbridge::testing::OwnedArray array;
    bool end = false;
    EXPECT_TRUE(reader->ReadNext(&array.array, &end).ok());
    if (end || (count >= 0 && index >= first + count)) break;
    if (index < first) continue;
    Projection view(&schema.schema, &array.array, columns);
    RowBatchView batch;
    EXPECT_TRUE(converter->Convert(view.array, &batch).ok());
    AppendRows(batch, &rows);
  }
  return rows;
}

TEST(IpcScanOptions, ProjectionAndRangesEqualTheFullReadProjected) {
  ASSERT_FALSE(ScanFiles().empty()) << "no Python with pyarrow (make deps) to write the inputs";
  // flat: a, b, c, d, e; lists: ints, words, points, id. 12 batches each.
  struct Case {
    std::vector<int32_t> columns;
    int64_t first;
    int64_t count;
  };
  const std::vector<Case> cases = {
      {{0, 1, 2, 3}, 0, -1}, {{3, 0}, 0, -1}, {{2}, 3, 4},
      {{}, 0, -1},           {{1, 3}, 11, 1}, {{0}, 12, 0},
  };
  for (const char* name : {"flat.zstd", "lists.zstd", "lists.none", "flat.lz4"}) {
    for (const char* suffix : {".arrow", ".arrows"}) {
      std::string path = ScanFiles() + "/" + name + suffix;
      for (const Case& c : cases) {
        SCOPED_TRACE(path + " first " + std::to_string(c.first) + " count " +
                     std::to_string(c.count) + " columns " + std::to_string(c.columns.size()));
        IpcScanOptions scan;
        scan.read.select_columns = true;
        scan.read.columns = c.columns;
        scan.first_batch = c.first;
        scan.batch_count = c.count;
        int64_t batches = 0;
        std::vector<std::string> rows = ScanRows(path, scan, &batches);
        EXPECT_EQ(batches, c.count < 0 ? 12 - c.first : c.count);
        EXPECT_EQ(rows, ProjectedRows(path, c.columns, c.first, c.count));
      }
    }
  }
}

TEST(IpcScanOptions, BadSelectionsAndRangesNameTheInput) {
  ASSERT_FALSE(ScanFiles().empty()) << "no Python with pyarrow (make deps) to write the inputs";
  std::string path = ScanFiles() + "/flat.zstd.arrow";
  std::unique_ptr<stream::BatchProducer> producer;
  IpcScanOptions scan;
  scan.read.select_columns = true;
  scan.read.columns = {1, 5};
  Status status = MakeIpcProducer(path, scan, &producer);
  EXPECT_EQ(status.code(), StatusCode::kInvalid);
  EXPECT_NE(status.message().find(path), std::string::npos) << status.message();
  EXPECT_NE(status.message().find("column 5 is not in the schema"), std::string::npos)
      << status.message();
  scan.read.columns = {2, 2};
  EXPECT_NE(MakeIpcProducer(path, scan, &producer).message().find("selected twice"),
            std::string::npos);
  scan.read.select_columns = false;
  scan.first_batch = 10;
  scan.batch_count = 3;
  status = MakeIpcProducer(path, scan, &producer);
  EXPECT_NE(status.message().find("batch range [10, 13) is outside the file's 12"),
            std::string::npos)
      << status.message();
  // The stream format finds out while reading: after the batches that exist.
  int64_t batches = 0;
  std::unique_ptr<stream::BatchProducer> stream_producer;
  ASSERT_TRUE(MakeIpcProducer(ScanFiles() + "/flat.zstd.arrows", scan, &stream_producer).ok());
  std::unique_ptr<stream::PrefetchStream> stream;
  stream::StreamOptions options;
  options.pool = Pool(2);
  ASSERT_TRUE(stream::PrefetchStream::Make(std::move(stream_producer), options, &stream).ok());
  for (;;) {
    rowbridge::testing::OwnedArray array;
    bool end = false;
    status = stream->Next(&array.array, &end);
    if (!status.ok() || end) break;
    ++batches;
  }
  EXPECT_EQ(batches, 2);
  EXPECT_NE(status.message().find("ends before batch 12"), std::string::npos) << status.message();
}

TEST(IpcScanOptions, ClonedReadersReadInParallel) {
  ASSERT_FALSE(ScanFiles().empty()) << "no Python with pyarrow (make deps) to write the inputs";
  std::string path = ScanFiles() + "/lists.zstd.arrow";
  int64_t batches = 0;
  std::vector<std::string> expected = SequentialRows(path, &batches);
  std::unique_ptr<ipc::IpcReader> reader;
  ASSERT_TRUE(ipc::IpcReader::Open(path, ipc::IpcReadOptions(), &reader).ok());
  rowbridge::testing::OwnedSchema schema;
  ASSERT_TRUE(reader->ExportSchema(&schema.schema).ok());
  std::vector<std::vector<std::string>> results(3);
  std::vector<std::thread> threads;
  for (auto& rows : results) {
    std::unique_ptr<ipc::IpcReader> clone;
    ASSERT_TRUE(reader->Clone(&clone).ok());
    threads.emplace_back([&rows, &schema, batches, clone = std::move(clone)] {
      std::unique_ptr<Converter> converter;
      EXPECT_TRUE(Converter::Make(schema.schema, ConverterOptions(), &converter).ok());
      for (int64_t i = 0; i < batches; ++i) {
        rowbridge::testing::OwnedArray array;
        EXPECT_TRUE(clone->ReadBatch(i, &array.array).ok());
        RowBatchView view;
        EXPECT_TRUE(converter->Convert(array.array, &view).ok());
        AppendRows(view, &rows);
      }
      EXPECT_GT(clone->body_bytes_read(), 0);
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (const auto& rows : results) EXPECT_EQ(rows, expected);
  EXPECT_EQ(reader->body_bytes_read(), 0);
}

TEST(IpcScanOptions, CApiSelectsColumnsAndRangesAndReadsTheFooter) {
  ASSERT_FALSE(ScanFiles().empty()) << "no Python with pyarrow (make deps) to write the inputs";
  std::string path = ScanFiles() + "/flat.zstd.arrow";
  RowbridgeError error;
  RowbridgeIpcFileInfo info;
  rowbridge::testing::OwnedSchema file_schema;
  ASSERT_EQ(rowbridge_ipc_file_info(path.c_str(), &file_schema.schema, &info, &error), 0)
      << error.message;
  EXPECT_EQ(info.format, 1);
  EXPECT_EQ(info.num_batches, 12);
  EXPECT_EQ(file_schema.schema.n_children, 5);
  int64_t range_body_bytes = info.batches[2].body_bytes + info.batches[3].body_bytes;
  for (int64_t i = 0; i < info.num_batches; ++i) {
    EXPECT_GT(info.batches[i].num_rows, 0);
    EXPECT_GT(info.batches[i].uncompressed_body_bytes, info.batches[i].body_bytes);  // ZSTD
  }
  rowbridge_ipc_file_info_free(&info);
  rowbridge_ipc_file_info_free(&info);  // a second free is harmless

  RowbridgeScanOptions scan;
  rowbridge_scan_options_init(&scan);
  const int32_t columns[] = {4, 0};
  scan.columns = columns;
  scan.num_columns = 2;
  scan.first_batch = 2;
  scan.batch_count = 2;
  ArrowArrayStream stream{};
  ASSERT_EQ(rowbridge_scan_ipc(path.c_str(), nullptr, &scan, &stream, &error), 0) << error.message;
  rowbridge::testing::OwnedSchema schema;
  ASSERT_EQ(stream.get_schema(&stream, &schema.schema), 0);
  ASSERT_EQ(schema.schema.n_children, 2);
  EXPECT_STREQ(schema.schema.children[0]->name, "e");
  EXPECT_STREQ(schema.schema.children[1]->name, "a");
  int64_t batches = 0;
  for (;; ++batches) {
    rowbridge::testing::OwnedArray array;
    ASSERT_EQ(stream.get_next(&stream, &array.array), 0);
    if (array.array.release == nullptr) break;
    EXPECT_EQ(array.array.n_children, 2);
  }
  EXPECT_EQ(batches, 2);
  stream.release(&stream);

  RowbridgeRowStream* rows = nullptr;
  ASSERT_EQ(rowbridge_row_stream_scan_ipc(path.c_str(), nullptr, &scan, nullptr, &rows, &error), 0)
      << error.message;
  rowbridge_row_stream_free(rows);

  scan.num_columns = -2;
  EXPECT_EQ(rowbridge_scan_ipc(path.c_str(), nullptr, &scan, &stream, &error), ROWBRIDGE_EINVAL);
  EXPECT_EQ(rowbridge_ipc_file_info("/nonexistent.arrow", nullptr, &info, &error),
            ROWBRIDGE_EINVAL);
  EXPECT_NE(std::string(error.message).find("/nonexistent.arrow"), std::string::npos);

  // The stream reports the stored body bytes of the batches it handed out.
  IpcScanOptions range;
  range.first_batch = 2;
  range.batch_count = 2;
  std::unique_ptr<stream::BatchProducer> producer;
  ASSERT_TRUE(MakeIpcProducer(path, range, &producer).ok());
  stream::StreamOptions options;
  options.pool = Pool(2);
  std::unique_ptr<stream::PrefetchStream> prefetch;
  ASSERT_TRUE(stream::PrefetchStream::Make(std::move(producer), options, &prefetch).ok());
  for (;;) {
    rowbridge::testing::OwnedArray array;
    bool end = false;
    ASSERT_TRUE(prefetch->Next(&array.array, &end).ok());
    if (end) break;
  }
  stream::StreamStats stats = prefetch->stats();
  EXPECT_EQ(stats.input_bytes, range_body_bytes);
  EXPECT_GT(stats.produce_nanos, 0);
}

TEST(IpcScanOptions, PollReturnsAfterAWakePeriodWithoutABatch) {
  // A producer whose second batch waits for the test's signal.
  auto release = std::make_shared<std::atomic<bool>>(false);
  rowbridge::testing::OwnedSchema schema;
  stream::testing::ExportCountedSchema(&schema.schema);
  auto counters = std::make_shared<stream::testing::BatchCounters>();
  int64_t next = 0;
  std::unique_ptr<stream::BatchProducer> producer;
  ASSERT_TRUE(stream::MakeFunctionProducer(
                  &schema.schema,
                  [&next, release, counters](ArrowArray* out, bool* end) {
                    if (next == 2) {
                      *end = true;
                      return Status::Ok();
                    }
                    while (next == 1 && !release->load()) {
                      std::this_thread::sleep_for(std::chrono::milliseconds(1));
                    }
                    stream::testing::MakeCountedBatch(next++, 4, counters, out);
                    return Status::Ok();
                  },
                  &producer)
                  .ok());
  stream::StreamOptions options;
  options.pool = Pool(2);
  options.wake_period = std::chrono::milliseconds(2);
  std::unique_ptr<stream::PrefetchStream> stream;
  ASSERT_TRUE(stream::PrefetchStream::Make(std::move(producer), options, &stream).ok());
  // Destroyed before the stream: a failing test never leaves the producer waiting.
  std::shared_ptr<void> unblock(nullptr, [release](void*) { release->store(true); });
  int64_t not_ready = 0;
  int64_t batches = 0;
  for (;;) {
    rowbridge::testing::OwnedArray array;
    bool end = false;
    bool ready = false;
    ASSERT_TRUE(stream->Poll(&array.array, &end, &ready).ok());
    if (!ready) {
      EXPECT_EQ(array.array.release, nullptr);
      if (++not_ready == 3) release->store(true);
      continue;
    }
    if (end) break;
    EXPECT_EQ(stream::testing::BatchIndex(array.array), batches);
    ++batches;
  }
  EXPECT_EQ(batches, 2);
  EXPECT_GE(not_ready, 3);
  EXPECT_GT(stream->stats().wait_nanos, 0);
}

}  // namespace
}  // namespace rowbridge::scan
