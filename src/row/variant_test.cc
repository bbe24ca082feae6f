// Spark variants (CONTRACTS.md §2 and §3): a variant struct is written as
// [int32 value length][value][metadata], padded to 8. Each case is checked
// byte for byte against the same rows built from a binary column holding
// those bytes, and one flat case against hand-written words.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "arrow/arrow_field.hpp"
#include "rowbridge/converter.hpp"
#include "rowbridge/row_decoder.hpp"
#include "support/golden_json.hpp"
#include "support/row_test_util.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge {
namespace {

using testing::Batch;
using testing::Convert;
using testing::ExpectRows;
using testing::IsError;
using testing::SparkSchemaOf;
using testing::TestArray;

struct VariantValue {
  std::string value;
  std::string metadata;
};
using Variants = std::vector<std::optional<VariantValue>>;

/// The row bytes of a variant, as Spark's UnsafeWriter writes a VariantVal.
std::string RowBytes(const VariantValue& v) {
  std::string out(4, '\0');
  auto length = static_cast<uint32_t>(v.value.size());
  for (int i = 0; i < 4; ++i)
    out[static_cast<size_t>(i)] = static_cast<char>((length >> (8 * i)) & 0xff);
  return out + v.value + v.metadata;
}

/// A variant struct as Spark's ArrowUtils writes it, with children of
/// `child_format` ("z", "Z" or "vz").
TestArray Variant(const std::string& name, const Variants& values,
                  const std::string& child_format = "z") {
  std::vector<std::optional<std::string>> value_bytes;
  std::vector<std::optional<std::string>> metadata_bytes;
  std::vector<bool> valid;
  for (const auto& v : values) {
    // Under a null variant the children hold garbage, as producers may leave.
    value_bytes.emplace_back(v ? v->value : "garbage");
    metadata_bytes.emplace_back(v ? v->metadata : "x");
    valid.push_back(v.has_value());
  }
  auto child = [&](const std::string& child_name,
                   const std::vector<std::optional<std::string>>& bytes) {
    TestArray a = child_format == "vz" ? testing::Views("vz", child_name, bytes, 16)
                                       : testing::Strings(child_format, child_name, bytes);
    a.nullable = false;
    return a;
  };
  TestArray metadata = child("metadata", metadata_bytes);
  metadata.metadata = testing::EncodeMetadata({{"variant", "true"}});
  bool any_null = std::find(valid.begin(), valid.end(), false) != valid.end();
  return testing::Struct(name, static_cast<int64_t>(values.size()),
                         {child("value", value_bytes), metadata},
                         any_null ? valid : std::vector<bool>{});
}

/// The binary column whose values are the variants' row bytes.
TestArray VariantBytes(const std::string& name, const Variants& values) {
  std::vector<std::optional<std::string>> bytes;
  for (const auto& v : values)
    bytes.push_back(v ? std::optional<std::string>(RowBytes(*v)) : std::nullopt);
  return testing::Strings("z", name, bytes);
}

void ExpectSameRows(const TestArray& variants, const TestArray& binaries) {
  for (Validation validation : {Validation::kCheap, Validation::kFull}) {
    ConverterOptions options;
    options.validation = validation;
    auto got = Convert(variants, options);
    auto want = Convert(binaries, options);
    ASSERT_TRUE(got.status.ok()) << got.status.message();
    ASSERT_TRUE(want.status.ok()) << want.status.message();
    ASSERT_EQ(got.rows.size(), want.rows.size());
    for (size_t r = 0; r < got.rows.size(); ++r) {
      EXPECT_EQ(testing::Hex(got.rows[r]), testing::Hex(want.rows[r])) << "row " << r;
    }
  }
}

const Variants kValues = {
    VariantValue{"\x0c\x01", std::string("\x01\x00\x00", 3)},  // int8 1, empty dictionary
    std::nullopt,
    VariantValue{"", ""},
    VariantValue{std::string(40, 'v'), std::string(13, 'm')},
    VariantValue{"\x00", std::string("\x01\x01\x00\x01\x61", 5)},
};

TEST(Variant, FlatBytesByHand) {
  auto batch = Batch(
      {Variant("v", {VariantValue{"\x0c\x01", std::string("\x01\x00\x00", 3)}, std::nullopt})});
  EXPECT_EQ(SparkSchemaOf(batch), "struct<v:variant>");
  ExpectRows(batch,
             {
                 "0000000000000000"                      // null bits
                 "0900000010000000"                      // 9 bytes at offset 16
                 "02000000 0c01 010000 00000000000000",  // length 2, value, metadata, 7 zero bytes
                 "0100000000000000"                      // null bits: v is null
                 "0000000000000000",                     // null slot
             });
}

TEST(Variant, EveryChildEncodingIsTheBinaryOfItsBytes) {
  for (const char* format : {"z", "Z", "vz"}) {
    SCOPED_TRACE(format);
    ExpectSameRows(
        Batch(
            {Variant("v", kValues, format), testing::Strings("u", "s", {"a", "b", "c", "d", "e"})}),
        Batch({VariantBytes("v", kValues), testing::Strings("u", "s", {"a", "b", "c", "d", "e"})}));
  }
}

TEST(Variant, SlicedBatch) {
  ExpectSameRows(testing::Slice(Batch({Variant("v", kValues)}), 1, 3),
                 testing::Slice(Batch({VariantBytes("v", kValues)}), 1, 3));
}

TEST(Variant, InsideListsStructsAndMaps) {
  // array<variant>: lists of 2, 0 (null) and 3 elements.
  ExpectSameRows(
      Batch({testing::ListOfLengths("a", Variant("element", kValues), {2, std::nullopt, 3})}),
      Batch({testing::ListOfLengths("a", VariantBytes("element", kValues), {2, std::nullopt, 3})}));
  // struct<i: int, v: variant>, the second struct null.
  auto ints = testing::Primitive<int32_t>("i", "i", {1, 2, 3, 4, 5});
  ExpectSameRows(Batch({testing::Struct("s", 5, {ints, Variant("v", kValues)},
                                        {true, false, true, true, true})}),
                 Batch({testing::Struct("s", 5, {ints, VariantBytes("v", kValues)},
                                        {true, false, true, true, true})}));
  // map<string, variant>.
  auto keys = testing::Strings("u", "key", {"a", "b", "c", "d", "e"});
  keys.nullable = false;
  ExpectSameRows(Batch({testing::Map("m", keys, Variant("value", kValues), {0, 2, 2, 5})}),
                 Batch({testing::Map("m", keys, VariantBytes("value", kValues), {0, 2, 2, 5})}));
}

TEST(Variant, DictionaryEncoded) {
  auto indices = testing::Primitive<int32_t>("i", "v", {4, 0, std::nullopt, 3, 3});
  auto binary_indices = indices;
  ExpectSameRows(Batch({testing::Dictionary(indices, Variant("v", kValues))}),
                 Batch({testing::Dictionary(binary_indices, VariantBytes("v", kValues))}));
}

TEST(Variant, NullChildUnderAValidVariantIsAnError) {
  TestArray variant = Variant("v", kValues);
  variant.children[1] = testing::Strings("z", "metadata", {"a", "b", "c", std::nullopt, "e"});
  variant.children[1].metadata = testing::EncodeMetadata({{"variant", "true"}});
  auto result = Convert(Batch({variant}));
  EXPECT_TRUE(IsError(result.status, StatusCode::kInvalid, {"'v'", "value 3", "metadata is null"}))
      << result.status.message();
}

TEST(Variant, NotInSparksFormIsRefused) {
  TestArray swapped = Variant("v", kValues);
  std::swap(swapped.children[0], swapped.children[1]);
  EXPECT_NE(SparkSchemaOf(Batch({swapped})).find("value then metadata"), std::string::npos)
      << SparkSchemaOf(Batch({swapped}));
  TestArray strings = Variant("v", kValues);
  strings.children[0].format = "u";
  EXPECT_NE(SparkSchemaOf(Batch({strings})).find("error: "), std::string::npos);
}

TEST(Variant, WithVariantsOffItIsTheStructSpark35Reads) {
  // Spark 3.5 has no VariantType: the same struct is a struct of two binaries.
  TestArray variant = Variant("v", kValues);
  TestArray plain = variant;
  plain.children[1].metadata.clear();
  auto exported = testing::ExportBatch(Batch({variant}));
  ConverterOptions options;
  options.variants = false;
  std::unique_ptr<Converter> converter;
  ASSERT_TRUE(Converter::Make(exported->schema.schema, options, &converter).ok());
  EXPECT_EQ(converter->plan().spark_schema().ToString(),
            "struct<v:struct<value:binary,metadata:binary>>");
  auto got = testing::Drain(*converter, exported->array.array);
  auto want = Convert(Batch({plain}));
  ASSERT_TRUE(got.status.ok()) << got.status.message();
  ASSERT_TRUE(want.status.ok()) << want.status.message();
  ASSERT_EQ(got.rows.size(), want.rows.size());
  for (size_t r = 0; r < got.rows.size(); ++r)
    EXPECT_EQ(testing::Hex(got.rows[r]), testing::Hex(want.rows[r]));
}

TEST(Variant, UntaggedStructStaysAStruct) {
  TestArray plain = Variant("v", kValues);
  plain.children[1].metadata.clear();
  EXPECT_EQ(SparkSchemaOf(Batch({plain})), "struct<v:struct<value:binary,metadata:binary>>");
}

/// Converts `batch`, decodes its rows with a decoder of the rows' Spark
/// schema, and converts the decoded arrays again: the rows must not change.
void ExpectRoundTrip(const TestArray& batch) {
  auto exported = testing::ExportBatch(batch);
  std::unique_ptr<Converter> converter;
  ASSERT_TRUE(Converter::Make(exported->schema.schema, {}, &converter).ok());
  auto first = testing::Drain(*converter, exported->array.array);
  ASSERT_TRUE(first.status.ok()) << first.status.message();
  std::unique_ptr<RowDecoder> decoder;
  Status status = RowDecoder::Make(converter->plan().spark_schema(), &decoder);
  ASSERT_TRUE(status.ok()) << status.message();
  testing::Bytes data;
  std::vector<int64_t> offsets{0};
  for (const auto& row : first.rows) {
    data.insert(data.end(), row.begin(), row.end());
    offsets.push_back(static_cast<int64_t>(data.size()));
  }
  testing::OwnedSchema schema;
  ASSERT_TRUE(decoder->ExportSchema(&schema.schema).ok());
  testing::OwnedArray decoded;
  status = decoder->Decode(data.data(), offsets.data(), static_cast<int64_t>(first.rows.size()),
                           &decoded.array);
  ASSERT_TRUE(status.ok()) << status.message();
  std::unique_ptr<Converter> again;
  ASSERT_TRUE(Converter::Make(schema.schema, {}, &again).ok());
  EXPECT_EQ(again->plan().spark_schema().ToString(), converter->plan().spark_schema().ToString());
  auto second = testing::Drain(*again, decoded.array);
  ASSERT_TRUE(second.status.ok()) << second.status.message();
  ASSERT_EQ(second.rows.size(), first.rows.size());
  for (size_t r = 0; r < first.rows.size(); ++r) {
    EXPECT_EQ(testing::Hex(second.rows[r]), testing::Hex(first.rows[r])) << "row " << r;
  }
}

TEST(Variant, DecodesToSparksArrowFormAndBack) {
  ExpectRoundTrip(Batch({Variant("v", kValues, "Z")}));
  ExpectRoundTrip(
      Batch({testing::ListOfLengths("a", Variant("element", kValues), {2, std::nullopt, 3})}));
  auto keys = testing::Strings("u", "key", {"a", "b", "c", "d", "e"});
  keys.nullable = false;
  ExpectRoundTrip(Batch({testing::Map("m", keys, Variant("value", kValues), {0, 2, 2, 5})}));

  SparkType schema{
      SparkTypeId::kStruct, 0, 0, {{"v", SparkType{SparkTypeId::kVariant, 0, 0, {}}, true}}};
  std::unique_ptr<RowDecoder> decoder;
  ASSERT_TRUE(RowDecoder::Make(schema, &decoder).ok());
  testing::OwnedSchema exported;
  ASSERT_TRUE(decoder->ExportSchema(&exported.schema).ok());
  ArrowField field;
  ASSERT_TRUE(ImportSchema(exported.schema, &field).ok());
  const ArrowField& v = field.children.at(0);
  ASSERT_EQ(v.format, "+s");
  ASSERT_EQ(v.children.size(), 2u);
  EXPECT_EQ(v.children[0].name, "value");
  EXPECT_TRUE(v.children[0].metadata.empty());
  EXPECT_FALSE(v.children[0].nullable);
  EXPECT_EQ(v.children[1].name, "metadata");
  EXPECT_EQ(v.children[1].metadata,
            (std::vector<std::pair<std::string, std::string>>{{"variant", "true"}}));
  EXPECT_FALSE(v.children[1].nullable);
}

TEST(Variant, MalformedVariantRowsAreErrors) {
  // A variant slot of 8 bytes whose value length says 9.
  SparkType schema{
      SparkTypeId::kStruct, 0, 0, {{"v", SparkType{SparkTypeId::kVariant, 0, 0, {}}, true}}};
  std::unique_ptr<RowDecoder> decoder;
  ASSERT_TRUE(RowDecoder::Make(schema, &decoder).ok());
  const testing::Bytes row = testing::FromHex(
      "0000000000000000"
      "0800000010000000"
      "0900000001020304");
  const int64_t offsets[2] = {0, static_cast<int64_t>(row.size())};
  testing::OwnedArray out;
  Status status = decoder->Decode(row.data(), offsets, 1, &out.array);
  EXPECT_TRUE(IsError(status, StatusCode::kInvalid, {"'v'", "row 0", "variant"}))
      << status.message();
}

}  // namespace
}  // namespace rowbridge
