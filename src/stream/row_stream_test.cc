// RowStream: rows converted by the workers equal converting the same batches
// directly; conversion errors arrive in order; converters are reused.
#include <gtest/gtest.h>

#include <set>

#include "support/stream_test_support.hpp"

namespace rowbridge::stream {
namespace {

namespace t = rowbridge::testing;
using testing::Pool;

/// Batch i: (a int64 = i * 1000 + row, s utf8 with nulls, l list<int32>).
t::TestArray MakeBatch(int64_t i, int64_t rows) {
  std::vector<std::optional<int64_t>> a;
  std::vector<std::optional<std::string>> s;
  std::vector<std::optional<int32_t>> elements;
  std::vector<std::optional<int64_t>> lengths;
  for (int64_t r = 0; r < rows; ++r) {
    a.push_back(i * 1000 + r);
    if ((r + i) % 7 == 0) s.push_back(std::nullopt);
    else
      s.push_back(
          std::string(static_cast<size_t>((r * 13 + i) % 40), static_cast<char>('a' + r % 26)));
    int64_t length = (r + i) % 5;
    lengths.push_back(length == 4 ? std::nullopt : std::optional<int64_t>(length));
    for (int64_t e = 0; e < (length == 4 ? 0 : length); ++e)
      elements.push_back(static_cast<int32_t>(r * e));
  }
  return t::Batch({t::Primitive<int64_t>("l", "a", a), t::Strings("u", "s", s),
                   t::ListOfLengths("l", t::Primitive<int32_t>("i", "item", elements), lengths)});
}

/// Produces MakeBatch(i) in parallel; batch `broken` has one column only.
class TableProducer : public BatchProducer {
 public:
  TableProducer(const std::vector<t::TestArray>* batches, int64_t broken)
      : batches_(batches), broken_(broken) {}
  Status ExportSchema(ArrowSchema* out) override {
    t::ExportSchema((*batches_)[0], out);
    return Status::Ok();
  }
  int64_t num_batches() const override { return static_cast<int64_t>(batches_->size()); }
  bool parallel() const override { return true; }
  Status Produce(int64_t index, ArrowArray* out, bool*) override {
    if (index == broken_) {
      t::TestArray one = t::Batch({(*batches_)[static_cast<size_t>(index)].children[0]});
      t::ExportArray(one, out);
    } else {
      t::ExportArray((*batches_)[static_cast<size_t>(index)], out);
    }
    return Status::Ok();
  }

