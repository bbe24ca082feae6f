// Rows -> Arrow keeps Arrow extension types (CONTRACTS.md §2): a column read
// as its storage type keeps the extension on its Spark field, and a decoder
// made from that Spark schema puts the extension back on the Arrow field,
// where the decoded type can be the extension's storage. A decoder made from
// an Arrow schema keeps the schema's metadata as it is.
#include <gtest/gtest.h>

#include "arrow/arrow_field.hpp"
#include "arrow/schema_export.hpp"
#include "rowbridge/converter.hpp"
#include "rowbridge/row_decoder.hpp"
#include "support/row_test_util.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge {
namespace {

using testing::Batch;
using testing::Bytes;
using testing::Extension;
using testing::Primitive;
using testing::TestArray;
using Pairs = std::vector<std::pair<std::string, std::string>>;

Pairs Keys(const std::string& name, const std::string& metadata) {
  return {{"ARROW:extension:name", name}, {"ARROW:extension:metadata", metadata}};
}

TestArray ExtensionBatch() {
  const std::string meta("\0v1", 3);
  return Batch({
      Extension(testing::Strings("u", "json", {"{}", std::nullopt, "[1]"}), "arrow.json", ""),
      Extension(testing::FixedSizeBinary("id", 16,
                                         {"0123456789abcdef", std::nullopt, "fedcba9876543210"}),
                "arrow.uuid", ""),
      Extension(Primitive<int8_t>("c", "flag", {1, 0, std::nullopt}), "arrow.bool8", ""),
      Extension(Primitive<int32_t>("i", "unknown", {7, std::nullopt, -7}), "example.unknown", meta),
      Extension(
          testing::Struct("point", 3,
                          {Extension(Primitive<int32_t>("i", "x", {1, 2, 3}), "example.x", meta)},
                          {true, false, true}),
          "example.point", meta),
      testing::ListOfLengths(
          "items", Extension(Primitive<int16_t>("s", "element", {4, 5, 6}), "example.e", meta),
          {1, std::nullopt, 2}),
  });
}

/// The rows of `array` under `schema`, each as hexadecimal.
std::vector<std::string> RowsOf(const ArrowSchema& schema, const ArrowArray& array) {
  std::unique_ptr<Converter> converter;
  Status status = Converter::Make(schema, testing::TestConverterOptions(), &converter);
  EXPECT_TRUE(status.ok()) << status.message();
  if (!status.ok()) return {};
  testing::Conversion conversion = testing::Drain(*converter, array);
  EXPECT_TRUE(conversion.status.ok()) << conversion.status.message();
  return testing::RowsHex(conversion);
}

TEST(RowDecoderExtensions, TheSparkSchemaGivesTheExtensionsBack) {
  auto batch = testing::ExportBatch(ExtensionBatch());
  std::unique_ptr<Converter> converter;
  ASSERT_TRUE(
      Converter::Make(batch->schema.schema, testing::TestConverterOptions(), &converter).ok());
  testing::Conversion first = testing::Drain(*converter, batch->array.array);
  ASSERT_TRUE(first.status.ok()) << first.status.message();
  Bytes data;
  std::vector<int64_t> offsets{0};
  for (const Bytes& row : first.rows) {
    data.insert(data.end(), row.begin(), row.end());
    offsets.push_back(static_cast<int64_t>(data.size()));
  }

  std::unique_ptr<RowDecoder> decoder;
  Status status = RowDecoder::Make(converter->plan().spark_schema(), &decoder);
  ASSERT_TRUE(status.ok()) << status.message();
  testing::OwnedSchema schema;
  ASSERT_TRUE(decoder->ExportSchema(&schema.schema).ok());
  ArrowField decoded;
  ASSERT_TRUE(ImportSchema(schema.schema, &decoded).ok());
  const std::string meta("\0v1", 3);
  ASSERT_EQ(decoded.children.size(), 6U);
  EXPECT_EQ(decoded.children[0].metadata, Keys("arrow.json", ""));
  // Rows decode a uuid to binary, which arrow.uuid cannot have as its storage.
  EXPECT_EQ(decoded.children[1].format, "z");
  EXPECT_TRUE(decoded.children[1].metadata.empty());
  EXPECT_EQ(decoded.children[2].format, "c");
  EXPECT_EQ(decoded.children[2].metadata, Keys("arrow.bool8", ""));
  EXPECT_EQ(decoded.children[3].metadata, Keys("example.unknown", meta));
  EXPECT_EQ(decoded.children[4].metadata, Keys("example.point", meta));
  EXPECT_EQ(decoded.children[4].children[0].metadata, Keys("example.x", meta));
  EXPECT_TRUE(decoded.children[5].metadata.empty());
  EXPECT_EQ(decoded.children[5].children[0].metadata, Keys("example.e", meta));

  // The decoded batch, read under its own schema, gives the same rows.
  testing::OwnedArray array;
  status = decoder->Decode(data.data(), offsets.data(), static_cast<int64_t>(first.rows.size()),
                           &array.array);
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(RowsOf(schema.schema, array.array), testing::RowsHex(first));
}

TEST(RowDecoderExtensions, AnArrowSchemaKeepsItsMetadata) {
  ArrowField rows;
  rows.format = "+s";
  ASSERT_TRUE(ParseFormat(rows.format.c_str(), &rows.type).ok());
  for (const char* format : {"u", "z", "c"}) {
    ArrowField column;
    column.name = std::string("c") + format;
    column.format = format;
    ASSERT_TRUE(ParseFormat(column.format.c_str(), &column.type).ok());
    column.metadata = Keys(std::string("example.") + format, "x");
    column.metadata.emplace_back("other", "kept");
    rows.children.push_back(std::move(column));
  }
  testing::OwnedSchema given;
  ASSERT_TRUE(ExportField(rows, &given.schema).ok());
  std::unique_ptr<RowDecoder> decoder;
  Status status = RowDecoder::Make(given.schema, &decoder);
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(decoder->spark_schema().ToString(), "struct<cu:string,cz:binary,cc:tinyint>");
  EXPECT_EQ(decoder->spark_schema().fields[1].metadata, Keys("example.z", "x"));
  testing::OwnedSchema exported;
  ASSERT_TRUE(decoder->ExportSchema(&exported.schema).ok());
  ArrowField out;
  ASSERT_TRUE(ImportSchema(exported.schema, &out).ok());
  for (size_t i = 0; i < rows.children.size(); ++i) {
    EXPECT_EQ(out.children[i].metadata, rows.children[i].metadata) << i;
  }
}

}  // namespace
}  // namespace rowbridge
