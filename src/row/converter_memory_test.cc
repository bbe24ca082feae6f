// Converter::buffer_bytes: what a converter holds for rows and scratch, the
// figure a memory manager charges (the row streams count it in bytes_held).
// It covers the rows and offsets it returns and a nested column's per-level
// state, stays put when a batch of no more rows is converted again, and
// grows with a larger batch.
#include <gtest/gtest.h>

#include <string>

#include "rowbridge/converter.hpp"
#include "support/row_test_util.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge {
namespace {

using testing::OwnedArray;
using testing::OwnedSchema;

/// A record batch of `rows` rows: int64 and a string of 0..40 bytes.
testing::TestArray RecordBatch(int64_t rows) {
  std::vector<std::optional<int64_t>> numbers;
  std::vector<std::optional<std::string>> strings;
  for (int64_t i = 0; i < rows; ++i) {
    numbers.push_back(i);
    strings.push_back(std::string(static_cast<size_t>(i % 41), 'x'));
  }
  return testing::Batch(
      {testing::Primitive<int64_t>("l", "a", numbers), testing::Strings("u", "s", strings)});
}

struct Converted {
  int64_t data_size = 0;
  int64_t rows = 0;
};

Converted Convert(Converter* converter, const testing::TestArray& batch) {
  OwnedArray array;
  testing::ExportArray(batch, &array.array);
  RowBatchView view;
  Status status = converter->Convert(array.array, &view);
  EXPECT_TRUE(status.ok()) << status.message();
  return Converted{view.data_size, view.num_rows};
}

std::unique_ptr<Converter> MakeConverter(
    const testing::TestArray& batch,
    const ConverterOptions& options = testing::TestConverterOptions()) {
  OwnedSchema schema;
  testing::ExportSchema(batch, &schema.schema);
  std::unique_ptr<Converter> converter;
  EXPECT_TRUE(Converter::Make(schema.schema, options, &converter).ok());
  return converter;
}

TEST(ConverterMemory, BufferBytesCoverTheRowsAndStayForBatchesOfNoMoreRows) {
  const testing::TestArray small = RecordBatch(1000);
  std::unique_ptr<Converter> converter = MakeConverter(small);
  const int64_t empty = converter->buffer_bytes();
  const Converted first = Convert(converter.get(), small);
  const int64_t after_first = converter->buffer_bytes();
  EXPECT_GE(after_first - empty, first.data_size + 8 * (first.rows + 1));
  // The same batch again, then a smaller one: nothing grows.
  Convert(converter.get(), small);
  EXPECT_EQ(converter->buffer_bytes(), after_first);
  Convert(converter.get(), RecordBatch(10));
  EXPECT_EQ(converter->buffer_bytes(), after_first);
  // A batch eight times larger: the buffers grow to hold it.
  const Converted large = Convert(converter.get(), RecordBatch(8000));
  EXPECT_GE(converter->buffer_bytes(), large.data_size + 8 * (large.rows + 1));
  EXPECT_GT(converter->buffer_bytes(), after_first);
}

TEST(ConverterMemory, BufferBytesCountANestedColumnsLevelState) {
  // 512 lists of 16 strings: the span's per-element sizes alone take
  // 8 bytes per element, in the level-by-level writer (the depth-first one
  // keeps no per-element state).
  constexpr int64_t kLists = 512;
  constexpr int64_t kPerList = 16;
  std::vector<std::optional<std::string>> elements;
  for (int64_t i = 0; i < kLists * kPerList; ++i) elements.push_back(std::string("e"));
  std::vector<std::optional<int64_t>> lengths(static_cast<size_t>(kLists), kPerList);
  const testing::TestArray batch = testing::Batch(
      {testing::ListOfLengths("l", testing::Strings("u", "item", elements), lengths)});
  ConverterOptions options = testing::TestConverterOptions();
  options.nested_writer = NestedWriter::kLevels;
  std::unique_ptr<Converter> converter = MakeConverter(batch, options);
  const int64_t empty = converter->buffer_bytes();
  const Converted converted = Convert(converter.get(), batch);
  const int64_t held = converter->buffer_bytes() - empty;
  EXPECT_GE(held, converted.data_size + 8 * (converted.rows + 1) + 8 * kLists * kPerList);
  Convert(converter.get(), batch);
  EXPECT_EQ(converter->buffer_bytes() - empty, held);
}

}  // namespace
}  // namespace rowbridge
