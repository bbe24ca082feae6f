// The row decoder on hand-built UnsafeRows: the Arrow buffers of each kind
// of value, byte for byte; every malformed row an error naming the field
// and the row, with nothing exported; the target types it refuses.
#include "rowbridge/row_decoder.hpp"

#include <gtest/gtest.h>

#include <cstring>

#include "support/golden_json.hpp"
#include "support/row_test_util.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge {
namespace {

using testing::Bytes;
using testing::SchemaNode;
using testing::TestArray;

/// 8 little-endian bytes of `v`, as hex.
std::string Word(uint64_t v) {
  Bytes bytes(8);
  std::memcpy(bytes.data(), &v, 8);
  return testing::Hex(bytes) + " ";
}
std::string Slot(uint64_t offset, uint64_t size) { return Word(offset << 32 | size); }

TestArray Schema(std::vector<TestArray> fields) { return SchemaNode("+s", "", std::move(fields)); }

/// A decoder of `schema` run on `rows` (hex), into `out`.
Status Decode(const TestArray& schema, const std::vector<std::string>& rows,
              testing::OwnedArray* out) {
  testing::OwnedSchema exported;
  testing::ExportSchema(schema, &exported.schema);
  std::unique_ptr<RowDecoder> decoder;
  ROWBRIDGE_RETURN_NOT_OK(RowDecoder::Make(exported.schema, &decoder));
  Bytes data;
  std::vector<int64_t> offsets{0};
  for (const std::string& hex : rows) {
    Bytes row = testing::FromHex(testing::CleanHex(hex));
    data.insert(data.end(), row.begin(), row.end());
    offsets.push_back(static_cast<int64_t>(data.size()));
  }
  // The rows in a buffer of their exact size, so that a read past them is
  // AddressSanitizer's to catch.
  std::unique_ptr<uint8_t[]> exact(new uint8_t[data.size() + (data.empty() ? 1 : 0)]);
  if (!data.empty()) std::memcpy(exact.get(), data.data(), data.size());
  return decoder->Decode(exact.get(), offsets.data(), static_cast<int64_t>(rows.size()),
                         &out->array);
}

/// `size` bytes of buffer `i` of `array`, as hex ("" for a NULL buffer).
std::string BufferHex(const ArrowArray& array, int64_t i, size_t size) {
  if (array.buffers[i] == nullptr) return "";
  return testing::Hex(static_cast<const uint8_t*>(array.buffers[i]), size);
}

TEST(RowDecoder, FlatValuesAndNulls) {
  // a int32, b utf8, c bool, d decimal(20, 2), e float64
  TestArray schema = Schema({SchemaNode("i", "a"), SchemaNode("u", "b"), SchemaNode("b", "c"),
                             SchemaNode("d:20,2", "d"), SchemaNode("g", "e")});
  const std::string row0 = Word(0) + Word(0xffffffffu) + Slot(48, 2) + Word(1) + Slot(56, 2) +
                           Word(0x3ff0000000000000) + "6869000000000000" + "0100000000000000" +
                           Word(0);
  // a, b and d null: d keeps its 16 reserved bytes and its offset.
  const std::string row1 = Word(0b1011) + Word(0) + Word(0) + Word(0) + Slot(48, 0) +
                           Word(0x8000000000000000) + Word(0) + Word(0);
  testing::OwnedArray out;
  Status status = Decode(schema, {row0, row1}, &out);
  ASSERT_TRUE(status.ok()) << status.message();
  const ArrowArray& batch = out.array;
  ASSERT_EQ(batch.length, 2);
  ASSERT_EQ(batch.n_children, 5);
  const ArrowArray& a = *batch.children[0];
  EXPECT_EQ(a.null_count, 1);
  EXPECT_EQ(BufferHex(a, 0, 1), "01");
  EXPECT_EQ(BufferHex(a, 1, 8), "ffffffff00000000");
  const ArrowArray& b = *batch.children[1];
  EXPECT_EQ(b.n_buffers, 3);
  EXPECT_EQ(BufferHex(b, 1, 12), "000000000200000002000000");
  EXPECT_EQ(BufferHex(b, 2, 2), "6869");
  const ArrowArray& c = *batch.children[2];
  EXPECT_EQ(c.null_count, 0);
  EXPECT_EQ(c.buffers[0], nullptr);
  EXPECT_EQ(BufferHex(c, 1, 1), "01");
  const ArrowArray& d = *batch.children[3];
  EXPECT_EQ(d.null_count, 1);
  EXPECT_EQ(
      BufferHex(d, 1, 32),
      testing::CleanHex("00 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00" + std::string(32, '0')));
  const ArrowArray& e = *batch.children[4];
  EXPECT_EQ(BufferHex(e, 1, 16), "000000000000f03f0000000000000080");
}

TEST(RowDecoder, NegativeLargeDecimalAndSmallDecimal) {
  // decimal(38, 0) of -1 (one byte ff) and of -256 (ff 00); decimal(9, 2) -5.
  TestArray schema = Schema({SchemaNode("d:38,0", "big"), SchemaNode("d:9,2", "small")});
  const std::string row0 =
      Word(0) + Slot(24, 1) + Word(static_cast<uint64_t>(-5)) + "ff" + std::string(30, '0');
  const std::string row1 = Word(0) + Slot(24, 2) + Word(0) + "ff00" + std::string(28, '0');
  testing::OwnedArray out;
  Status status = Decode(schema, {row0, row1}, &out);
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(BufferHex(*out.array.children[0], 1, 32),
            std::string(32, 'f') + "00ff" + std::string(28, 'f'));
  EXPECT_EQ(BufferHex(*out.array.children[1], 1, 32),
            "fb" + std::string(30, 'f') + std::string(32, '0'));
}

TEST(RowDecoder, ArraysMapsAndStructs) {
  // m map<utf8, int64>, l list<int32>, s struct<x int64, y utf8>
  TestArray map = SchemaNode(
      "+m", "m", {SchemaNode("+s", "entries", {SchemaNode("u", "key"), SchemaNode("l", "value")})});
  map.children[0].nullable = false;
  map.children[0].children[0].nullable = false;
  TestArray schema = Schema({map, SchemaNode("+l", "l", {SchemaNode("i", "element")}),
                             SchemaNode("+s", "s", {SchemaNode("l", "x"), SchemaNode("u", "y")})});
  // {"k": 7}: key array (one slot, "k") of 32 bytes, value array of 24.
  const std::string key_array = Word(1) + Word(0) + Slot(24, 1) + "6b00000000000000";
  const std::string value_array = Word(1) + Word(0) + Word(7);
  const std::string map_bytes = Word(32) + key_array + value_array;  // 64 bytes
  // [1, null, 3]
  const std::string list_bytes = Word(3) + Word(0b010) +
                                 "01000000"
                                 "00000000"
                                 "03000000"
                                 "00000000";
  // {x: 9, y: null}
  const std::string struct_bytes = Word(0b10) + Word(9) + Word(0);
  const std::string row0 =
      Word(0) + Slot(32, 64) + Slot(96, 32) + Slot(128, 24) + map_bytes + list_bytes + struct_bytes;
  // m null, l empty, s null
  const std::string row1 = Word(0b101) + Word(0) + Slot(32, 8) + Word(0) + Word(0);
  testing::OwnedArray out;
  Status status = Decode(schema, {row0, row1}, &out);
  ASSERT_TRUE(status.ok()) << status.message();
  const ArrowArray& m = *out.array.children[0];
  EXPECT_EQ(m.null_count, 1);
  EXPECT_EQ(BufferHex(m, 1, 12), "000000000100000001000000");
  ASSERT_EQ(m.n_children, 1);
  const ArrowArray& entries = *m.children[0];
  EXPECT_EQ(entries.length, 1);
  EXPECT_EQ(entries.null_count, 0);
  EXPECT_EQ(BufferHex(*entries.children[0], 1, 8), "0000000001000000");
  EXPECT_EQ(BufferHex(*entries.children[0], 2, 1), "6b");
  EXPECT_EQ(BufferHex(*entries.children[1], 1, 8), "0700000000000000");
  const ArrowArray& l = *out.array.children[1];
  EXPECT_EQ(l.null_count, 0);
  EXPECT_EQ(BufferHex(l, 1, 12), "000000000300000003000000");
  const ArrowArray& element = *l.children[0];
  EXPECT_EQ(element.length, 3);
  EXPECT_EQ(element.null_count, 1);
  EXPECT_EQ(BufferHex(element, 0, 1), "05");
  EXPECT_EQ(BufferHex(element, 1, 12), "010000000000000003000000");
  const ArrowArray& s = *out.array.children[2];
  EXPECT_EQ(s.null_count, 1);
  EXPECT_EQ(BufferHex(s, 0, 1), "01");
  EXPECT_EQ(BufferHex(*s.children[0], 1, 16), "09000000000000000000000000000000");
  // y is null in the valid struct and under the null one.
  EXPECT_EQ(s.children[1]->null_count, 2);
  EXPECT_EQ(BufferHex(*s.children[1], 1, 12), "000000000000000000000000");
}

TEST(RowDecoder, ArraysMovedOutAtAnyDepthOutliveTheirParents) {
  TestArray map = SchemaNode(
      "+m", "m", {SchemaNode("+s", "entries", {SchemaNode("u", "key"), SchemaNode("l", "value")})});
  const std::string key_array = Word(1) + Word(0) + Slot(24, 1) + "6b00000000000000";
  const std::string value_array = Word(1) + Word(0) + Word(7);
  const std::string row = Word(0) + Slot(16, 64) + Word(32) + key_array + value_array;
  for (bool release_root_first : {true, false}) {
    testing::OwnedArray out;
    ASSERT_TRUE(Decode(Schema({map}), {row}, &out).ok());
    // Move the keys (a grandchild of the map) out, as the C Data Interface allows.
    ArrowArray* entries = out.array.children[0]->children[0];
    ArrowArray keys = *entries->children[0];
    entries->children[0]->release = nullptr;
    if (release_root_first) out.array.release(&out.array);
    EXPECT_EQ(keys.length, 1);
    EXPECT_EQ(BufferHex(keys, 2, 1), "6b");
    keys.release(&keys);
    EXPECT_EQ(keys.release, nullptr);
    // Otherwise the root goes last (OwnedArray), with the keys already gone.
  }
}

TEST(RowDecoder, NoRows) {
  TestArray schema =
      Schema({SchemaNode("u", "s"), SchemaNode("+l", "l", {SchemaNode("l", "element")})});
  testing::OwnedArray out;
  Status status = Decode(schema, {}, &out);
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(out.array.length, 0);
  EXPECT_EQ(out.array.children[0]->length, 0);
  EXPECT_NE(out.array.children[0]->buffers[1], nullptr);
  EXPECT_EQ(BufferHex(*out.array.children[0], 1, 4), "00000000");
}

/// Expects `rows` of `schema` to fail with `code` and a message holding
/// every part, and nothing exported.
void ExpectError(const TestArray& schema, const std::vector<std::string>& rows, StatusCode code,
                 std::initializer_list<std::string> parts) {
  testing::OwnedArray out;
  Status status = Decode(schema, rows, &out);
  EXPECT_TRUE(testing::IsError(status, code, parts));
  EXPECT_EQ(out.array.release, nullptr);
}

TEST(RowDecoder, MalformedRowsAreErrorsNamingTheFieldAndRow) {
  const TestArray strings = Schema({SchemaNode("l", "a"), SchemaNode("u", "s")});
  const std::string good = Word(0) + Word(1) + Slot(24, 1) + "6100000000000000";
  ExpectError(strings, {good, Word(0) + Word(1)}, StatusCode::kInvalid,
              {"row 1: 16 bytes", "24-byte"});
  ExpectError(strings, {good, Word(0) + Word(1) + Slot(24, 9) + Word(0)}, StatusCode::kInvalid,
              {"field 's' row 1", "9 bytes at offset 24", "32 bytes"});
  ExpectError(strings, {Word(0) + Word(1) + Slot(0xffffffffu, 0xffffffffu) + Word(0)},
              StatusCode::kInvalid, {"field 's' row 0"});

  const TestArray lists = Schema({SchemaNode("+l", "l", {SchemaNode("l", "element")})});
  // 3 elements need 8 + 8 + 24 bytes; the array has 24.
  ExpectError(lists, {Word(0) + Slot(16, 24) + Word(3) + Word(0) + Word(0)}, StatusCode::kInvalid,
              {"field 'l' row 0", "3 elements", "24 bytes"});
  ExpectError(lists, {Word(0) + Slot(16, 8) + Word(static_cast<uint64_t>(-1))},
              StatusCode::kInvalid, {"field 'l' row 0"});

  TestArray map = SchemaNode(
      "+m", "m", {SchemaNode("+s", "entries", {SchemaNode("i", "key"), SchemaNode("i", "value")})});
  const TestArray maps = Schema({map});
  const std::string one_key = Word(1) + Word(0) + Word(5);
  const std::string null_key = Word(1) + Word(1) + Word(0);
  const std::string two_values = Word(2) + Word(0) + Word(5);
  ExpectError(maps, {Word(0) + Slot(16, 56) + Word(24) + null_key + one_key}, StatusCode::kInvalid,
              {"field 'm' row 0", "map key 0 is null"});
  ExpectError(maps, {Word(0) + Slot(16, 56) + Word(24) + one_key + two_values},
              StatusCode::kInvalid, {"field 'm' row 0", "1 keys and 2 values"});
  ExpectError(maps, {Word(0) + Slot(16, 56) + Word(56) + one_key + one_key}, StatusCode::kInvalid,
              {"field 'm' row 0", "key array of 56 bytes"});

  const TestArray decimals = Schema({SchemaNode("d:38,2", "d")});
  ExpectError(decimals, {Word(0) + Slot(16, 0) + Word(0) + Word(0)}, StatusCode::kInvalid,
              {"field 'd' row 0", "0 bytes"});
  ExpectError(decimals, {Word(0) + Slot(16, 17) + Word(0) + Word(0) + Word(0)},
              StatusCode::kInvalid, {"field 'd' row 0", "17 bytes"});
  // 10^38 (16 bytes: 4b 3b 4c a8 5a 86 c4 7a 09 8a 22 40 00 00 00 00) exceeds 38 digits.
  ExpectError(decimals, {Word(0) + Slot(16, 16) + "4b3b4ca85a86c47a098a224000000000"},
              StatusCode::kOverflow, {"field 'd' row 0", "precision 38"});
  ExpectError(Schema({SchemaNode("d:4,0", "d")}), {Word(0) + Word(10000)}, StatusCode::kOverflow,
              {"field 'd' row 0", "10000", "precision 4"});

  const TestArray intervals = Schema({SchemaNode("tin", "t")});
  ExpectError(intervals, {Word(0) + Slot(16, 8) + Word(0)}, StatusCode::kInvalid,
              {"field 't' row 0", "16 expected"});
  ExpectError(intervals, {Word(0) + Slot(16, 16) + Word(0) + Word(INT64_MAX / 100)},
              StatusCode::kOverflow, {"field 't' row 0", "nanoseconds"});

  const TestArray structs =
      Schema({SchemaNode("+s", "s", {SchemaNode("l", "x"), SchemaNode("u", "y")})});
  ExpectError(structs, {Word(0) + Slot(16, 16) + Word(0) + Word(0)}, StatusCode::kInvalid,
              {"field 's' row 0", "16 bytes", "24-byte"});
  // A nested value's offsets are relative to its own row: y leaves s.
  ExpectError(structs, {Word(0) + Slot(16, 24) + Word(0) + Word(0) + Slot(24, 1)},
              StatusCode::kInvalid, {"field 's.y' row 0"});
}

TEST(RowDecoder, NullsWhereNoneMayBe) {
  TestArray required = SchemaNode("l", "a");
  required.nullable = false;
  ExpectError(Schema({SchemaNode("l", "n"), required}), {Word(0b10) + Word(0) + Word(0)},
              StatusCode::kInvalid, {"field 'a' row 0", "non-nullable"});
  TestArray list = SchemaNode("+l", "l", {SchemaNode("i", "element")});
  list.children[0].nullable = false;
  ExpectError(Schema({list}), {Word(0) + Slot(16, 24) + Word(1) + Word(1) + Word(0)},
              StatusCode::kInvalid, {"field 'l' row 0", "element 0 is null"});
  // The same rows decode where nulls may be.
  testing::OwnedArray out;
  EXPECT_TRUE(Decode(Schema({SchemaNode("l", "n"), SchemaNode("l", "a")}),
                     {Word(0b10) + Word(0) + Word(0)}, &out)
                  .ok());
}

TEST(RowDecoder, RowOffsetsOutOfOrderAreAnError) {
  testing::OwnedSchema exported;
  testing::ExportSchema(Schema({SchemaNode("l", "a")}), &exported.schema);
  std::unique_ptr<RowDecoder> decoder;
  ASSERT_TRUE(RowDecoder::Make(exported.schema, &decoder).ok());
  Bytes data(32);
  const int64_t offsets[] = {0, 16, 8};
  testing::OwnedArray out;
  EXPECT_TRUE(testing::IsError(decoder->Decode(data.data(), offsets, 2, &out.array),
                               StatusCode::kInvalid, {"row 1", "out of order"}));
  EXPECT_TRUE(testing::IsError(decoder->Decode(nullptr, nullptr, 1, &out.array),
                               StatusCode::kInvalid, {"rows"}));
  EXPECT_TRUE(testing::IsError(decoder->Decode(data.data(), offsets, -1, &out.array),
                               StatusCode::kInvalid, {"negative"}));
  EXPECT_EQ(out.array.release, nullptr);
}

TEST(RowDecoder, TypesRowsDoNotDecodeToAreRejectedByName) {
  auto make = [](TestArray field) {
    testing::OwnedSchema exported;
    testing::ExportSchema(Schema({std::move(field)}), &exported.schema);
    std::unique_ptr<RowDecoder> decoder;
    return RowDecoder::Make(exported.schema, &decoder);
  };
  EXPECT_TRUE(testing::IsError(make(SchemaNode("tsm:UTC", "t")), StatusCode::kNotSupported,
                               {"field 't'", "microseconds"}));
  EXPECT_TRUE(testing::IsError(make(SchemaNode("d:10,2,256", "d")), StatusCode::kNotSupported,
                               {"field 'd'", "decimal128"}));
  EXPECT_TRUE(
      testing::IsError(make(SchemaNode("vu", "v")), StatusCode::kNotSupported, {"field 'v'"}));
  EXPECT_TRUE(testing::IsError(make(SchemaNode("+w:2", "f", {SchemaNode("i", "element")})),
                               StatusCode::kNotSupported, {"field 'f'"}));
  EXPECT_TRUE(testing::IsError(make(SchemaNode("+s", "s", {SchemaNode("I", "u")})),
                               StatusCode::kNotSupported, {"field 's.u'"}));
  TestArray dictionary = SchemaNode("i", "d");
  dictionary.dictionary = std::make_shared<TestArray>(SchemaNode("u", ""));
  EXPECT_TRUE(
      testing::IsError(make(dictionary), StatusCode::kNotSupported, {"field 'd'", "value type"}));
}

TEST(RowDecoder, SparkSchemaDecodesToTheCanonicalArrowTypes) {
  SparkType schema;
  schema.id = SparkTypeId::kStruct;
  auto add = [&](const std::string& name, SparkType type) {
    schema.fields.push_back({name, std::move(type), true});
  };
  for (SparkTypeId id :
       {SparkTypeId::kNull, SparkTypeId::kBoolean, SparkTypeId::kByte, SparkTypeId::kShort,
        SparkTypeId::kInteger, SparkTypeId::kLong, SparkTypeId::kFloat, SparkTypeId::kDouble,
        SparkTypeId::kString, SparkTypeId::kBinary, SparkTypeId::kDate, SparkTypeId::kTimestamp,
        SparkTypeId::kTimestampNtz, SparkTypeId::kYearMonthInterval, SparkTypeId::kDayTimeInterval,
        SparkTypeId::kCalendarInterval}) {
    SparkType type;
    type.id = id;
    add("f" + std::to_string(schema.fields.size()), type);
  }
  SparkType decimal{SparkTypeId::kDecimal, 38, 10, {}};
  add("dec", decimal);
  SparkType array{
      SparkTypeId::kArray, 0, 0, {{"element", SparkType{SparkTypeId::kInteger, 0, 0, {}}, false}}};
  add("arr", array);
  SparkType map{
      SparkTypeId::kMap,
      0,
      0,
      {{"key", SparkType{SparkTypeId::kString, 0, 0, {}}, false}, {"value", array, true}}};
  add("map", map);
  std::unique_ptr<RowDecoder> decoder;
  Status status = RowDecoder::Make(schema, &decoder);
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(decoder->spark_schema().ToString(), schema.ToString());
  testing::OwnedSchema exported;
  ASSERT_TRUE(decoder->ExportSchema(&exported.schema).ok());
  std::vector<std::string> formats;
  for (int64_t i = 0; i < exported.schema.n_children; ++i)
    formats.push_back(exported.schema.children[i]->format);
  EXPECT_EQ(formats, (std::vector<std::string>{"n", "b", "c", "s", "i", "l", "f", "g", "u", "z",
                                               "tdD", "tsu:UTC", "tsu:", "tiM", "tDu", "tin",
                                               "d:38,10", "+l", "+m"}));
  const ArrowSchema& arr = *exported.schema.children[17];
  EXPECT_EQ(std::string(arr.children[0]->format), "i");
  EXPECT_EQ(arr.children[0]->flags & ARROW_FLAG_NULLABLE, 0);
  const ArrowSchema& entries = *exported.schema.children[18]->children[0];
  EXPECT_EQ(std::string(entries.name), "entries");
  EXPECT_EQ(entries.flags & ARROW_FLAG_NULLABLE, 0);
  EXPECT_EQ(std::string(entries.children[0]->name), "key");
  EXPECT_EQ(entries.children[0]->flags & ARROW_FLAG_NULLABLE, 0);
  EXPECT_EQ(std::string(entries.children[1]->format), "+l");
}

}  // namespace
}  // namespace rowbridge
