// Schema import: the parsed copy of an ArrowSchema tree, metadata decoding,
// structural errors, type names and layout comparison.
#include "arrow/arrow_field.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/row_test_util.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge {
namespace {

using testing::SchemaNode;
using testing::TestArray;

void NoRelease(ArrowSchema*) {}

/// A hand-built schema node that borrows its strings.
ArrowSchema Node(const char* format, const char* name, int64_t n_children = 0,
                 ArrowSchema** children = nullptr, ArrowSchema* dictionary = nullptr) {
  ArrowSchema schema{};
  schema.format = format;
  schema.name = name;
  schema.flags = ARROW_FLAG_NULLABLE;
  schema.n_children = n_children;
  schema.children = children;
  schema.dictionary = dictionary;
  schema.release = &NoRelease;
  return schema;
}

Status Import(const TestArray& node, ArrowField* out) {
  testing::OwnedSchema schema;
  testing::ExportSchema(node, &schema.schema);
  return ImportSchema(schema.schema, out);
}

Status ImportError(const TestArray& node) {
  ArrowField field;
  return Import(node, &field);
}

TEST(ImportSchema, CopiesNamesFlagsFormatsAndChildren) {
  TestArray a = SchemaNode("l", "a");
  a.nullable = false;
  TestArray b = SchemaNode("tsu:UTC", "b");
  b.metadata = testing::EncodeMetadata({{"k", "v"}});
  TestArray batch = SchemaNode("+s", "", {a, b, SchemaNode("u", "")});
  ArrowField field;
  ASSERT_TRUE(Import(batch, &field).ok());
  EXPECT_EQ(field.type.id, ArrowTypeId::kStruct);
  ASSERT_EQ(field.children.size(), 3u);
  EXPECT_EQ(field.children[0].name, "a");
  EXPECT_EQ(field.children[0].format, "l");
  EXPECT_FALSE(field.children[0].nullable);
  EXPECT_EQ(field.children[1].type.id, ArrowTypeId::kTimestamp);
  EXPECT_EQ(field.children[1].type.timezone, "UTC");
  EXPECT_TRUE(field.children[1].nullable);
  ASSERT_EQ(field.children[1].metadata.size(), 1u);
  EXPECT_EQ(field.children[1].metadata[0].first, "k");
  EXPECT_EQ(field.children[1].metadata[0].second, "v");
  EXPECT_EQ(field.children[2].name, "");
  EXPECT_FALSE(field.children[2].is_dictionary());
}

TEST(ImportSchema, NullNameBecomesEmptyAndFlagsAreRead) {
  ArrowSchema node = Node("i", nullptr);
  node.flags = ARROW_FLAG_MAP_KEYS_SORTED;
  ArrowField field;
  ASSERT_TRUE(ImportSchema(node, &field).ok());
  EXPECT_EQ(field.name, "");
  EXPECT_FALSE(field.nullable);
  EXPECT_TRUE(field.map_keys_sorted);
}

TEST(ImportSchema, DictionaryAndRunEndEncodedFields) {
  TestArray dict = SchemaNode("s", "d");
  dict.dictionary = std::make_shared<TestArray>(SchemaNode("u", ""));
  TestArray ree = SchemaNode("+r", "r", {SchemaNode("i", "run_ends"), SchemaNode("g", "values")});
  ArrowField field;
  ASSERT_TRUE(Import(SchemaNode("+s", "", {dict, ree}), &field).ok());
  const ArrowField& d = field.children[0];
  EXPECT_TRUE(d.is_dictionary());
  EXPECT_EQ(d.type.id, ArrowTypeId::kInt16);
  EXPECT_EQ(d.dictionary[0].type.id, ArrowTypeId::kUtf8);
  EXPECT_EQ(FieldTypeName(d), "dictionary<int16, utf8>");
  EXPECT_EQ(FieldTypeName(field.children[1]), "run_end_encoded<int32, float64>");
  EXPECT_EQ(FieldTypeName(field),
            "struct<d: dictionary<int16, utf8>, r: run_end_encoded<int32, float64>>");
}

TEST(ImportSchema, EveryIntegerIndexTypeIsAccepted) {
  for (const char* index : {"c", "C", "s", "S", "i", "I", "l", "L"}) {
    TestArray dict = SchemaNode(index, "d");
    dict.dictionary = std::make_shared<TestArray>(SchemaNode("u", ""));
    ArrowField field;
    EXPECT_TRUE(Import(dict, &field).ok()) << index;
  }
}

TEST(ImportSchema, NonIntegerDictionaryIndexIsInvalid) {
  for (const char* index : {"u", "g", "b", "n", "d:10,2", "tdD", "+s"}) {
    TestArray dict = SchemaNode(index, "col");
    dict.dictionary = std::make_shared<TestArray>(SchemaNode("u", ""));
    Status status = ImportError(SchemaNode("+s", "", {dict}));
    EXPECT_TRUE(testing::IsError(status, StatusCode::kInvalid, {"'col'", "dictionary", "integer"}))
        << index;
  }
}

TEST(ImportSchema, ReleasedSchemaIsInvalid) {
  ArrowSchema node = Node("i", "a");
  node.release = nullptr;
  ArrowField field;
  EXPECT_TRUE(testing::IsError(ImportSchema(node, &field), StatusCode::kInvalid, {"released"}));
  // A released child, deeper in the tree.
  ArrowSchema child = Node("i", "inner");
  child.release = nullptr;
  ArrowSchema* children[] = {&child};
  ArrowSchema parent = Node("+s", "outer", 1, children);
  EXPECT_TRUE(
      testing::IsError(ImportSchema(parent, &field), StatusCode::kInvalid, {"released", "outer"}));
}

TEST(ImportSchema, NullFormatIsInvalid) {
  ArrowSchema node = Node(nullptr, "a");
  ArrowField field;
  EXPECT_TRUE(
      testing::IsError(ImportSchema(node, &field), StatusCode::kInvalid, {"'a'", "format"}));
}

TEST(ImportSchema, NullChildListAndNullChildAreInvalid) {
  ArrowField field;
  ArrowSchema no_list = Node("+s", "s", 2, nullptr);
  EXPECT_TRUE(
      testing::IsError(ImportSchema(no_list, &field), StatusCode::kInvalid, {"'s'", "child"}));
  ArrowSchema child = Node("i", "x");
  ArrowSchema* children[] = {&child, nullptr};
  ArrowSchema null_child = Node("+s", "s", 2, children);
  EXPECT_TRUE(testing::IsError(ImportSchema(null_child, &field), StatusCode::kInvalid,
                               {"'s'", "child 1", "NULL"}));
  ArrowSchema negative = Node("+s", "s", -1, children);
  EXPECT_TRUE(testing::IsError(ImportSchema(negative, &field), StatusCode::kInvalid, {"'s'"}));
  ArrowSchema null_list_child = Node("+l", "list", 1, children + 1);
  EXPECT_TRUE(testing::IsError(ImportSchema(null_list_child, &field), StatusCode::kInvalid,
                               {"'list'", "NULL"}));
}

TEST(ImportSchema, MalformedFormatNamesThePath) {
  TestArray inner = SchemaNode("+s", "inner", {SchemaNode("q", "leaf")});
  Status status = ImportError(SchemaNode("+s", "", {SchemaNode("i", "a"), inner}));
  EXPECT_TRUE(testing::IsError(status, StatusCode::kInvalid, {"inner.leaf", "'q'"}));
}

TEST(ImportSchema, WrongChildCountsAreInvalid) {
  const TestArray i = SchemaNode("i", "x");
  // Lists need exactly one child.
  EXPECT_TRUE(testing::IsError(ImportError(SchemaNode("+l", "lst")), StatusCode::kInvalid,
                               {"'lst'", "0 children", "expected 1"}));
  EXPECT_TRUE(testing::IsError(ImportError(SchemaNode("+w:2", "fsl", {i, i})), StatusCode::kInvalid,
                               {"'fsl'", "2 children"}));
  // Primitives have none.
  EXPECT_TRUE(testing::IsError(ImportError(SchemaNode("i", "prim", {i})), StatusCode::kInvalid,
                               {"'prim'", "1 children", "expected 0"}));
  // A map has one child: a struct of key and value.
  TestArray entries =
      SchemaNode("+s", "entries", {SchemaNode("u", "key"), SchemaNode("i", "value")});
  ArrowField field;
  EXPECT_TRUE(Import(SchemaNode("+m", "m", {entries}), &field).ok());
  EXPECT_TRUE(testing::IsError(ImportError(SchemaNode("+m", "m")), StatusCode::kInvalid,
                               {"'m'", "0 children"}));
  EXPECT_TRUE(testing::IsError(ImportError(SchemaNode("+m", "m", {entries, entries})),
                               StatusCode::kInvalid, {"'m'", "2 children"}));
  EXPECT_TRUE(testing::IsError(ImportError(SchemaNode("+m", "m", {i})), StatusCode::kInvalid,
                               {"'m'", "map"}));
  TestArray one = SchemaNode("+s", "entries", {SchemaNode("u", "key")});
  EXPECT_TRUE(testing::IsError(ImportError(SchemaNode("+m", "m", {one})), StatusCode::kInvalid,
                               {"'m'", "map"}));
  // Run-end encoded: exactly run ends and values.
  EXPECT_TRUE(testing::IsError(ImportError(SchemaNode("+r", "r", {i})), StatusCode::kInvalid,
                               {"'r'", "1 children", "expected 2"}));
  EXPECT_TRUE(testing::IsError(ImportError(SchemaNode("+r", "r", {i, i, i})), StatusCode::kInvalid,
                               {"'r'", "3 children"}));
  EXPECT_TRUE(testing::IsError(ImportError(SchemaNode("+r", "r")), StatusCode::kInvalid, {"'r'"}));
}

TEST(ImportSchema, RunEndsMustBeSignedIntegersOf16To64Bits) {
  for (const char* ends : {"s", "i", "l"}) {
    ArrowField field;
    EXPECT_TRUE(
        Import(SchemaNode("+r", "r", {SchemaNode(ends, "e"), SchemaNode("u", "v")}), &field).ok())
        << ends;
  }
  for (const char* ends : {"c", "S", "I", "L", "g", "u"}) {
    Status status =
        ImportError(SchemaNode("+r", "r", {SchemaNode(ends, "e"), SchemaNode("u", "v")}));
    EXPECT_TRUE(testing::IsError(status, StatusCode::kInvalid, {"'r'", "run ends"})) << ends;
  }
}

TEST(ImportSchema, TooDeepNestingIsInvalid) {
  TestArray node = SchemaNode("i", "leaf");
  for (int depth = 0; depth < 80; ++depth) node = SchemaNode("+s", "s", {node});
  EXPECT_TRUE(testing::IsError(ImportError(node), StatusCode::kInvalid, {"levels"}));
}

TEST(ImportSchema, MalformedMetadataIsInvalid) {
  TestArray node = SchemaNode("i", "meta");
  std::string negative_count(4, '\xff');  // count -1
  node.metadata = negative_count;
  EXPECT_TRUE(testing::IsError(ImportError(node), StatusCode::kInvalid, {"'meta'", "metadata"}));
}

TEST(DecodeMetadata, NullIsEmpty) {
  std::vector<std::pair<std::string, std::string>> pairs = {{"stale", "entry"}};
  ASSERT_TRUE(DecodeMetadata(nullptr, &pairs).ok());
  EXPECT_TRUE(pairs.empty());
}

TEST(DecodeMetadata, RoundTripsPairsIncludingEmptyAndBinaryParts) {
  std::vector<std::pair<std::string, std::string>> input = {
      {"ARROW:extension:name", "arrow.uuid"},
      {"", "empty key"},
      {"empty value", ""},
      {std::string("nul\0inside", 10), std::string("\x01\x02\0\xff", 4)},
  };
  std::string encoded = testing::EncodeMetadata(input);
  std::vector<std::pair<std::string, std::string>> output;
  ASSERT_TRUE(DecodeMetadata(encoded.data(), &output).ok());
  EXPECT_EQ(output, input);
}

TEST(DecodeMetadata, ZeroPairs) {
  std::string encoded = testing::EncodeMetadata({});
  std::vector<std::pair<std::string, std::string>> output = {{"x", "y"}};
  ASSERT_TRUE(DecodeMetadata(encoded.data(), &output).ok());
  EXPECT_TRUE(output.empty());
}

TEST(DecodeMetadata, NegativeOrHugeCountsAndLengthsAreInvalid) {
  std::vector<std::pair<std::string, std::string>> output;
  const char negative_count[] = {'\xfe', '\xff', '\xff', '\xff'};
  EXPECT_TRUE(
      testing::IsError(DecodeMetadata(negative_count, &output), StatusCode::kInvalid, {"count"}));
  const char huge_count[] = {'\x00', '\x00', '\x00', '\x7f'};
  EXPECT_TRUE(
      testing::IsError(DecodeMetadata(huge_count, &output), StatusCode::kInvalid, {"count"}));
  // One pair whose key length is -5.
  const char negative_length[] = {1, 0, 0, 0, '\xfb', '\xff', '\xff', '\xff'};
  EXPECT_TRUE(testing::IsError(DecodeMetadata(negative_length, &output), StatusCode::kInvalid,
                               {"negative length"}));
  // One pair: key "k", then a value length of -1.
  const char negative_value[] = {1, 0, 0, 0, 1, 0, 0, 0, 'k', '\xff', '\xff', '\xff', '\xff'};
  EXPECT_TRUE(testing::IsError(DecodeMetadata(negative_value, &output), StatusCode::kInvalid,
                               {"negative length"}));
}

TEST(SameLayout, ComparesFormatsAndEncodingsNotNames) {
  TestArray a = SchemaNode("+s", "", {SchemaNode("u", "x"), SchemaNode("l", "y")});
  ArrowField field;
  ASSERT_TRUE(Import(a, &field).ok());
  auto same = [&](const TestArray& other) {
    testing::OwnedSchema schema;
    testing::ExportSchema(other, &schema.schema);
    return SameLayout(field, schema.schema);
  };
  EXPECT_TRUE(same(SchemaNode("+s", "renamed", {SchemaNode("u", "p"), SchemaNode("l", "q")})));
  EXPECT_FALSE(same(SchemaNode("+s", "", {SchemaNode("U", "x"), SchemaNode("l", "y")})));
  EXPECT_FALSE(same(SchemaNode("+s", "", {SchemaNode("u", "x")})));
  TestArray dict = SchemaNode("i", "x");
  dict.dictionary = std::make_shared<TestArray>(SchemaNode("u", ""));
  EXPECT_FALSE(same(SchemaNode("+s", "", {dict, SchemaNode("l", "y")})));
  // And the other way: a dictionary field against plain and other dictionaries.
  ArrowField dict_field;
  ASSERT_TRUE(Import(dict, &dict_field).ok());
  testing::OwnedSchema plain;
  testing::ExportSchema(SchemaNode("i", "x"), &plain.schema);
  EXPECT_FALSE(SameLayout(dict_field, plain.schema));
  TestArray other_values = SchemaNode("i", "x");
  other_values.dictionary = std::make_shared<TestArray>(SchemaNode("z", ""));
  testing::OwnedSchema other;
  testing::ExportSchema(other_values, &other.schema);
  EXPECT_FALSE(SameLayout(dict_field, other.schema));
  testing::OwnedSchema equal;
  testing::ExportSchema(dict, &equal.schema);
  EXPECT_TRUE(SameLayout(dict_field, equal.schema));
}

}  // namespace
}  // namespace rowbridge
