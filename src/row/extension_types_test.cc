// Arrow extension types read as their storage type (CONTRACTS.md §2): any
// extension, canonical, registered elsewhere or unknown, at any depth, gives
// the rows of its storage byte for byte, and the Spark field keeps the
// extension's name and metadata.
#include <gtest/gtest.h>

#include "rowbridge/converter.hpp"
#include "support/row_test_util.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge {
namespace {

using testing::Batch;
using testing::Conversion;
using testing::Convert;
using testing::ExpectRows;
using testing::Extension;
using testing::Primitive;
using testing::RowsHex;
using testing::SparkSchemaOf;
using testing::TestArray;
using Pairs = std::vector<std::pair<std::string, std::string>>;

/// Converts both batches: the same Spark schema and the same rows, byte for byte.
void ExpectStorageRows(const TestArray& extended, const TestArray& storage) {
  Conversion with = Convert(extended);
  Conversion without = Convert(storage);
  ASSERT_TRUE(with.status.ok()) << with.status.message();
  ASSERT_TRUE(without.status.ok()) << without.status.message();
  ASSERT_FALSE(without.rows.empty());
  EXPECT_EQ(RowsHex(with), RowsHex(without));
  EXPECT_EQ(SparkSchemaOf(extended), SparkSchemaOf(storage));
}

/// The Spark schema a converter registers for `batch`.
SparkType SparkSchema(const TestArray& batch) {
  auto exported = testing::ExportBatch(batch);
  std::unique_ptr<Converter> converter;
  Status status =
      Converter::Make(exported->schema.schema, testing::TestConverterOptions(), &converter);
  EXPECT_TRUE(status.ok()) << status.message();
  return status.ok() ? converter->plan().spark_schema() : SparkType{};
}

TEST(ExtensionTypes, Bool8ReadsAsItsInt8Storage) {
  auto batch = Batch(
      {Extension(Primitive<int8_t>("c", "flag", {1, std::nullopt, -1, 0}), "arrow.bool8", "")});
  EXPECT_EQ(SparkSchemaOf(batch), "struct<flag:tinyint>");
  ExpectRows(batch, {"0000000000000000 0100000000000000", "0100000000000000 0000000000000000",
                     "0000000000000000 ff00000000000000", "0000000000000000 0000000000000000"});
}

TEST(ExtensionTypes, UuidReadsAsItsFixedSizeBinaryStorage) {
  auto batch = Batch({Extension(
      testing::FixedSizeBinary("id", 16, {std::string("0123456789abcdef"), std::nullopt}),
      "arrow.uuid", "")});
  EXPECT_EQ(SparkSchemaOf(batch), "struct<id:binary>");
  ExpectRows(batch, {"0000000000000000 1000000010000000 30313233343536373839616263646566",
                     "0100000000000000 0000000000000000"});
}

TEST(ExtensionTypes, AnyExtensionGivesItsStorageRows) {
  const std::vector<std::optional<std::string>> docs = {"{\"a\": 1}", std::nullopt, "[]", ""};
  auto make = [&](bool extended) {
    return Batch({
        Extension(testing::Strings("u", "json", docs), "arrow.json", "", extended),
        Extension(testing::Strings("U", "large_json", docs), "arrow.json", "", extended),
        Extension(Primitive<int32_t>("i", "unknown", {7, -7, std::nullopt, 0}),
                  "example.unregistered", std::string("\0v1", 3), extended),
        Extension(Primitive<double>("g", "no_metadata", {1.5, -0.0, 2.0, std::nullopt}),
                  "example.other", "", extended),
    });
  };
  ExpectStorageRows(make(true), make(false));
}

/// Extensions on a struct and its child, a list's elements, a map's values, a
/// dictionary-encoded column, and an extension inside an extension.
TestArray NestedExtensions(bool extended) {
  const std::string meta = "m";
  TestArray inner = testing::Struct(
      "point", 3,
      {Extension(Primitive<int32_t>("i", "x", {1, 2, 3}), "example.x", meta, extended),
       testing::Strings("u", "tag", {"a", std::nullopt, "ccc"})},
      {true, false, true});
  TestArray list =
      testing::ListOfLengths("items",
                             Extension(Primitive<int16_t>("s", "element", {5, std::nullopt, -5, 9}),
                                       "example.e", meta, extended),
                             {2, std::nullopt, 2});
  TestArray map = testing::Map("attrs", testing::Strings("u", "key", {"k1", "k2", "k3"}),
                               Extension(testing::Strings("u", "value", {"{}", std::nullopt, "1"}),
                                         "arrow.json", "", extended),
                               {0, 1, 1, 3});
  TestArray labels =
      Extension(testing::Dictionary(Primitive<int8_t>("c", "label", {1, std::nullopt, 0}),
                                    testing::Strings("u", "", {"alpha", "bravo"})),
                "example.label", meta, extended);
  TestArray deep = Extension(
      testing::Struct(
          "deep", 3,
          {Extension(testing::ListOfLengths("l",
                                            Extension(Primitive<int64_t>("l", "element", {1, 2, 3}),
                                                      "example.leaf", meta, extended),
                                            {1, 0, 2}),
                     "example.list", meta, extended)}),
      "example.outer", meta, extended);
  return Batch({Extension(std::move(inner), "example.point", meta, extended), std::move(list),
                std::move(map), std::move(labels), std::move(deep)});
}

TEST(ExtensionTypes, NestedExtensionsGiveTheirStorageRows) {
  EXPECT_EQ(SparkSchemaOf(NestedExtensions(true)),
            "struct<point:struct<x:int,tag:string>,items:array<smallint>,"
            "attrs:map<string,string>,label:string,deep:struct<l:array<bigint>>>");
  ExpectStorageRows(NestedExtensions(true), NestedExtensions(false));
}

TEST(ExtensionTypes, TheSparkFieldsKeepTheExtensionAtEveryDepth) {
  const Pairs point = {{"ARROW:extension:name", "example.point"},
                       {"ARROW:extension:metadata", "m"}};
  SparkType schema = SparkSchema(NestedExtensions(true));
  ASSERT_EQ(schema.fields.size(), 5U);
  EXPECT_EQ(schema.fields[0].metadata, point);
  const SparkType& point_type = schema.fields[0].type;
  EXPECT_EQ(point_type.fields[0].metadata,
            (Pairs{{"ARROW:extension:name", "example.x"}, {"ARROW:extension:metadata", "m"}}));
  EXPECT_TRUE(point_type.fields[1].metadata.empty());
  EXPECT_TRUE(schema.fields[1].metadata.empty());
  EXPECT_EQ(schema.fields[1].type.fields[0].metadata[0].second, "example.e");
  EXPECT_EQ(schema.fields[2].type.fields[1].metadata,
            (Pairs{{"ARROW:extension:name", "arrow.json"}, {"ARROW:extension:metadata", ""}}));
  EXPECT_EQ(schema.fields[3].metadata[0].second, "example.label");
  const SparkType& deep = schema.fields[4].type;
  EXPECT_EQ(schema.fields[4].metadata[0].second, "example.outer");
  EXPECT_EQ(deep.fields[0].metadata[0].second, "example.list");
  EXPECT_EQ(deep.fields[0].type.fields[0].metadata[0].second, "example.leaf");
  EXPECT_TRUE(SparkSchema(NestedExtensions(false)).fields[0].metadata.empty());
}

TEST(ExtensionTypes, OnlyTheExtensionKeysAreKept) {
  TestArray column = Primitive<int32_t>("i", "v", {1});
  column.metadata = testing::EncodeMetadata({{"ARROW:extension:metadata", "first"},
                                             {"other", "x"},
                                             {"ARROW:extension:name", "example.v"}});
  SparkType schema = SparkSchema(Batch({column}));
  EXPECT_EQ(schema.fields[0].metadata,
            (Pairs{{"ARROW:extension:name", "example.v"}, {"ARROW:extension:metadata", "first"}}));
  column.metadata = testing::EncodeMetadata({{"ARROW:extension:metadata", "no name"}});
  EXPECT_TRUE(SparkSchema(Batch({column})).fields[0].metadata.empty());
}

TEST(ExtensionTypes, AnExtensionOverATypeSparkCannotCarryIsRefusedNamingIt) {
  TestArray storage = testing::Struct("u", 1, {Primitive<uint16_t>("e", "half", {1})});
  Conversion conversion =
      Convert(Batch({Extension(std::move(storage), "example.halves", "", true)}));
  EXPECT_TRUE(testing::IsError(conversion.status, StatusCode::kNotSupported,
                               {"column 'u.half' has type float16"}));
  conversion = Convert(Batch({Extension(Primitive<uint16_t>("e", "h", {1}), "example.h", "")}));
  EXPECT_TRUE(testing::IsError(conversion.status, StatusCode::kNotSupported,
                               {"column 'h' has type float16 (extension example.h)"}));
}

}  // namespace
}  // namespace rowbridge