 private:
  const std::vector<t::TestArray>* batches_;
  int64_t broken_;
};

std::vector<t::TestArray> Batches(int64_t count) {
  std::vector<t::TestArray> batches;
  for (int64_t i = 0; i < count; ++i) batches.push_back(MakeBatch(i, 50 + (i * 37) % 300));
  return batches;
}

/// Every row of `batch`, converted directly.
void DirectRows(const t::TestArray& batch, std::vector<std::string>* rows) {
  t::OwnedSchema schema;
  t::ExportSchema(batch, &schema.schema);
  t::OwnedArray array;
  t::ExportArray(batch, &array.array);
  std::unique_ptr<Converter> converter;
  ASSERT_TRUE(Converter::Make(schema.schema, ConverterOptions(), &converter).ok());
  RowBatchView view;
  ASSERT_TRUE(converter->Convert(array.array, &view).ok());
  for (int64_t r = 0; r < view.num_rows; ++r) {
    rows->emplace_back(reinterpret_cast<const char*>(view.data + view.row_offsets[r]),
                       static_cast<size_t>(view.row_offsets[r + 1] - view.row_offsets[r]));
  }
}

void AppendRows(const RowBatchView& view, std::vector<std::string>* rows) {
  for (int64_t r = 0; r < view.num_rows; ++r) {
    rows->emplace_back(reinterpret_cast<const char*>(view.data + view.row_offsets[r]),
                       static_cast<size_t>(view.row_offsets[r + 1] - view.row_offsets[r]));
  }
}

/// Every row of the stream, chunks included, in order.
void DrainRows(RowStream* stream, std::vector<std::string>* rows) {
  for (;;) {
    RowBatch batch;
    bool end = false;
    ASSERT_TRUE(stream->Next(&batch, &end).ok());
    if (end) break;
    AppendRows(batch.rows, rows);
    for (;;) {
      RowBatchView chunk;
      ASSERT_TRUE(stream->NextChunk(&chunk).ok());
      if (chunk.num_rows == 0) break;
      AppendRows(chunk, rows);
    }
  }
}

TEST(RowStream, RowsEqualConvertingTheSameBatchesDirectly) {
  std::vector<t::TestArray> batches = Batches(40);
  std::vector<std::string> expected;
  for (const t::TestArray& batch : batches) DirectRows(batch, &expected);
  for (int64_t chunk_bytes : {int64_t{64} << 20, int64_t{2048}}) {
    SCOPED_TRACE("max_chunk_bytes " + std::to_string(chunk_bytes));
    StreamOptions options;
    options.pool = Pool(3);
    options.in_flight = 3;
    ConverterOptions convert;
    convert.max_chunk_bytes = chunk_bytes;
    std::unique_ptr<RowStream> stream;
    ASSERT_TRUE(
        RowStream::Make(std::make_unique<TableProducer>(&batches, -1), options, convert, &stream)
            .ok());
    EXPECT_EQ(stream->plan().num_columns(), 3);
    std::vector<std::string> rows;
    int64_t index = 0;
    for (;;) {
      RowBatch batch;
      bool end = false;
      ASSERT_TRUE(stream->Next(&batch, &end).ok());
      if (end) break;
      EXPECT_EQ(batch.index, index++);
      EXPECT_EQ(batch.batch->length, batches[static_cast<size_t>(batch.index)].length);
      AppendRows(batch.rows, &rows);
      for (;;) {
        RowBatchView chunk;
        ASSERT_TRUE(stream->NextChunk(&chunk).ok());
        if (chunk.num_rows == 0) break;
        AppendRows(chunk, &rows);
      }
    }
    EXPECT_EQ(index, 40);
    EXPECT_EQ(rows, expected);
    EXPECT_LE(stream->stats().max_batches_held, options.prefetch + options.in_flight + 1);
  }
}

/// The partition values of ConstantsAreEveryRowsLastColumns: (k int64, v utf8, n int32 null).
t::TestArray Constants(int64_t rows) {
  return t::Batch(
      {t::Primitive<int64_t>("l", "k",
                             std::vector<std::optional<int64_t>>(static_cast<size_t>(rows), 42)),
       t::Strings(
           "u", "v",
           std::vector<std::optional<std::string>>(static_cast<size_t>(rows), "day=2026-12-01")),
       t::Primitive<int32_t>(
           "i", "n",
           std::vector<std::optional<int32_t>>(static_cast<size_t>(rows), std::nullopt))});
}

TEST(RowStream, ConstantsAreEveryRowsLastColumns) {
  std::vector<t::TestArray> batches = Batches(12);
  batches.push_back(MakeBatch(12, 0));
  std::vector<std::string> expected;
  for (const t::TestArray& batch : batches) {
    t::TestArray joined = batch;
    t::TestArray constants = Constants(batch.length);
    for (const t::TestArray& column : constants.children) joined.children.push_back(column);
    DirectRows(joined, &expected);
  }
  for (int64_t chunk_bytes : {int64_t{64} << 20, int64_t{2048}}) {
    SCOPED_TRACE("max_chunk_bytes " + std::to_string(chunk_bytes));
    StreamOptions options;
    options.pool = Pool(3);
    options.in_flight = 3;
    ConverterOptions convert;
    convert.max_chunk_bytes = chunk_bytes;
    t::TestArray one = Constants(1);
    ConstantColumns constants;
    t::ExportSchema(one, &constants.schema);
    t::ExportArray(one, &constants.values);
    std::unique_ptr<RowStream> stream;
    ASSERT_TRUE(RowStream::Make(std::make_unique<TableProducer>(&batches, -1), options, convert,
                                &stream, &constants)
                    .ok());
    EXPECT_EQ(constants.schema.release, nullptr) << "moved into the stream";
    EXPECT_EQ(constants.values.release, nullptr);
    EXPECT_EQ(stream->plan().num_columns(), 6);
    std::vector<std::string> rows;
    ASSERT_NO_FATAL_FAILURE(DrainRows(stream.get(), &rows));
    EXPECT_EQ(rows, expected);
  }
}

TEST(RowStream, ConstantsThatAreNotOneRowAreRefusedAndReleased) {
  t::TestArray two = Constants(2);
  ConstantColumns constants;
  t::ExportSchema(two, &constants.schema);
  t::ExportArray(two, &constants.values);
  std::vector<t::TestArray> batches = Batches(2);
  std::unique_ptr<RowStream> stream;
  Status status = RowStream::Make(std::make_unique<TableProducer>(&batches, -1), StreamOptions(),
                                  ConverterOptions(), &stream, &constants);
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.message().find("not one row"), std::string::npos) << status.message();
  EXPECT_EQ(constants.schema.release, nullptr) << "taken, and released, on failure too";
  EXPECT_EQ(constants.values.release, nullptr);
}

TEST(RowStream, ConvertersAndTheirBuffersAreReused) {
  std::vector<t::TestArray> batches;
  for (int i = 0; i < 60; ++i) batches.push_back(MakeBatch(0, 200));  // same row sizes
  StreamOptions options;
  options.pool = Pool(4);
  options.prefetch = 2;
  options.in_flight = 3;
  std::unique_ptr<RowStream> stream;
  ASSERT_TRUE(RowStream::Make(std::make_unique<TableProducer>(&batches, -1), options,
                              ConverterOptions(), &stream)
                  .ok());
  std::set<const uint8_t*> buffers;
  for (;;) {
    RowBatch batch;
    bool end = false;
    ASSERT_TRUE(stream->Next(&batch, &end).ok());
    if (end) break;
    buffers.insert(batch.rows.data);
  }
  // Every batch's rows were written into one of the K + W + 1 converters'
  // buffers, allocated once.
  EXPECT_LE(static_cast<int64_t>(buffers.size()), options.prefetch + options.in_flight + 1);
}

TEST(RowStream, AConversionErrorFollowsTheGoodBatchesBeforeIt) {
  std::vector<t::TestArray> batches = Batches(30);
  StreamOptions options;
  options.pool = Pool(4);
  options.in_flight = 4;
  std::unique_ptr<RowStream> stream;
  ASSERT_TRUE(RowStream::Make(std::make_unique<TableProducer>(&batches, 11), options,
                              ConverterOptions(), &stream)
                  .ok());
  int64_t good = 0;
  Status status;
  for (;;) {
    RowBatch batch;
    bool end = false;
    status = stream->Next(&batch, &end);
    if (!status.ok() || end) break;
    ++good;
  }
  EXPECT_EQ(good, 11);
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.message().rfind("batch 11: ", 0), 0u) << status.message();
  RowBatchView chunk;
  EXPECT_FALSE(stream->NextChunk(&chunk).ok());  // no current batch
}

