// The parallel IPC scan against reading the same input sequentially, on
// files pyarrow writes (tests/stream/make_scan_files.py), and its errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "rowbridge/ipc_reader.hpp"
#include "rowbridge/stream.h"
#include "rowbridge_ipc_test_config.hpp"
#include "support/scan_test_files.hpp"
#include "support/stream_test_support.hpp"

namespace rowbridge::scan {
namespace {

namespace fs = std::filesystem;
using stream::testing::AppendRows;
using stream::testing::Inputs;
using stream::testing::kScript;
using stream::testing::Pool;
using stream::testing::ScanFiles;
using stream::testing::SequentialRows;

TEST(IpcScan, ParallelScanEqualsSequentialRead) {
  ASSERT_FALSE(ScanFiles().empty()) << "no Python with pyarrow (make deps) to write the inputs";
  std::shared_ptr<stream::WorkerPool> pool = Pool(4);
  for (const std::string& path : Inputs()) {
    SCOPED_TRACE(path);
    int64_t batches = 0;
    std::vector<std::string> expected = SequentialRows(path, &batches);
    ASSERT_EQ(batches, 12);
    // Rows converted by the workers.
    for (int32_t w : {1, 3}) {
      std::unique_ptr<stream::BatchProducer> producer;
      ASSERT_TRUE(MakeIpcProducer(path, ipc::IpcReadOptions(), &producer).ok());
      EXPECT_EQ(producer->parallel(), path.back() == 'w');  // .arrow: the file format
      stream::StreamOptions options;
      options.pool = pool;
      options.in_flight = w;
      std::unique_ptr<stream::RowStream> stream;
      ASSERT_TRUE(
          stream::RowStream::Make(std::move(producer), options, ConverterOptions(), &stream).ok());
      std::vector<std::string> rows;
      for (;;) {
        stream::RowBatch batch;
        bool end = false;
        Status status = stream->Next(&batch, &end);
        ASSERT_TRUE(status.ok()) << status.message();
        if (end) break;
        AppendRows(batch.rows, &rows);
      }
      EXPECT_EQ(rows, expected);
      EXPECT_EQ(stream->stats().batches, batches);
    }
  }
}

TEST(IpcScan, CApiScansColumnsAndRows) {
  ASSERT_FALSE(ScanFiles().empty()) << "no Python with pyarrow (make deps) to write the inputs";
  std::string path = ScanFiles() + "/lists.zstd.arrow";
  int64_t batches = 0;
  std::vector<std::string> expected = SequentialRows(path, &batches);
  RowbridgeStreamOptions options;
  rowbridge_stream_options_init(&options);
  RowbridgeError error;
  ArrowArrayStream columns{};
  ASSERT_EQ(rowbridge_scan_ipc(path.c_str(), &options, nullptr, &columns, &error), 0)
      << error.message;
  rowbridge::testing::OwnedSchema schema;
  ASSERT_EQ(columns.get_schema(&columns, &schema.schema), 0);
  std::unique_ptr<Converter> converter;
  ASSERT_TRUE(Converter::Make(schema.schema, ConverterOptions(), &converter).ok());
  std::vector<std::string> rows;
  for (;;) {
    rowbridge::testing::OwnedArray array;
    ASSERT_EQ(columns.get_next(&columns, &array.array), 0);
    if (array.array.release == nullptr) break;
    RowBatchView view;
    ASSERT_TRUE(converter->Convert(array.array, &view).ok());
    AppendRows(view, &rows);
  }
  columns.release(&columns);
  EXPECT_EQ(rows, expected);

  RowbridgeRowStream* row_stream = nullptr;
  ASSERT_EQ(
      rowbridge_row_stream_scan_ipc(path.c_str(), &options, nullptr, nullptr, &row_stream, &error),
      0)
      << error.message;
  rows.clear();
  for (;;) {
    RowbridgeRowBatch batch;
    int end = 0;
    ASSERT_EQ(rowbridge_row_stream_next(row_stream, &batch, &end, &error), 0) << error.message;
    if (end) break;
    RowBatchView view{batch.data, batch.row_offsets, batch.num_rows, batch.first_row,
                      batch.data_size};
    AppendRows(view, &rows);
    ASSERT_EQ(rowbridge_row_stream_next_chunk(row_stream, &batch, &error), 0);
    EXPECT_EQ(batch.num_rows, 0);
  }
  rowbridge_row_stream_cancel(row_stream);
  rowbridge_row_stream_free(row_stream);
  EXPECT_EQ(rows, expected);
  EXPECT_EQ(rowbridge_scan_ipc("/nonexistent/input.arrow", &options, nullptr, &columns, &error),
            ROWBRIDGE_EINVAL);
  EXPECT_NE(std::string(error.message).find("/nonexistent/input.arrow"), std::string::npos)
      << error.message;
}

TEST(IpcScan, ACorruptBatchFailsAfterTheGoodOnes) {
  ASSERT_FALSE(ScanFiles().empty()) << "no Python with pyarrow (make deps) to write the inputs";
  std::string source = ScanFiles() + "/flat.zstd.arrow";
  std::unique_ptr<ipc::IpcReader> reader;
  ASSERT_TRUE(ipc::IpcReader::Open(source, ipc::IpcReadOptions(), &reader).ok());
  ipc::IpcFileInfo info;
  ASSERT_TRUE(reader->Inspect(&info).ok());
  // Batch 5's message claims a metadata length past the end of the file.
  std::string path = std::string(ROWBRIDGE_IPC_TEST_DATA_DIR) + "/stream-corrupt-" +
                     std::to_string(getpid()) + ".arrow";
  fs::copy_file(source, path, fs::copy_options::overwrite_existing);
  {
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(info.batches[5].offset + 4);
    const char huge[4] = {'\xf0', '\xff', '\xff', '\x7f'};
    file.write(huge, 4);
  }
  for (int32_t w : {1, 4}) {
    std::unique_ptr<stream::BatchProducer> producer;
    ASSERT_TRUE(MakeIpcProducer(path, ipc::IpcReadOptions(), &producer).ok());
    stream::StreamOptions options;
    options.pool = Pool(4);
    options.in_flight = w;
    std::unique_ptr<stream::PrefetchStream> stream;
    ASSERT_TRUE(stream::PrefetchStream::Make(std::move(producer), options, &stream).ok());
    int64_t good = 0;
    Status status;
    for (;;) {
      rowbridge::testing::OwnedArray array;
      bool end = false;
      status = stream->Next(&array.array, &end);
      if (!status.ok() || end) break;
      ++good;
    }
    EXPECT_EQ(good, 5);
    EXPECT_FALSE(status.ok());
    EXPECT_NE(status.message().find("record batch 5"), std::string::npos) << status.message();
  }
  fs::remove(path);
  std::unique_ptr<stream::BatchProducer> producer;
  Status status = MakeIpcProducer(kScript, ipc::IpcReadOptions(), &producer);  // not Arrow
  EXPECT_FALSE(status.ok());
}

}  // namespace
}  // namespace rowbridge::scan
