// max_chunk_bytes: a batch whose rows exceed the cap comes back in several
// chunks (HasMoreChunks / NextChunk), each holding whole rows, identical to
// the unsplit conversion; a single row larger than the cap is a Capacity
// error naming the row.
#include <gtest/gtest.h>

#include "rowbridge/converter.hpp"
#include "support/row_test_util.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge {
namespace {

using testing::Batch;
using testing::Bytes;
using testing::Conversion;
using testing::IsError;
using testing::Primitive;
using testing::TestArray;

struct Chunk {
  int64_t first_row = 0;
  std::vector<int64_t> offsets;
  std::vector<Bytes> rows;
  int64_t data_size = 0;
};

/// Converts `batch` with a cap, recording every chunk, and returns the status.
Status Chunks(const TestArray& batch, int64_t cap, std::vector<Chunk>* chunks,
              Validation validation = Validation::kCheap) {
  auto exported = testing::ExportBatch(batch);
  ConverterOptions options;
  options.max_chunk_bytes = cap;
  options.validation = validation;
  std::unique_ptr<Converter> converter;
  ROWBRIDGE_RETURN_NOT_OK(Converter::Make(exported->schema.schema, options, &converter));
  RowBatchView view;
  Status status = converter->Convert(exported->array.array, &view);
  while (status.ok() && view.num_rows > 0) {
    Chunk chunk;
    chunk.first_row = view.first_row;
    chunk.data_size = view.data_size;
    chunk.offsets.assign(view.row_offsets, view.row_offsets + view.num_rows + 1);
    for (int64_t k = 0; k < view.num_rows; ++k) {
      chunk.rows.emplace_back(view.data + view.row_offsets[k], view.data + view.row_offsets[k + 1]);
    }
    chunks->push_back(std::move(chunk));
    if (!converter->HasMoreChunks()) break;
    status = converter->NextChunk(&view);
  }
  if (status.ok()) {
    EXPECT_FALSE(converter->HasMoreChunks());
    Status end = converter->NextChunk(&view);
    EXPECT_TRUE(end.ok()) << end.message();
    EXPECT_EQ(view.num_rows, 0);
  } else {
    EXPECT_FALSE(converter->HasMoreChunks()) << "an error ends the batch";
  }
  return status;
}

std::vector<Bytes> Unsplit(const TestArray& batch) {
  Conversion conversion = testing::Convert(batch);
  EXPECT_TRUE(conversion.status.ok()) << conversion.status.message();
  EXPECT_EQ(conversion.chunk_rows.size(), conversion.rows.empty() ? 0u : 1u);
  return conversion.rows;
}

/// Checks chunk invariants and that the chunks' rows are the unsplit rows.
void ExpectChunksCover(const std::vector<Chunk>& chunks, const std::vector<Bytes>& rows,
                       int64_t cap) {
  size_t next = 0;
  for (size_t c = 0; c < chunks.size(); ++c) {
    const Chunk& chunk = chunks[c];
    SCOPED_TRACE("chunk " + std::to_string(c));
    EXPECT_EQ(chunk.first_row, static_cast<int64_t>(next));
    EXPECT_FALSE(chunk.rows.empty());
    EXPECT_LE(chunk.data_size, cap);
    EXPECT_EQ(chunk.offsets.front(), 0);
    EXPECT_EQ(chunk.offsets.back(), chunk.data_size);
    for (size_t k = 0; k < chunk.rows.size(); ++k) {
      ASSERT_LT(next, rows.size());
      EXPECT_EQ(testing::Hex(chunk.rows[k]), testing::Hex(rows[next])) << "row " << next;
      ++next;
    }
    // Chunks are filled greedily: the next row would not have fitted.
    if (next < rows.size()) {
      EXPECT_GT(chunk.data_size + static_cast<int64_t>(rows[next].size()), cap);
    }
  }
  EXPECT_EQ(next, rows.size());
}

TestArray Strings(int64_t n, int64_t big_row = -1, size_t big_length = 0) {
  std::vector<std::optional<std::string>> values;
  std::vector<std::optional<int64_t>> ids;
  for (int64_t i = 0; i < n; ++i) {
    ids.push_back(i);
    if (i % 11 == 4) values.push_back(std::nullopt);
    else if (i == big_row) values.push_back(std::string(big_length, 'B'));
    else
      values.push_back(std::string(static_cast<size_t>(i % 37), static_cast<char>('a' + i % 26)));
  }
  return Batch({Primitive<int64_t>("l", "id", ids), testing::Strings("u", "s", values)});
}

TEST(Chunking, FixedSizeRowsSplitEvenly) {
  std::vector<std::optional<int64_t>> values;
  for (int64_t i = 0; i < 100; ++i) values.push_back(i * 3 - 50);
  TestArray batch = Batch({Primitive<int64_t>("l", "a", values)});
  std::vector<Bytes> rows = Unsplit(batch);
  for (int64_t cap : {160, 170, 175, 16, 1600, 1 << 20}) {
    SCOPED_TRACE("cap " + std::to_string(cap));
    std::vector<Chunk> chunks;
    ASSERT_TRUE(Chunks(batch, cap, &chunks).ok());
    size_t per_chunk = static_cast<size_t>(std::min<int64_t>(100, cap / 16));
    ASSERT_EQ(chunks.size(), (100 + per_chunk - 1) / per_chunk);
    for (const Chunk& chunk : chunks) {
      for (size_t k = 0; k < chunk.offsets.size(); ++k)
        EXPECT_EQ(chunk.offsets[k], static_cast<int64_t>(16 * k));
    }
    ExpectChunksCover(chunks, rows, cap);
  }
}

TEST(Chunking, VariableSizeRowsSplitGreedily) {
  TestArray batch = Strings(200);
  std::vector<Bytes> rows = Unsplit(batch);
  for (int64_t cap : {64, 65, 100, 300, 1000, 4096}) {
    SCOPED_TRACE("cap " + std::to_string(cap));
    std::vector<Chunk> chunks;
    Status status = Chunks(batch, cap, &chunks);
    ASSERT_TRUE(status.ok()) << status.message();
    EXPECT_GT(chunks.size(), 1u);
    ExpectChunksCover(chunks, rows, cap);
  }
}

TEST(Chunking, CapEqualToTheLargestRowWorks) {
  TestArray batch = Strings(50);
  std::vector<Bytes> rows = Unsplit(batch);
  size_t largest = 0;
  for (const Bytes& row : rows) largest = std::max(largest, row.size());
  std::vector<Chunk> chunks;
  ASSERT_TRUE(Chunks(batch, static_cast<int64_t>(largest), &chunks).ok());
  ExpectChunksCover(chunks, rows, static_cast<int64_t>(largest));
}

TEST(Chunking, ConstantVariableBytesCount) {
  // Large decimals and calendar intervals add 16 bytes each to every row.
  std::vector<std::optional<testing::Int128>> decimals;
  std::vector<std::optional<testing::MonthDayNanoValue>> intervals;
  for (int i = 0; i < 30; ++i) {
    decimals.push_back(i % 3 == 0 ? std::nullopt : std::optional<testing::Int128>(i));
    intervals.push_back(testing::MonthDayNanoValue{i, i, i});
  }
  TestArray batch =
      Batch({testing::Decimal("d", 128, 30, 0, decimals), testing::MonthDayNano("iv", intervals)});
  std::vector<Bytes> rows = Unsplit(batch);
  ASSERT_EQ(rows[0].size(), 8u + 16 + 32);
  std::vector<Chunk> chunks;
  ASSERT_TRUE(Chunks(batch, 56 * 4 + 10, &chunks).ok());
  ASSERT_EQ(chunks.size(), 8u);  // 4 rows each, then 2
  ExpectChunksCover(chunks, rows, 56 * 4 + 10);
}

TEST(Chunking, GatheredAndSlicedColumns) {
  std::vector<std::optional<int32_t>> indices;
  std::vector<std::optional<int32_t>> ends;
  for (int i = 0; i < 120; ++i)
    indices.push_back(i % 9 == 0 ? std::nullopt : std::optional<int32_t>(i % 4));
  for (int i = 1; i <= 40; ++i) ends.push_back(3 * i);
  std::vector<std::optional<std::string>> run_values;
  for (int i = 0; i < 40; ++i) run_values.push_back(std::string(static_cast<size_t>(i), 'r'));
  TestArray batch = testing::Slice(
      Batch({testing::Dictionary(
                 Primitive<int32_t>("i", "d", indices),
                 testing::Strings("u", "", {"zero", "one-is-longer", std::nullopt, ""})),
             testing::RunEnd("r", 120, Primitive<int32_t>("i", "", ends),
                             testing::Strings("u", "", run_values))}),
      7, 100);
  std::vector<Bytes> rows = Unsplit(batch);
  ASSERT_EQ(rows.size(), 100u);
  for (int64_t cap : {128, 256, 1000}) {
    std::vector<Chunk> chunks;
    Status status = Chunks(batch, cap, &chunks);
    ASSERT_TRUE(status.ok()) << status.message();
    ExpectChunksCover(chunks, rows, cap);
  }
}

TEST(Chunking, RowLargerThanTheCapIsACapacityErrorNamingIt) {
  TestArray batch = Strings(40, 25, 500);
  std::vector<Bytes> rows = Unsplit(batch);
  std::vector<Chunk> chunks;
  Status status = Chunks(batch, 200, &chunks);
  EXPECT_TRUE(IsError(status, StatusCode::kCapacity, {"row 25"}));
  // Rows before the large one came back in chunks, and nothing after it.
  size_t returned = 0;
  for (const Chunk& chunk : chunks) returned += chunk.rows.size();
  EXPECT_EQ(returned, 25u);
}

TEST(Chunking, FirstRowLargerThanTheCapFailsTheConvertCall) {
  std::vector<Chunk> chunks;
  EXPECT_TRUE(IsError(Chunks(Strings(10, 0, 300), 100, &chunks), StatusCode::kCapacity, {"row 0"}));
  EXPECT_TRUE(chunks.empty());
  // Fixed-size rows: 8 + 8 * 3 = 32 bytes each, cap 31.
  TestArray fixed = Batch({Primitive<int8_t>("c", "a", {1}), Primitive<int8_t>("c", "b", {1}),
                           Primitive<int8_t>("c", "c", {1})});
  EXPECT_TRUE(IsError(Chunks(fixed, 31, &chunks), StatusCode::kCapacity, {"row 0"}));
}

TEST(Chunking, ANewBatchRestartsChunking) {
  auto a = testing::ExportBatch(Strings(100));
  auto b = testing::ExportBatch(Strings(30));
  ConverterOptions options;
  options.max_chunk_bytes = 128;
  std::unique_ptr<Converter> converter;
  ASSERT_TRUE(Converter::Make(a->schema.schema, options, &converter).ok());
  RowBatchView view;
  ASSERT_TRUE(converter->Convert(a->array.array, &view).ok());
  ASSERT_TRUE(converter->HasMoreChunks());
  ASSERT_TRUE(converter->NextChunk(&view).ok());
  EXPECT_GT(view.first_row, 0);
  // Abandon batch a mid-way: b starts from its row 0.
  std::vector<Bytes> expected = Unsplit(Strings(30));
  std::vector<Bytes> actual;
  ASSERT_TRUE(converter->Convert(b->array.array, &view).ok());
  EXPECT_EQ(view.first_row, 0);
  while (view.num_rows > 0) {
    for (int64_t k = 0; k < view.num_rows; ++k) {
      actual.emplace_back(view.data + view.row_offsets[k], view.data + view.row_offsets[k + 1]);
    }
    ASSERT_TRUE(converter->NextChunk(&view).ok());
  }
  EXPECT_EQ(actual, expected);
}

TEST(Chunking, ErrorInALaterChunkNamesTheBatchRow) {
  std::vector<std::optional<int64_t>> seconds;
  for (int64_t i = 0; i < 50; ++i) seconds.push_back(i == 37 ? int64_t{1} << 62 : i);
  TestArray batch = Batch({Primitive<int64_t>("tss:", "ts", seconds)});
  std::vector<Chunk> chunks;
  EXPECT_TRUE(IsError(Chunks(batch, 16 * 10, &chunks), StatusCode::kOverflow, {"'ts'", "row 37"}));
}

TEST(Chunking, NonPositiveCapIsInvalid) {
  auto exported = testing::ExportBatch(Strings(3));
  for (int64_t cap : {int64_t{0}, int64_t{-1}, INT64_MIN}) {
    ConverterOptions options;
    options.max_chunk_bytes = cap;
    std::unique_ptr<Converter> converter;
    EXPECT_TRUE(IsError(Converter::Make(exported->schema.schema, options, &converter),
                        StatusCode::kInvalid, {"max_chunk_bytes"}));
  }
}

}  // namespace
}  // namespace rowbridge
