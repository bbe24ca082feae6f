// Byte-exact rows for array columns (CONTRACTS.md §3): element counts around
// the bitset and padding boundaries, null arrays, null elements of every
// element size, variable-width elements (strings, large decimals, calendar
// intervals), and every list layout: list, large_list, fixed_size_list and
// list_view with out-of-order and overlapping views. Expected rows are
// written by hand, one 8-byte word per string, little-endian.
#include <gtest/gtest.h>

#include "rowbridge/converter.hpp"
#include "support/row_test_util.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge {
namespace {

using testing::Batch;
using testing::ExpectRows;
using testing::Primitive;
using testing::TestArray;

std::string Word(uint64_t v) {
  uint8_t bytes[8];
  std::memcpy(bytes, &v, 8);
  return testing::Hex(bytes, 8);
}

/// The row of a single array<int32> column holding 1..n, built word by word
/// from CONTRACTS.md §3: [n][ceil(n/64) bitset words][n ints padded to 8].
std::string Int32ArrayRow(int64_t n) {
  int64_t bitset_words = (n + 63) / 64;
  int64_t value_words = (n * 4 + 7) / 8;
  int64_t size = 8 * (1 + bitset_words + value_words);
  std::string row = Word(0) + Word((uint64_t{16} << 32) | static_cast<uint64_t>(size)) +
                    Word(static_cast<uint64_t>(n));
  for (int64_t w = 0; w < bitset_words; ++w) row += Word(0);
  for (int64_t w = 0; w < value_words; ++w) {
    uint64_t low = static_cast<uint64_t>(2 * w + 1);
    uint64_t high = 2 * w + 2 <= n ? static_cast<uint64_t>(2 * w + 2) : 0;
    row += Word(low | (high << 32));
  }
  return row;
}

TEST(NestedArrays, ElementCountsAroundBoundaries) {
  std::vector<int64_t> counts = {0, 1, 7, 8, 9, 64, 65};
  std::vector<std::optional<int32_t>> values;
  std::vector<std::optional<int64_t>> lengths;
  std::vector<std::string> expected;
  for (int64_t n : counts) {
    for (int64_t i = 1; i <= n; ++i) values.push_back(static_cast<int32_t>(i));
    lengths.push_back(n);
    expected.push_back(Int32ArrayRow(n));
  }
  auto batch = Batch({testing::ListOfLengths("a", Primitive<int32_t>("i", "", values), lengths)});
  // The small ones, spelled out.
  EXPECT_EQ(testing::CleanHex(expected[0]),
            testing::CleanHex("0000000000000000 0800000010000000"
                              "0000000000000000"));  // n = 0: 8 bytes
  EXPECT_EQ(testing::CleanHex(expected[2]),
            testing::CleanHex("0000000000000000 3000000010000000"  // 48 bytes at 16
                              "0700000000000000 0000000000000000"
                              "0100000002000000 0300000004000000"
                              "0500000006000000 0700000000000000"));
  ExpectRows(batch, expected);
}

TEST(NestedArrays, NullArraysAndEmptyArrays) {
  auto batch = Batch({testing::ListOfLengths("a", Primitive<int64_t>("l", "", {5}),
                                             {std::nullopt, 0, 1, std::nullopt})});
  ExpectRows(batch,
             {
                 "0100000000000000 0000000000000000",  // null array: bit 0, zero slot
                 "0000000000000000 0800000010000000 0000000000000000",  // empty: numElements only
                 "0000000000000000 1800000010000000"
                 "0100000000000000 0000000000000000 0500000000000000",
                 "0100000000000000 0000000000000000",
             });
}

/// [1, null, 3] with garbage under the null element.
template <typename T>
TestArray OneNullThree(const std::string& format) {
  TestArray values = Primitive<T>(format, "", {1, std::nullopt, 3});
  std::memset(values.buffers[1]->data() + sizeof(T), 0x5a, sizeof(T));
  return values;
}

TEST(NestedArrays, NullElementsOfEverySize) {
  auto batch = Batch({
      testing::ListOfLengths("b", OneNullThree<int8_t>("c"), {3}),
      testing::ListOfLengths("s", OneNullThree<int16_t>("s"), {3}),
      testing::ListOfLengths("i", OneNullThree<int32_t>("i"), {3}),
      testing::ListOfLengths("l", OneNullThree<int64_t>("l"), {3}),
  });
  ExpectRows(batch, {"0000000000000000"                                    // null bits
                     "1800000028000000"                                    // b: 24 bytes at 40
                     "1800000040000000"                                    // s: 24 bytes at 64
                     "2000000058000000"                                    // i: 32 bytes at 88
                     "2800000078000000"                                    // l: 40 bytes at 120
                     "0300000000000000 0200000000000000 0100030000000000"  // bytes 01 00 03, padded
                     "0300000000000000 0200000000000000 0100000003000000"  // shorts 1 0 3, padded
                     "0300000000000000 0200000000000000 0100000000000000 0300000000000000"
                     "0300000000000000 0200000000000000 0100000000000000 0000000000000000"
                     "0300000000000000"});
}

TEST(NestedArrays, BooleansFloatsAndWidenedIntegers) {
  auto batch = Batch({
      testing::ListOfLengths("b", testing::Bool("", {true, false, std::nullopt}), {3}),
      testing::ListOfLengths("u", Primitive<uint8_t>("C", "", {255, 1}), {2}),        // -> short
      testing::ListOfLengths("w", Primitive<uint32_t>("I", "", {0xffffffffu}), {1}),  // -> long
      testing::ListOfLengths("f", Primitive<float>("f", "", {-0.0f}), {1}),
  });
  ExpectRows(batch, {"0000000000000000"
                     "1800000028000000 1800000040000000 1800000058000000 1800000070000000"
                     "0300000000000000 0400000000000000 0100000000000000"  // 01 00 00: null zeroed
                     "0200000000000000 0000000000000000 ff00010000000000"  // shorts 255, 1
                     "0100000000000000 0000000000000000 ffffffff00000000"  // long 4294967295
                     "0100000000000000 0000000000000000 0000008000000000"});  // float -0.0
}

TEST(NestedArrays, StringsInTheVariableRegion) {
  auto batch = Batch({testing::ListOfLengths(
      "s", testing::Strings("u", "", {"abcdefghi", std::nullopt, "", "xy"}), {4, 0})});
  ExpectRows(batch, {"0000000000000000 4800000010000000"  // 72 bytes at 16
                     "0400000000000000 0200000000000000"  // 4 elements, element 1 null
                     "0900000030000000"                   // 9 bytes at 48 (after 8 + 8 + 32)
                     "0000000000000000"                   // null
                     "0000000040000000"                   // empty at the cursor, 64
                     "0200000040000000"                   // "xy" at 64
                     "6162636465666768 6900000000000000"  // "abcdefghi" padded
                     "7879000000000000",
                     "0000000000000000 0800000010000000 0000000000000000"});
}

TEST(NestedArrays, LargeDecimalElementsTakeTheirMinimalBytes) {
  testing::Int128 big = static_cast<testing::Int128>(100000000000000000LL) * 1000;  // 10^20
  auto batch = Batch({testing::ListOfLengths(
      "d", testing::Decimal("", 128, 38, 2, {1, std::nullopt, -129, big}), {4})});
  ExpectRows(batch, {"0000000000000000 5000000010000000"  // 80 bytes
                     "0400000000000000 0200000000000000"
                     "0100000030000000"  // 1 byte at 48
                     "0000000000000000"  // null: no bytes at all
                     "0200000038000000"  // ff 7f at 56
                     "0900000040000000"  // 9 bytes at 64
                     "0100000000000000 ff7f000000000000"
                     "056bc75e2d631000 0000000000000000"});
}

TEST(NestedArrays, SmallDecimalAndTimestampElementsAreLongs) {
  auto batch = Batch({
      testing::ListOfLengths("d", testing::Decimal("", 128, 10, 2, {-5}), {1}),
      testing::ListOfLengths("t", Primitive<int64_t>("tss:UTC", "", {2}), {1}),
      testing::ListOfLengths("e", Primitive<int32_t>("tdD", "", {-1}), {1}),
  });
  ExpectRows(batch, {"0000000000000000 1800000020000000 1800000038000000 1800000050000000"
                     "0100000000000000 0000000000000000 fbffffffffffffff"
                     "0100000000000000 0000000000000000 80841e0000000000"     // 2 s = 2000000 us
                     "0100000000000000 0000000000000000 ffffffff00000000"});  // date: 4 bytes
}

TEST(NestedArrays, CalendarIntervalElements) {
  auto batch = Batch({testing::ListOfLengths(
      "v", testing::MonthDayNano("", {testing::MonthDayNanoValue{1, 2, -1}, std::nullopt}), {2})});
  ExpectRows(batch, {"0000000000000000 3000000010000000"  // 48 bytes
                     "0200000000000000 0200000000000000"
                     "1000000020000000 0000000000000000"  // 16 bytes at 32; null: none
                     "0100000002000000 0000000000000000"});
}

TEST(NestedArrays, LargeListFixedSizeListAndListView) {
  TestArray ints = Primitive<int16_t>("s", "", {1, 2, 3, 7, 7, 7, 4, std::nullopt, 6});
  auto batch = Batch({
      testing::List("large", Primitive<int16_t>("s", "", {1, 2, 3, 4, 6, 0}), {0, 3, 3, 5},
                    {true, false, true}, true),
      testing::FixedSizeList("fixed", 3, ints, {true, false, true}),
  });
  ExpectRows(batch, {
                        "0000000000000000 1800000018000000 1800000030000000"
                        "0300000000000000 0000000000000000 0100020003000000"
                        "0300000000000000 0000000000000000 0100020003000000",
                        "0300000000000000 0000000000000000 0000000000000000",  // both null
                        "0000000000000000 1800000018000000 1800000030000000"
                        "0200000000000000 0000000000000000 0400060000000000"
                        "0300000000000000 0200000000000000 0400000006000000",
                    });
}

TEST(NestedArrays, ListViewsOutOfOrderAndOverlapping) {
  TestArray values = Primitive<int32_t>("i", "", {10, 20, 30, 40, 50});
  // Views [3,+2), [0,+4), [1,+2), a null one pointing nowhere, [2,+0).
  auto batch = Batch({testing::ListView("v", values, {3, 0, 1, 99, 2}, {2, 4, 2, 99, 0},
                                        {true, true, true, false, true})});
  ExpectRows(batch, {
                        "0000000000000000 1800000010000000"
                        "0200000000000000 0000000000000000 2800000032000000",
                        "0000000000000000 2000000010000000"
                        "0400000000000000 0000000000000000 0a00000014000000 1e00000028000000",
                        "0000000000000000 1800000010000000"
                        "0200000000000000 0000000000000000 140000001e000000",
                        "0100000000000000 0000000000000000",
                        "0000000000000000 0800000010000000 0000000000000000",
                    });
  auto large = Batch({testing::ListView("v", values, {4, 3}, {1, 2}, {}, true)});
  ExpectRows(large, {
                        "0000000000000000 1800000010000000"
                        "0100000000000000 0000000000000000 3200000000000000",
                        "0000000000000000 1800000010000000"
                        "0200000000000000 0000000000000000 2800000032000000",
                    });
}

TEST(NestedArrays, ArraysOfArrays) {
  // [[1, 2], null, []] and null.
  TestArray inner =
      testing::ListOfLengths("", Primitive<int64_t>("l", "", {1, 2}), {2, std::nullopt, 0});
  auto batch = Batch({testing::ListOfLengths("a", inner, {3, std::nullopt})});
  ExpectRows(batch, {"0000000000000000 5000000010000000"  // 80 bytes
                     "0300000000000000 0200000000000000"
                     "2000000028000000 0000000000000000 0800000048000000"
                     "0200000000000000 0000000000000000 0100000000000000 0200000000000000"
                     "0000000000000000",
                     "0100000000000000 0000000000000000"});
}

}  // namespace
}  // namespace rowbridge
