// Filled inputs: a file whose bytes arrive range by range (as the JVM fetches
// them through Hadoop) behind a gated stream. Only the ranges a batch's
// selected columns need are written; the rows must equal a full read's.
#include "scan/filled_input.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <thread>
#include <vector>

#include "support/scan_test_files.hpp"
#include "support/stream_test_support.hpp"

namespace rowbridge::scan {
namespace {

using stream::testing::AppendRows;
using stream::testing::Pool;
using stream::testing::ScanFiles;

std::vector<uint8_t> FileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

/// Writes [offset, offset + length) of `file` into the image; returns length.
int64_t Fill(const std::vector<uint8_t>& file, FilledImage* image, int64_t offset, int64_t length) {
  std::memcpy(image->data() + offset, file.data() + offset, static_cast<size_t>(length));
  return length;
}

/// Writes the head and the footer (what opening a file reads), and the
/// dictionary batches. Returns the bytes written.
int64_t FillHeadAndFooter(const std::vector<uint8_t>& file, FilledImage* image) {
  auto size = static_cast<int64_t>(file.size());
  int32_t footer_length = 0;
  std::memcpy(&footer_length, file.data() + size - 10, 4);
  int64_t tail = int64_t{footer_length} + 10;
  return Fill(file, image, 0, 8) + Fill(file, image, size - tail, tail);
}

struct FilledScan {
  std::vector<std::string> rows;
  int64_t written = 0;
};

/// Scans batches [first, first + count) of `columns` while another thread
/// writes each batch's ranges and opens the gate one batch at a time.
FilledScan ScanFilled(const std::string& path, const std::vector<int32_t>& columns, int64_t first,
                      int64_t count, std::shared_ptr<FilledImage>* kept) {
  FilledScan result;
  std::vector<uint8_t> file = FileBytes(path);
  std::shared_ptr<FilledImage> image;
  EXPECT_TRUE(FilledImage::Make(static_cast<int64_t>(file.size()), &image).ok());
  *kept = image;
  int64_t head = FillHeadAndFooter(file, image.get());
  ipc::IpcReadOptions read;
  read.select_columns = true;
  read.columns = columns;
  std::unique_ptr<ipc::IpcReader> planner;
  Status status = OpenFilledReader(image, path, read, &planner);
  EXPECT_TRUE(status.ok()) << status.message();
  if (!status.ok()) return result;
  ipc::IpcFileLayout layout;
  EXPECT_TRUE(planner->Layout(&layout).ok());
  for (const auto& block : layout.dictionaries) {
    head += Fill(file, image.get(), block.offset, block.metadata_bytes + block.body_bytes);
  }
  image->NoteFilled(-1, head);
  IpcScanOptions scan;
  scan.first_batch = first;
  scan.batch_count = count;
  std::unique_ptr<stream::BatchProducer> producer;
  EXPECT_TRUE(MakeFilledProducer(image, *planner, scan, &producer).ok());
  stream::StreamOptions options;
  options.pool = Pool(3);
  options.in_flight = 2;
  options.prefetch = 1;
  options.ready_batches = 0;
  std::unique_ptr<stream::RowStream> stream;
  EXPECT_TRUE(
      stream::RowStream::Make(std::move(producer), options, ConverterOptions(), &stream).ok());
  if (stream == nullptr) return result;
  stream::StreamGate gate = stream->gate();
  std::thread fetcher([&] {
    for (int64_t i = 0; i < count; ++i) {
      const auto& block = layout.record_batches[static_cast<size_t>(first + i)];
      int64_t bytes = Fill(file, image.get(), block.offset, block.metadata_bytes);
      std::vector<ipc::IpcByteRange> ranges;
      Status planned = planner->BatchByteRanges(first + i, &ranges);
      EXPECT_TRUE(planned.ok()) << planned.message();
      for (const auto& range : ranges) bytes += Fill(file, image.get(), range.offset, range.length);
      image->NoteFilled(first + i, bytes);
      result.written += bytes;
      gate.Open(i + 1);
    }
  });
  for (;;) {
    stream::RowBatch batch;
    bool end = false;
    status = stream->Next(&batch, &end);
    EXPECT_TRUE(status.ok()) << status.message();
    if (!status.ok() || end) break;
    AppendRows(batch.rows, &result.rows);
  }
  fetcher.join();
  stream->Close();
  EXPECT_EQ(image->resident_bytes(), head) << "every batch's bytes are discarded on release";
  return result;
}

/// The rows of a plain scan of the same file, for comparison.
std::vector<std::string> MappedRows(const std::string& path, const std::vector<int32_t>& columns,
                                    int64_t first, int64_t count) {
  IpcScanOptions scan;
  scan.read.select_columns = true;
  scan.read.columns = columns;
  scan.first_batch = first;
  scan.batch_count = count;
  int64_t batches = 0;
  return stream::testing::ScanRows(path, scan, &batches);
}

TEST(FilledInput, OnlyTheSelectedColumnsRangesAreNeeded) {
  ASSERT_FALSE(ScanFiles().empty()) << "no Python with pyarrow (make deps) to write the inputs";
  struct Case {
    std::vector<int32_t> columns;
    int64_t first;
    int64_t count;
  };
  // flat: a, b, c, d, e; lists: ints, words, points, id. 12 batches each.
  const std::vector<Case> cases = {{{0, 1, 2, 3}, 0, 12}, {{3, 0}, 2, 7}, {{1}, 11, 1}};
  for (const char* name : {"flat.zstd", "flat.none", "lists.none", "lists.lz4"}) {
    std::string path = ScanFiles() + "/" + name + ".arrow";
    int64_t size = static_cast<int64_t>(FileBytes(path).size());
    for (const Case& c : cases) {
      SCOPED_TRACE(path + " first " + std::to_string(c.first) + " columns " +
                   std::to_string(c.columns.size()));
      std::shared_ptr<FilledImage> image;
      FilledScan scan = ScanFilled(path, c.columns, c.first, c.count, &image);
      EXPECT_EQ(scan.rows, MappedRows(path, c.columns, c.first, c.count));
      EXPECT_FALSE(scan.rows.empty());
      if (c.columns.size() < 3) {
        EXPECT_LT(scan.written, size / 2) << "pruned columns were read";
      }
    }
  }
}

TEST(FilledInput, NoBatchIsProducedBeforeTheGateOpens) {
  ASSERT_FALSE(ScanFiles().empty()) << "no Python with pyarrow (make deps) to write the inputs";
  std::string path = ScanFiles() + "/flat.none.arrow";
  std::vector<uint8_t> file = FileBytes(path);
  std::shared_ptr<FilledImage> image;
  ASSERT_TRUE(FilledImage::Make(static_cast<int64_t>(file.size()), &image).ok());
  FillHeadAndFooter(file, image.get());
  std::unique_ptr<ipc::IpcReader> planner;
  ASSERT_TRUE(OpenFilledReader(image, path, ipc::IpcReadOptions(), &planner).ok());
  std::unique_ptr<stream::BatchProducer> producer;
  ASSERT_TRUE(MakeFilledProducer(image, *planner, IpcScanOptions(), &producer).ok());
  stream::StreamOptions options;
  options.pool = Pool(2);
  options.ready_batches = 0;
  options.wake_period = std::chrono::milliseconds(20);
  std::unique_ptr<stream::PrefetchStream> stream;
  ASSERT_TRUE(stream::PrefetchStream::Make(std::move(producer), options, &stream).ok());
  rowbridge::testing::OwnedArray array;
  bool end = false;
  bool ready = true;
  ASSERT_TRUE(stream->Poll(&array.array, &end, &ready).ok());
  EXPECT_FALSE(ready) << "a batch was produced from bytes not yet written";
  ipc::IpcFileLayout layout;
  ASSERT_TRUE(planner->Layout(&layout).ok());
  const auto& block = layout.record_batches[0];
  Fill(file, image.get(), block.offset, block.metadata_bytes + block.body_bytes);
  image->NoteFilled(0, block.metadata_bytes + block.body_bytes);
  int64_t before = image->resident_bytes();
  stream->gate().Open(1);
  ASSERT_TRUE(stream->Next(&array.array, &end).ok());
  EXPECT_FALSE(end);
  EXPECT_EQ(array.array.length, 1000) << "flat files hold batches of 1000 rows";
  array.array.release(&array.array);
  EXPECT_EQ(image->resident_bytes(), before - (block.metadata_bytes + block.body_bytes));
  ASSERT_TRUE(stream->Poll(&array.array, &end, &ready).ok());
  EXPECT_FALSE(ready);
}

}  // namespace
}  // namespace rowbridge::scan