TEST(RowStream, AnUnsupportedSchemaFailsAtMake) {
  t::TestArray days = t::Primitive<int64_t>("tiD", "span", std::vector<std::optional<int64_t>>{1});
  std::vector<t::TestArray> batches = {t::Batch({days})};
  std::unique_ptr<RowStream> stream;
  Status status = RowStream::Make(std::make_unique<TableProducer>(&batches, -1), StreamOptions(),
                                  ConverterOptions(), &stream);
  EXPECT_EQ(status.code(), StatusCode::kNotSupported) << status.message();
  EXPECT_NE(status.message().find("span"), std::string::npos) << status.message();
}

TEST(RowStream, CloseMidStreamThenNextIsAnError) {
  std::vector<t::TestArray> batches = Batches(20);
  StreamOptions options;
  options.pool = Pool(2);
  std::unique_ptr<RowStream> stream;
  ASSERT_TRUE(RowStream::Make(std::make_unique<TableProducer>(&batches, -1), options,
                              ConverterOptions(), &stream)
                  .ok());
  RowBatch batch;
  bool end = false;
  ASSERT_TRUE(stream->Next(&batch, &end).ok());
  stream->Close();
  EXPECT_FALSE(stream->Next(&batch, &end).ok());
  stream->Close();  // idempotent
}

}  // namespace
}  // namespace rowbridge::stream
