// The C API: versions, options, converter life cycle, chunks, error codes
// and messages, NULL arguments, unsupported types and the registered batch.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "rowbridge/converter.hpp"
#include "rowbridge/rowbridge.h"
#include "support/row_test_util.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge {
namespace {

using testing::Batch;
using testing::Primitive;
using testing::SchemaNode;
using testing::TestArray;

/// Frees a converter at scope exit.
struct ConverterHandle {
  RowbridgeConverter* converter = nullptr;
  ~ConverterHandle() { rowbridge_converter_free(converter); }
};

TestArray Record(int64_t n) {
  std::vector<std::optional<int64_t>> a;
  std::vector<std::optional<int32_t>> b;
  std::vector<std::optional<double>> c;
  std::vector<std::optional<std::string>> d;
  for (int64_t i = 0; i < n; ++i) {
    a.push_back(i);
    b.push_back(i % 3 == 0 ? std::nullopt : std::optional<int32_t>(static_cast<int32_t>(-i)));
    c.push_back(static_cast<double>(i) / 4);
    d.push_back("value_" + std::to_string(i));
  }
  return Batch({Primitive<int64_t>("l", "a", a), Primitive<int32_t>("i", "b", b),
                Primitive<double>("g", "c", c), testing::Strings("u", "d", d)});
}

std::vector<testing::Bytes> Rows(const RowbridgeRowBatch& batch) {
  std::vector<testing::Bytes> rows;
  for (int64_t k = 0; k < batch.num_rows; ++k) {
    rows.emplace_back(batch.data + batch.row_offsets[k], batch.data + batch.row_offsets[k + 1]);
  }
  return rows;
}

TEST(CApi, Versions) {
  EXPECT_STREQ(rowbridge_version(), ROWBRIDGE_VERSION_STRING);
  EXPECT_EQ(
      rowbridge_version_number(),
      ROWBRIDGE_VERSION_MAJOR * 10000 + ROWBRIDGE_VERSION_MINOR * 100 + ROWBRIDGE_VERSION_PATCH);
  std::string expected = std::to_string(ROWBRIDGE_VERSION_MAJOR) + "." +
                         std::to_string(ROWBRIDGE_VERSION_MINOR) + "." +
                         std::to_string(ROWBRIDGE_VERSION_PATCH);
  EXPECT_EQ(std::string(rowbridge_version()), expected);
}

TEST(CApi, OptionDefaults) {
  RowbridgeConverterOptions options;
  options.validation = 99;
  options.max_chunk_bytes = -1;
  rowbridge_converter_options_init(&options);
  EXPECT_EQ(options.validation, ROWBRIDGE_VALIDATION_CHEAP);
  EXPECT_EQ(options.max_chunk_bytes, int64_t{64} << 20);
  rowbridge_converter_options_init(nullptr);  // accepted, does nothing
}

TEST(CApi, ConvertMatchesTheCppApiInChunks) {
  TestArray batch = Record(500);
  auto exported = testing::ExportBatch(batch);
  testing::Conversion expected = testing::Convert(batch);
  ASSERT_TRUE(expected.status.ok());

  RowbridgeConverterOptions options;
  rowbridge_converter_options_init(&options);
  options.max_chunk_bytes = 4096;
  options.validation = ROWBRIDGE_VALIDATION_FULL;
  ConverterHandle handle;
  RowbridgeError error;
  ASSERT_EQ(rowbridge_converter_new(&exported->schema.schema, &options, &handle.converter, &error),
            ROWBRIDGE_OK)
      << error.message;
  ASSERT_NE(handle.converter, nullptr);
  EXPECT_STREQ(rowbridge_converter_spark_schema(handle.converter),
               "struct<a:bigint,b:int,c:double,d:string>");

  RowbridgeRowBatch out;
  ASSERT_EQ(
      rowbridge_converter_convert(handle.converter, &exported->array.array, nullptr, &out, &error),
      ROWBRIDGE_OK)
      << error.message;
  std::vector<testing::Bytes> rows;
  int chunks = 0;
  while (out.num_rows > 0) {
    ++chunks;
    EXPECT_EQ(out.first_row, static_cast<int64_t>(rows.size()));
    EXPECT_EQ(out.row_offsets[0], 0);
    EXPECT_EQ(out.data_size, out.row_offsets[out.num_rows]);
    EXPECT_LE(out.data_size, 4096);
    // The converter holds at least the chunk and its offsets.
    EXPECT_GE(rowbridge_converter_buffer_bytes(handle.converter),
              out.data_size + 8 * (out.num_rows + 1));
    for (auto& row : Rows(out)) rows.push_back(std::move(row));
    ASSERT_EQ(rowbridge_converter_next_chunk(handle.converter, &out, &error), ROWBRIDGE_OK)
        << error.message;
  }
  EXPECT_GT(chunks, 1);
  EXPECT_EQ(rows, expected.rows);
  // After the last chunk: more calls keep returning empty views.
  ASSERT_EQ(rowbridge_converter_next_chunk(handle.converter, &out, nullptr), ROWBRIDGE_OK);
  EXPECT_EQ(out.num_rows, 0);
}

TEST(CApi, NullOptionsMeanDefaults) {
  auto exported = testing::ExportBatch(Record(3));
  ConverterHandle handle;
  ASSERT_EQ(rowbridge_converter_new(&exported->schema.schema, nullptr, &handle.converter, nullptr),
            ROWBRIDGE_OK);
  RowbridgeRowBatch out;
  ASSERT_EQ(rowbridge_converter_convert(handle.converter, &exported->array.array,
                                        &exported->schema.schema, &out, nullptr),
            ROWBRIDGE_OK);
  EXPECT_EQ(out.num_rows, 3);
}

TEST(CApi, NullArgumentsAreEinval) {
  auto exported = testing::ExportBatch(Record(3));
  RowbridgeError error;
  RowbridgeConverter* converter = nullptr;
  error.message[0] = '\0';
  EXPECT_EQ(rowbridge_converter_new(nullptr, nullptr, &converter, &error), ROWBRIDGE_EINVAL);
  EXPECT_GT(std::strlen(error.message), 0u);
  EXPECT_EQ(converter, nullptr);
  EXPECT_EQ(rowbridge_converter_new(&exported->schema.schema, nullptr, nullptr, &error),
            ROWBRIDGE_EINVAL);
  EXPECT_EQ(rowbridge_converter_new(nullptr, nullptr, nullptr, nullptr), ROWBRIDGE_EINVAL);

  ConverterHandle handle;
  ASSERT_EQ(rowbridge_converter_new(&exported->schema.schema, nullptr, &handle.converter, &error),
            ROWBRIDGE_OK);
  RowbridgeRowBatch out;
  EXPECT_EQ(rowbridge_converter_convert(nullptr, &exported->array.array, nullptr, &out, &error),
            ROWBRIDGE_EINVAL);
  EXPECT_EQ(rowbridge_converter_convert(handle.converter, nullptr, nullptr, &out, &error),
            ROWBRIDGE_EINVAL);
  EXPECT_EQ(rowbridge_converter_convert(handle.converter, &exported->array.array, nullptr, nullptr,
                                        &error),
            ROWBRIDGE_EINVAL);
  EXPECT_EQ(rowbridge_converter_next_chunk(nullptr, &out, &error), ROWBRIDGE_EINVAL);
  EXPECT_EQ(rowbridge_converter_next_chunk(handle.converter, nullptr, &error), ROWBRIDGE_EINVAL);
  EXPECT_EQ(rowbridge_converter_next_chunk(nullptr, nullptr, nullptr), ROWBRIDGE_EINVAL);
  EXPECT_EQ(rowbridge_converter_registered_batch(nullptr), nullptr);
  EXPECT_STREQ(rowbridge_converter_spark_schema(nullptr), "");
  EXPECT_EQ(rowbridge_converter_buffer_bytes(nullptr), 0);
  rowbridge_converter_free(nullptr);
}

TEST(CApi, InvalidOptionsAreEinval) {
  auto exported = testing::ExportBatch(Record(3));
  RowbridgeConverterOptions options;
  rowbridge_converter_options_init(&options);
  options.validation = 7;
  RowbridgeConverter* converter = nullptr;
  RowbridgeError error;
  EXPECT_EQ(rowbridge_converter_new(&exported->schema.schema, &options, &converter, &error),
            ROWBRIDGE_EINVAL);
  EXPECT_NE(std::string(error.message).find("validation"), std::string::npos) << error.message;
  EXPECT_EQ(converter, nullptr);
  rowbridge_converter_options_init(&options);
  options.max_chunk_bytes = 0;
  EXPECT_EQ(rowbridge_converter_new(&exported->schema.schema, &options, &converter, &error),
            ROWBRIDGE_EINVAL);
  EXPECT_NE(std::string(error.message).find("max_chunk_bytes"), std::string::npos) << error.message;
  EXPECT_EQ(converter, nullptr);
}

void ExpectUnsupported(const TestArray& column, const std::string& name) {
  auto exported = testing::ExportBatch(Batch({Primitive<int32_t>("i", "fine", {}), column}));
  RowbridgeConverter* converter = nullptr;
  RowbridgeError error;
  EXPECT_EQ(rowbridge_converter_new(&exported->schema.schema, nullptr, &converter, &error),
            ROWBRIDGE_ENOTSUP)
      << column.format << ": " << error.message;
  EXPECT_EQ(converter, nullptr);
  EXPECT_NE(std::string(error.message).find(name), std::string::npos) << error.message;
  rowbridge_converter_free(converter);
}

TEST(CApi, UnsupportedTypesAreEnotsupNamingTheColumn) {
  ExpectUnsupported(
      SchemaNode("+ud:0,1", "dense_col", {SchemaNode("i", "x"), SchemaNode("u", "y")}),
      "dense_col");
  ExpectUnsupported(SchemaNode("+us:0", "sparse_col", {SchemaNode("i", "x")}), "sparse_col");
  ExpectUnsupported(SchemaNode("e", "half_col"), "half_col");
  ExpectUnsupported(SchemaNode("tiD", "day_time_col"), "day_time_col");
  ExpectUnsupported(SchemaNode("d:40,2,256", "wide_decimal"), "wide_decimal");
  ExpectUnsupported(SchemaNode("d:39,0", "wide_decimal128"), "wide_decimal128");
  ExpectUnsupported(SchemaNode("d:10,-2", "negative_scale"), "negative_scale");
  ExpectUnsupported(SchemaNode("d:5,6", "scale_over_precision"), "scale_over_precision");
  ExpectUnsupported(SchemaNode("d:0,0", "zero_precision"), "zero_precision");
  // An extension reads as its storage type, so one over a type Spark cannot carry is refused,
  // naming the extension too.
  TestArray extension = SchemaNode("e", "ext_col");
  extension.metadata = testing::EncodeMetadata(
      {{"ARROW:extension:name", "my.ext"}, {"ARROW:extension:metadata", ""}});
  ExpectUnsupported(extension, "column 'ext_col' has type float16 (extension my.ext)");
  TestArray dictionary_of_union = SchemaNode("i", "dict_union");
  dictionary_of_union.dictionary =
      std::make_shared<TestArray>(SchemaNode("+us:0", "", {SchemaNode("i", "x")}));
  ExpectUnsupported(dictionary_of_union, "dict_union");
}

TEST(CApi, OtherMetadataIsAccepted) {
  TestArray column = Primitive<int32_t>("i", "meta", {1});
  column.metadata = testing::EncodeMetadata({{"PARQUET:field_id", "7"}});
  auto exported = testing::ExportBatch(Batch({column}));
  ConverterHandle handle;
  RowbridgeError error;
  EXPECT_EQ(rowbridge_converter_new(&exported->schema.schema, nullptr, &handle.converter, &error),
            ROWBRIDGE_OK)
      << error.message;
}

TEST(CApi, ErrorCodesAndMessages) {
  // Not a struct: EINVAL.
  auto not_struct = testing::ExportBatch(Primitive<int32_t>("i", "x", {1}));
  RowbridgeConverter* converter = nullptr;
  RowbridgeError error;
  EXPECT_EQ(rowbridge_converter_new(&not_struct->schema.schema, nullptr, &converter, &error),
            ROWBRIDGE_EINVAL);
  EXPECT_NE(std::string(error.message).find("struct"), std::string::npos) << error.message;

  // Overflow: EOVERFLOW naming column and row.
  auto overflow =
      testing::ExportBatch(Batch({Primitive<int64_t>("tss:", "ts", {1, int64_t{1} << 62})}));
  ConverterHandle handle;
  ASSERT_EQ(rowbridge_converter_new(&overflow->schema.schema, nullptr, &handle.converter, &error),
            ROWBRIDGE_OK);
  RowbridgeRowBatch out;
  EXPECT_EQ(
      rowbridge_converter_convert(handle.converter, &overflow->array.array, nullptr, &out, &error),
      ROWBRIDGE_EOVERFLOW);
  EXPECT_NE(std::string(error.message).find("'ts'"), std::string::npos) << error.message;
  EXPECT_NE(std::string(error.message).find("row 1"), std::string::npos) << error.message;
  EXPECT_EQ(out.num_rows, 0);

  // Corrupt batch: EINVAL.
  overflow->array.array.children[0]->null_count = 5;
  EXPECT_EQ(
      rowbridge_converter_convert(handle.converter, &overflow->array.array, nullptr, &out, &error),
      ROWBRIDGE_EINVAL);
  EXPECT_NE(std::string(error.message).find("'ts'"), std::string::npos) << error.message;
  overflow->array.array.children[0]->null_count = 0;

  // A row over the cap: E2BIG.
  auto strings = testing::ExportBatch(Batch({testing::Strings("u", "s", {std::string(100, 'x')})}));
  RowbridgeConverterOptions options;
  rowbridge_converter_options_init(&options);
  options.max_chunk_bytes = 64;
  ConverterHandle small;
  ASSERT_EQ(rowbridge_converter_new(&strings->schema.schema, &options, &small.converter, &error),
            ROWBRIDGE_OK);
  EXPECT_EQ(
      rowbridge_converter_convert(small.converter, &strings->array.array, nullptr, &out, &error),
      ROWBRIDGE_E2BIG);
  EXPECT_NE(std::string(error.message).find("row 0"), std::string::npos) << error.message;
}

TEST(CApi, LongMessagesAreTruncatedAndTerminated) {
  std::string name(5000, 'n');
  auto exported = testing::ExportBatch(Batch({SchemaNode("e", name)}));
  RowbridgeConverter* converter = nullptr;
  RowbridgeError error;
  std::memset(error.message, 'X', sizeof(error.message));
  EXPECT_EQ(rowbridge_converter_new(&exported->schema.schema, nullptr, &converter, &error),
            ROWBRIDGE_ENOTSUP);
  size_t length = strnlen(error.message, sizeof(error.message));
  EXPECT_EQ(length, sizeof(error.message) - 1);
}

TEST(CApi, RegisteredBatch) {
  TestArray batch = Record(64);
  auto exported = testing::ExportBatch(batch);
  testing::Conversion expected = testing::Convert(batch);
  ConverterHandle handle;
  RowbridgeError error;
  ASSERT_EQ(rowbridge_converter_new(&exported->schema.schema, nullptr, &handle.converter, &error),
            ROWBRIDGE_OK);
  ArrowArray* registered = rowbridge_converter_registered_batch(handle.converter);
  ASSERT_NE(registered, nullptr);
  EXPECT_EQ(rowbridge_converter_registered_batch(handle.converter), registered);
  ASSERT_EQ(registered->n_children, 4);
  const ArrowArray& source = exported->array.array;
  registered->length = source.length;
  registered->offset = 0;
  registered->null_count = 0;
  for (int64_t i = 0; i < 4; ++i) {
    ArrowArray* column = registered->children[i];
    const ArrowArray* from = source.children[i];
    ASSERT_EQ(column->n_buffers, from->n_buffers);
    column->length = from->length;
    column->offset = from->offset;
    column->null_count = from->null_count;
    for (int64_t b = 0; b < from->n_buffers; ++b) column->buffers[b] = from->buffers[b];
  }
  RowbridgeRowBatch out;
  ASSERT_EQ(rowbridge_converter_convert(handle.converter, registered, nullptr, &out, &error),
            ROWBRIDGE_OK)
      << error.message;
  EXPECT_EQ(Rows(out), expected.rows);
  // The second batch only needs new lengths: convert the first 10 rows again.
  registered->length = 10;
  ASSERT_EQ(rowbridge_converter_convert(handle.converter, registered, nullptr, &out, &error),
            ROWBRIDGE_OK);
  ASSERT_EQ(out.num_rows, 10);
  EXPECT_EQ(Rows(out),
            std::vector<testing::Bytes>(expected.rows.begin(), expected.rows.begin() + 10));
}

TEST(CApi, SchemaIsBorrowedNotReleased) {
  auto exported = testing::ExportBatch(Record(2));
  ConverterHandle handle;
  ASSERT_EQ(rowbridge_converter_new(&exported->schema.schema, nullptr, &handle.converter, nullptr),
            ROWBRIDGE_OK);
  EXPECT_NE(exported->schema.schema.release, nullptr);
  RowbridgeRowBatch out;
  ASSERT_EQ(
      rowbridge_converter_convert(handle.converter, &exported->array.array, nullptr, &out, nullptr),
      ROWBRIDGE_OK);
  EXPECT_NE(exported->array.array.release, nullptr);
}

}  // namespace
}  // namespace rowbridge
