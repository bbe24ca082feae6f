// Nested columns whose levels are sliced (offsets at every level),
// dictionary-encoded or run-end encoded, and null parents whose children
// hold garbage that must never reach the rows. Expected rows are written by
// hand, one 8-byte word per string, little-endian.
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

ConverterOptions Full() {
  ConverterOptions options = testing::TestConverterOptions();
  options.validation = Validation::kFull;
  return options;
}

TEST(NestedSlicing, SlicedListOverSlicedChild) {
  // Logical child values 0..9 behind two values of padding.
  TestArray values =
      testing::Slice(Primitive<int32_t>("i", "", {100, 101, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9}), 2, 10);
  TestArray lists = testing::List("l", values, {2, 4, 4, 7, 10});  // [2,3] [] [4,5,6] [7,8,9]
  std::vector<std::string> expected = {
      "0000000000000000 0800000010000000 0000000000000000",
      "0000000000000000 2000000010000000"
      "0300000000000000 0000000000000000 0400000005000000 0600000000000000",
  };
  ExpectRows(Batch({testing::Slice(lists, 1, 2)}), expected);
  ExpectRows(Batch({testing::Slice(lists, 1, 2)}), expected, Full());
  // The same rows through a sliced batch.
  ExpectRows(testing::Slice(Batch({lists}), 1, 2), expected);
}

TEST(NestedSlicing, SlicedStructOverSlicedFields) {
  TestArray a = testing::Slice(Primitive<int64_t>("l", "a", {9, 1, 2, 3, 4}), 1, 4);
  TestArray b = Strings("u", "b", {"p", "q", "r", "s"});
  TestArray s = testing::Slice(testing::Struct("s", 4, {a, b}, {true, true, false, true}), 2, 2);
  ExpectRows(Batch({s}), {
                             "0100000000000000 0000000000000000",
                             "0000000000000000 2000000010000000"
                             "0000000000000000 0400000000000000 0100000018000000 7300000000000000",
                         });
}

TEST(NestedSlicing, SlicedMapAndEntries) {
  TestArray keys = testing::Slice(Primitive<int32_t>("i", "", {-1, 10, 20, 30}), 1, 3);
  TestArray values = testing::Slice(Primitive<int8_t>("c", "", {-1, -1, 1, 2, 3}), 2, 3);
  TestArray map = testing::Map("m", keys, values, {0, 1, 2});
  // An offset on the entries struct itself: entry e is key and value 1 + e.
  map.children[0] = testing::Slice(map.children[0], 1, 2);
  ExpectRows(Batch({testing::Slice(map, 1, 1)}),
             {"0000000000000000 3800000010000000"                                    // 56 bytes
              "1800000000000000 0100000000000000 0000000000000000 1e00000000000000"  // key 30
              "0100000000000000 0000000000000000 0300000000000000"});                // value 3
}

TEST(NestedEncoding, DictionaryEncodedElements) {
  TestArray elements = testing::Dictionary(Primitive<int8_t>("c", "", {1, 0, std::nullopt, 1}),
                                           Strings("u", "", {"aa", "b"}));
  auto batch = Batch({testing::ListOfLengths("l", elements, {3, 1})});
  ExpectRows(batch, {
                        "0000000000000000 3800000010000000"
                        "0300000000000000 0400000000000000 0100000028000000 0200000030000000"
                        "0000000000000000 6200000000000000 6161000000000000",
                        "0000000000000000 2000000010000000"
                        "0100000000000000 0000000000000000 0100000018000000 6200000000000000",
                    });
}

TEST(NestedEncoding, RunEndEncodedElements) {
  // Logical values 7 7 7 null 9.
  TestArray ree = testing::RunEnd("", 5, Primitive<int32_t>("i", "", {3, 4, 5}),
                                  Primitive<int64_t>("l", "", {7, std::nullopt, 9}));
  auto batch = Batch({testing::ListOfLengths("l", ree, {2, 3})});
  std::vector<std::string> expected = {
      "0000000000000000 2000000010000000"
      "0200000000000000 0000000000000000 0700000000000000 0700000000000000",
      "0000000000000000 2800000010000000"
      "0300000000000000 0200000000000000 0700000000000000 0000000000000000 0900000000000000",
  };
  ExpectRows(batch, expected);
  ExpectRows(batch, expected, Full());
}

TEST(NestedEncoding, EncodedStructFields) {
  TestArray dictionary = testing::Dictionary(Primitive<int32_t>("i", "d", {2, std::nullopt, 0}),
                                             Strings("u", "", {"x", "yy", "zzz"}));
  TestArray ree = testing::RunEnd("r", 3, Primitive<int16_t>("s", "", {1, 3}),
                                  Primitive<int32_t>("i", "", {5, 6}));
  auto batch = Batch({testing::Struct("s", 3, {dictionary, ree}, {true, false, true})});
  ExpectRows(batch, {
                        "0000000000000000 2000000010000000"
                        "0000000000000000 0300000018000000 0500000000000000 7a7a7a0000000000",
                        "0100000000000000 0000000000000000",
                        "0000000000000000 2000000010000000"
                        "0000000000000000 0100000018000000 0600000000000000 7800000000000000",
                    });
}

