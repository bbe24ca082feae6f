// Byte-exact rows for struct and map columns and their combinations
// (CONTRACTS.md §3): nested rows with their own bitsets and offsets relative to the
// nested row, 16 bytes for every large-decimal field of a struct (null or
// not), maps with their key-array size, a map with array values, a struct
// holding an array of maps, an array of structs with large decimals, and a
// nested value between flat columns.
#include <gtest/gtest.h>

#include "rowbridge/converter.hpp"
#include "support/row_test_util.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge {
namespace {

using testing::Batch;
using testing::ExpectRows;
using testing::Primitive;
using testing::Strings;
using testing::TestArray;

TEST(NestedStructs, NestedRowsHaveTheirOwnBitsetAndOffsets) {
  TestArray s = testing::Struct("s", 3,
                                {Primitive<int64_t>("l", "a", {1, 9, std::nullopt}),
                                 Strings("u", "b", {"hello", "zz", std::nullopt})},
                                {true, false, true});
  auto batch = Batch({Primitive<int32_t>("i", "x", {-1, 2, 3}), s});
  ExpectRows(batch, {
                        "0000000000000000 ffffffff00000000"
                        "2000000018000000"  // s: 32 bytes at 24
                        "0000000000000000"  // nested bitset
                        "0100000000000000"  // a = 1
                        "0500000018000000"  // b: 5 bytes at 24 of the nested row
                        "68656c6c6f000000",
                        "0200000000000000 0200000000000000 0000000000000000",  // s null
                        "0000000000000000 0300000000000000"
                        "1800000018000000"
                        "0300000000000000 0000000000000000 0000000000000000",  // a, b null
                    });
}

TEST(NestedStructs, LargeDecimalFieldsReserveSixteenBytes) {
  TestArray s = testing::Struct(
      "s", 2,
      {testing::Decimal("d", 128, 38, 10, {-1, std::nullopt}), Primitive<int32_t>("i", "i", {7, 8}),
       testing::MonthDayNano("v", {std::nullopt, testing::MonthDayNanoValue{1, 1, 1000}})});
  auto batch = Batch({s});
  ExpectRows(batch, {
                        "0000000000000000 4000000010000000"  // 64 bytes
                        "0400000000000000"                   // v null
                        "0100000020000000"                   // d: 1 byte at 32
                        "0700000000000000"
                        "1000000030000000"  // v: 16 zero bytes at 48, same slot
                        "ff00000000000000 0000000000000000"
                        "0000000000000000 0000000000000000",
                        "0000000000000000 4000000010000000"
                        "0100000000000000"  // d null
                        "0000000020000000"  // 16 bytes kept, size 0
                        "0800000000000000"
                        "1000000030000000"
                        "0000000000000000 0000000000000000"
                        "0100000001000000 0100000000000000",
                    });
}

TEST(NestedStructs, StructOfStructs) {
  TestArray inner = testing::Struct("t", 2, {Primitive<int16_t>("s", "u", {5, 6})}, {true, false});
  auto batch = Batch({testing::Struct("s", 2, {inner, Strings("u", "w", {"ab", ""})})});
  ExpectRows(batch, {
                        "0000000000000000 3000000010000000"  // 48 bytes
                        "0000000000000000"
                        "1000000018000000"                   // t: 16 bytes at 24
                        "0200000028000000"                   // w: 2 bytes at 40
                        "0000000000000000 0500000000000000"  // t
                        "6162000000000000",
                        "0000000000000000 1800000010000000"
                        "0100000000000000 0000000000000000"
                        "0000000018000000",  // w: empty at the cursor 24
                    });
}

TEST(NestedStructs, EmptyStructsAndWideStructs) {
  // A struct without fields is an empty UnsafeRow: zero bytes at the cursor.
  auto empty = Batch({testing::Struct("e", 2, {}, {true, false})});
  ExpectRows(empty, {"0000000000000000 0000000010000000", "0100000000000000 0000000000000000"});
  // 65 fields: a two-word bitset in the nested row.
  std::vector<TestArray> fields;
  for (int i = 0; i < 65; ++i) {
    fields.push_back(Primitive<int8_t>("c", "f" + std::to_string(i),
                                       {i == 64 ? std::nullopt : std::optional<int8_t>(1)}));
  }
  testing::Conversion conversion = testing::Convert(Batch({testing::Struct("w", 1, fields)}));
  ASSERT_TRUE(conversion.status.ok()) << conversion.status.message();
  ASSERT_EQ(conversion.rows.size(), 1u);
  const testing::Bytes& row = conversion.rows[0];
  ASSERT_EQ(row.size(), 16u + 16 + 65 * 8);
  EXPECT_EQ(testing::Hex(row.data() + 8, 8),
            testing::CleanHex("1802000010000000"));  // 536 bytes at 16
  EXPECT_EQ(testing::Hex(row.data() + 16, 16),
            testing::CleanHex("0000000000000000 0100000000000000"));
  EXPECT_EQ(testing::Hex(row.data() + 32, 8), testing::CleanHex("0100000000000000"));  // f0
  EXPECT_EQ(testing::Hex(row.data() + 32 + 64 * 8, 8),
            testing::CleanHex("0000000000000000"));  // f64 null
}

TEST(NestedMaps, KeyArraySizeThenKeysThenValues) {
  TestArray map = testing::Map("m", Strings("u", "", {"a", "b", "c"}),
                               Primitive<int64_t>("l", "", {1, std::nullopt, 3}), {0, 2, 2, 3},
                               {true, false, true});
  auto batch = Batch({map});
  ExpectRows(batch, {
                        "0000000000000000 5800000010000000"  // 88 bytes
                        "3000000000000000"                   // key array: 48 bytes
                        "0200000000000000 0000000000000000 0100000020000000 0100000028000000"
                        "6100000000000000 6200000000000000"
                        "0200000000000000 0200000000000000 0100000000000000 0000000000000000",
                        "0100000000000000 0000000000000000",
                        "0000000000000000 4000000010000000"  // 64 bytes
                        "2000000000000000"
                        "0100000000000000 0000000000000000 0100000018000000 6300000000000000"
                        "0100000000000000 0000000000000000 0300000000000000",
                    });
}

TEST(NestedMaps, MapWithArrayValues) {
  TestArray lists =
      testing::ListOfLengths("", Primitive<int64_t>("l", "", {1, 2}), {2, std::nullopt});
  auto batch = Batch({testing::Map("m", Strings("u", "", {"a", "b"}), lists, {0, 2})});
  ExpectRows(batch, {"0000000000000000 7800000010000000"  // 120 bytes
                     "3000000000000000"                   // key array: 48 bytes
                     "0200000000000000 0000000000000000 0100000020000000 0100000028000000"
                     "6100000000000000 6200000000000000"
                     "0200000000000000 0200000000000000"  // value array, element 1 null
                     "2000000020000000 0000000000000000"  // [1, 2]: 32 bytes at 32
                     "0200000000000000 0000000000000000 0100000000000000 0200000000000000"});
}

TEST(NestedMaps, EmptyMaps) {
  auto batch =
      Batch({testing::Map("m", Strings("u", "", {}), Primitive<int32_t>("i", "", {}), {0, 0})});
  ExpectRows(batch, {"0000000000000000 1800000010000000"
                     "0800000000000000 0000000000000000 0000000000000000"});
}

TEST(NestedCombinations, StructContainingAnArrayOfMaps) {
  TestArray maps = testing::Map("", Strings("u", "", {"k"}), Primitive<int32_t>("i", "", {1}),
                                {0, 1, 1, 1}, {true, false, true});
  TestArray lm = testing::ListOfLengths("lm", maps, {3});
  auto batch = Batch({testing::Struct("s", 1, {lm, Primitive<int32_t>("i", "n", {5})})});
  ExpectRows(batch, {"0000000000000000 9800000010000000"                   // 152 bytes
                     "0000000000000000 8000000018000000 0500000000000000"  // struct: lm 128 at 24
                     "0300000000000000 0200000000000000"                   // 3 maps, map 1 null
                     "4000000028000000 0000000000000000 1800000068000000"  // 64 at 40, 24 at 104
                     "2000000000000000"                                    // map 0: keys 32 bytes
                     "0100000000000000 0000000000000000 0100000018000000 6b00000000000000"
                     "0100000000000000 0000000000000000 0100000000000000"
                     "0800000000000000 0000000000000000 0000000000000000"});  // map 2: empty
}

TEST(NestedCombinations, ArrayOfStructsWithLargeDecimals) {
  TestArray structs = testing::Struct("", 3,
                                      {testing::Decimal("d", 128, 38, 2, {1, 0, std::nullopt}),
                                       Primitive<int32_t>("i", "i", {7, 0, std::nullopt})},
                                      {true, false, true});
  auto batch = Batch({testing::ListOfLengths("a", structs, {3})});
  ExpectRows(batch, {"0000000000000000 7800000010000000"  // 120 bytes
                     "0300000000000000 0200000000000000"
                     "2800000028000000 0000000000000000 2800000050000000"
                     "0000000000000000 0100000018000000 0700000000000000"
                     "0100000000000000 0000000000000000"
                     "0300000000000000 0000000018000000 0000000000000000"
                     "0000000000000000 0000000000000000"});
}

TEST(NestedCombinations, NestedColumnsBetweenFlatOnes) {
  auto batch = Batch({
      Strings("u", "a", {"x"}),
      testing::ListOfLengths("l", Primitive<int8_t>("c", "", {4}), {1}),
      testing::Decimal("d", 128, 20, 0, {2}),
      testing::Struct("s", 1, {Strings("u", "t", {"yz"})}),
  });
  ExpectRows(batch, {"0000000000000000"
                     "0100000028000000"  // a at 40
                     "1800000030000000"  // l: 24 bytes at 48
                     "0100000048000000"  // d at 72
                     "1800000058000000"  // s: 24 bytes at 88
                     "7800000000000000"
                     "0100000000000000 0000000000000000 0400000000000000"
                     "0200000000000000 0000000000000000"
                     "0000000000000000 0200000010000000 797a000000000000"});
}

}  // namespace
}  // namespace rowbridge