TEST(NestedEncoding, DictionaryEncodedStructColumn) {
  TestArray structs = testing::Struct("", 2, {Primitive<int32_t>("i", "a", {1, 2})});
  auto batch =
      Batch({testing::Dictionary(Primitive<int32_t>("i", "s", {1, std::nullopt, 0}), structs)});
  ExpectRows(batch, {
                        "0000000000000000 1000000010000000 0000000000000000 0200000000000000",
                        "0100000000000000 0000000000000000",
                        "0000000000000000 1000000010000000 0000000000000000 0100000000000000",
                    });
}

TEST(NestedEncoding, RunEndEncodedListColumn) {
  TestArray lists =
      testing::ListOfLengths("", Primitive<int16_t>("s", "", {4, 5}), {2, std::nullopt});
  auto batch = Batch({testing::RunEnd("l", 3, Primitive<int32_t>("i", "", {2, 3}), lists)});
  ExpectRows(
      batch,
      {
          "0000000000000000 1800000010000000 0200000000000000 0000000000000000 0400050000000000",
          "0000000000000000 1800000010000000 0200000000000000 0000000000000000 0400050000000000",
          "0100000000000000 0000000000000000",
      });
}

TEST(NestedGarbage, NullStructsHideTheirFieldsGarbage) {
  // The null struct's string has a negative length; cheap validation never
  // reads it, since only valid structs' fields are read.
  TestArray b = Strings("u", "b", {"zz", "ok", "xy"});
  int32_t offsets[] = {9, 2, 4, 6};
  std::memcpy(b.buffers[1]->data(), offsets, sizeof(offsets));
  TestArray s = testing::Struct("s", 3, {Primitive<int64_t>("l", "a", {0x5a5a5a5a, 1, 3}), b},
                                {false, true, true});
  ExpectRows(Batch({s}), {
                             "0100000000000000 0000000000000000",
                             "0000000000000000 2000000010000000"
                             "0000000000000000 0100000000000000 0200000018000000 6f6b000000000000",
                             "0000000000000000 2000000010000000"
                             "0000000000000000 0300000000000000 0200000018000000 7879000000000000",
                         });
}

TEST(NestedGarbage, NullListsHideTheirElements) {
  // List 1 is null over elements 2..4, whose values are garbage; list 3 is
  // null past the end of the child (cheap validation never looks).
  TestArray values = Primitive<int32_t>("i", "", {1, 2, 0x5a5a5a5a, 0x5a5a5a5a, 0x5a5a5a5a, 6});
  TestArray lists = testing::List("l", values, {0, 2, 5, 6, 900}, {true, false, true, false});
  std::vector<std::string> expected = {
      "0000000000000000 1800000010000000 0200000000000000 0000000000000000 0100000002000000",
      "0100000000000000 0000000000000000",
      "0000000000000000 1800000010000000 0100000000000000 0000000000000000 0600000000000000",
      "0100000000000000 0000000000000000",
  };
  ExpectRows(Batch({lists}), expected);
  testing::Conversion full = testing::Convert(Batch({lists}), Full());
  EXPECT_TRUE(testing::IsError(full.status, StatusCode::kInvalid, {"'l'"}))
      << full.status.message();
  // Within the child, the same garbage converts at both levels.
  lists = testing::List("l", values, {0, 2, 5, 6, 6}, {true, false, true, false});
  ExpectRows(Batch({lists}), expected, Full());
}

TEST(NestedGarbage, NullMapsAndNullDictionaryIndices) {
  TestArray keys =
      testing::Dictionary(Primitive<int8_t>("c", "", {0, 100, 1}), Strings("u", "", {"a", "b"}));
  TestArray map = testing::Map("m", keys, Primitive<int64_t>("l", "", {1, 2, 3}), {0, 1, 2, 3},
                               {true, false, true});
  ExpectRows(Batch({map}), {
                               "0000000000000000 4000000010000000"
                               "2000000000000000"
                               "0100000000000000 0000000000000000 0100000018000000 6100000000000000"
                               "0100000000000000 0000000000000000 0100000000000000",
                               "0100000000000000 0000000000000000",
                               "0000000000000000 4000000010000000"
                               "2000000000000000"
                               "0100000000000000 0000000000000000 0100000018000000 6200000000000000"
                               "0100000000000000 0000000000000000 0300000000000000",
                           });
}

}  // namespace
}  // namespace rowbridge
