// Dictionary-encoded and run-end encoded columns: byte-exact rows, every
// index and run-end type, nulls from indices and from values, and errors for
// indices outside the dictionary.
#include <gtest/gtest.h>

#include "rowbridge/converter.hpp"
#include "support/row_test_util.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge {
namespace {

using testing::Batch;
using testing::Convert;
using testing::Dictionary;
using testing::ExpectRows;
using testing::IsError;
using testing::Primitive;
using testing::RunEnd;
using testing::Strings;
using testing::TestArray;

/// An integer index column of Arrow `format` holding `values` (nullopt = null).
TestArray Indices(const std::string& format, const std::string& name,
                  const std::vector<std::optional<int64_t>>& values) {
  auto convert = [&](auto tag) {
    using T = decltype(tag);
    std::vector<std::optional<T>> typed;
    for (const auto& v : values)
      typed.push_back(v ? std::optional<T>(static_cast<T>(*v)) : std::nullopt);
    return Primitive<T>(format, name, typed);
  };
  if (format == "c") return convert(int8_t{});
  if (format == "C") return convert(uint8_t{});
  if (format == "s") return convert(int16_t{});
  if (format == "S") return convert(uint16_t{});
  if (format == "i") return convert(int32_t{});
  if (format == "I") return convert(uint32_t{});
  if (format == "l") return convert(int64_t{});
  return convert(uint64_t{});
}

TEST(DictionaryColumn, StringsWithNullIndicesAndNullValues) {
  auto values = Strings("u", "", {"apple", "b", std::nullopt, "cherry-long-value"});
  auto batch = Batch({Dictionary(Indices("c", "fruit", {0, 1, 2, std::nullopt, 3, 0}), values)});
  ExpectRows(batch, {
                        "0000000000000000"   // null bits
                        "0500000010000000"   // 5 bytes at 16
                        "6170706c65000000",  // "apple"
                        "0000000000000000"   //
                        "0100000010000000"   // 1 byte
                        "6200000000000000",  // "b"
                        "0100000000000000"   // null bits: a null dictionary value
                        "0000000000000000",  //
                        "0100000000000000"   // null bits: a null index
                        "0000000000000000",  //
                        "0000000000000000"   //
                        "1100000010000000"   // 17 bytes
                        "636865727279 2d6c"  // "cherry-l"
                        "6f6e672d76616c75"   // "ong-valu"
                        "6500000000000000",  // "e"
                        "0000000000000000"   //
                        "0500000010000000"   // "apple" again
                        "6170706c65000000",  //
                    });
}

TEST(DictionaryColumn, EveryIndexTypeOverInts) {
  for (const char* format : {"c", "C", "s", "S", "i", "I", "l", "L"}) {
    auto values = Primitive<int32_t>("i", "", {10, -20, std::nullopt});
    auto batch = Batch({Dictionary(Indices(format, "x", {2, 1, 0, std::nullopt, 1}), values)});
    SCOPED_TRACE(format);
    ExpectRows(batch, {
                          "0100000000000000 0000000000000000",  // index 2: null value
                          "0000000000000000 ecffffff00000000",  // index 1: -20
                          "0000000000000000 0a00000000000000",  // index 0: 10
                          "0100000000000000 0000000000000000",  // null index
                          "0000000000000000 ecffffff00000000",  // index 1: -20
                      });
  }
}

TEST(DictionaryColumn, LargeDecimalAndIntervalValues) {
  auto decimals = testing::Decimal("", 128, 38, 2, {-129, std::nullopt});
  auto batch = Batch({Dictionary(Indices("i", "d", {0, 1, 0}), decimals)});
  ExpectRows(batch,
             {
                 "0000000000000000 0200000010000000 ff7f000000000000 0000000000000000",  // -129
                 "0100000000000000 0000000010000000 0000000000000000 0000000000000000",  // null
                 "0000000000000000 0200000010000000 ff7f000000000000 0000000000000000",  // -129
             });
}

TEST(DictionaryColumn, IndexOutsideTheDictionaryIsInvalid) {
  auto values = Strings("u", "", {"a", "b", "c"});
  struct Case {
    const char* format;
    int64_t bad;
  };
  for (Case c : {Case{"c", 3}, Case{"c", -1}, Case{"C", 255}, Case{"s", -32768}, Case{"i", 1000},
                 Case{"I", 4294967295}, Case{"l", -9}, Case{"L", -1}}) {
    auto batch =
        Batch({Primitive<int64_t>("l", "ok", {1, 2, 3, 4}),
               Dictionary(Indices(c.format, "dict", {0, std::nullopt, c.bad, 1}), values)});
    for (Validation validation : {Validation::kCheap, Validation::kFull}) {
      ConverterOptions options;
      options.validation = validation;
      EXPECT_TRUE(
          IsError(Convert(batch, options).status, StatusCode::kInvalid, {"'dict'", "row 2"}))
          << c.format << " " << c.bad;
    }
  }
}

TEST(DictionaryColumn, GarbageIndexUnderANullIsIgnored) {
  auto values = Strings("u", "", {"a"});
  auto indices = Indices("i", "d", {0, std::nullopt});
  indices.buffers[1] = testing::ToBytes(std::vector<int32_t>{0, 123456});
  ExpectRows(Batch({Dictionary(indices, values)}),
             {"0000000000000000 0100000010000000 6100000000000000",  // "a"
              "0100000000000000 0000000000000000"});                 // null
}

TEST(DictionaryColumn, EmptyDictionaryWithAllNullIndices) {
  auto values = Strings("u", "", {});
  ExpectRows(Batch({Dictionary(Indices("s", "d", {std::nullopt, std::nullopt}), values)}),
             {"0100000000000000 0000000000000000", "0100000000000000 0000000000000000"});
}

TEST(DictionaryColumn, SlicedIndicesAndSlicedDictionary) {
  // Dictionary values "x", "apple", "b": sliced by one, so index 0 is "apple".
  auto values = testing::Slice(Strings("u", "", {"x", "apple", "b"}), 1, 2);
  auto indices = testing::Slice(Indices("i", "d", {5, 5, 5, 1, std::nullopt, 0}), 3, 3);
  ExpectRows(Batch({Dictionary(indices, values)}),
             {"0000000000000000 0100000010000000 6200000000000000",    // index 1: "b"
              "0100000000000000 0000000000000000",                     // null
              "0000000000000000 0500000010000000 6170706c65000000"});  // index 0: "apple"
}

TEST(RunEndColumn, EveryRunEndTypeOverStrings) {
  for (const char* format : {"s", "i", "l"}) {
    auto ends = Indices(format, "run_ends", {2, 3, 6});
    auto values = Strings("u", "values", {"aa", std::nullopt, "cc"});
    auto batch = Batch({RunEnd("r", 6, ends, values)});
    SCOPED_TRACE(format);
    ExpectRows(batch, {
                          "0000000000000000 0200000010000000 6161000000000000",  // "aa"
                          "0000000000000000 0200000010000000 6161000000000000",  // "aa"
                          "0100000000000000 0000000000000000",                   // null run
                          "0000000000000000 0200000010000000 6363000000000000",  // "cc"
                          "0000000000000000 0200000010000000 6363000000000000",  // "cc"
                          "0000000000000000 0200000010000000 6363000000000000",  // "cc"
                      });
  }
}

TEST(RunEndColumn, IntsAndSpark) {
  auto batch = Batch({RunEnd("r", 6, Indices("i", "", {2, 3, 6}),
                             Primitive<int64_t>("l", "", {7, std::nullopt, -1}))});
  auto exported = testing::ExportBatch(batch);
  std::unique_ptr<Converter> converter;
  ASSERT_TRUE(Converter::Make(exported->schema.schema, {}, &converter).ok());
  EXPECT_EQ(converter->plan().spark_schema().ToString(), "struct<r:bigint>");
  ExpectRows(batch, {
                        "0000000000000000 0700000000000000",  // 7
                        "0000000000000000 0700000000000000",  // 7
                        "0100000000000000 0000000000000000",  // null
                        "0000000000000000 ffffffffffffffff",  // -1
                        "0000000000000000 ffffffffffffffff",  // -1
                        "0000000000000000 ffffffffffffffff",  // -1
                    });
}

TEST(RunEndColumn, SlicedParent) {
  auto full =
      RunEnd("r", 6, Indices("i", "", {2, 3, 6}), Strings("u", "", {"aa", std::nullopt, "cc"}));
  ExpectRows(Batch({testing::Slice(full, 1, 4)}),
             {
                 "0000000000000000 0200000010000000 6161000000000000",  // logical 1: "aa"
                 "0100000000000000 0000000000000000",                   // logical 2: null
                 "0000000000000000 0200000010000000 6363000000000000",  // logical 3: "cc"
                 "0000000000000000 0200000010000000 6363000000000000",  // logical 4: "cc"
             });
}

TEST(RunEndColumn, SlicedChildren) {
  auto ends = testing::Slice(Indices("i", "", {99, 2, 3, 6}), 1, 3);
  auto values = testing::Slice(Strings("u", "", {"zz", "aa", std::nullopt, "cc"}), 1, 3);
  ExpectRows(Batch({RunEnd("r", 6, ends, values)}),
             {
                 "0000000000000000 0200000010000000 6161000000000000",  // "aa"
                 "0000000000000000 0200000010000000 6161000000000000",  // "aa"
                 "0100000000000000 0000000000000000",                   // null
                 "0000000000000000 0200000010000000 6363000000000000",  // "cc"
                 "0000000000000000 0200000010000000 6363000000000000",  // "cc"
                 "0000000000000000 0200000010000000 6363000000000000",  // "cc"
             });
}

TEST(RunEndColumn, OneRunOfCalendarIntervals) {
  auto values = testing::MonthDayNano("", {testing::MonthDayNanoValue{1, 2, 3000}});
  ExpectRows(Batch({RunEnd("iv", 2, Indices("s", "", {2}), values)}),
             {
                 "0000000000000000 1000000010000000 0100000002000000 0300000000000000",
                 "0000000000000000 1000000010000000 0100000002000000 0300000000000000",
             });
}

TEST(RunEndColumn, DictionaryAndRunEndTogetherInABatch) {
  auto batch = Batch({
      RunEnd("r", 3, Indices("l", "", {1, 3}), Primitive<int8_t>("c", "", {-1, 5})),
      Dictionary(Indices("S", "d", {1, 0, 1}), Primitive<int16_t>("s", "", {300, std::nullopt})),
      Primitive<int32_t>("i", "p", {1, std::nullopt, 3}),
  });
  ExpectRows(batch, {
                        "0200000000000000"   // null bits: d (bit 1)
                        "ff00000000000000"   // r = -1 (byte)
                        "0000000000000000"   // d null (dictionary value null)
                        "0100000000000000",  // p = 1
                        "0400000000000000"   // null bits: p
                        "0500000000000000"   // r = 5
                        "2c01000000000000"   // d = 300
                        "0000000000000000",  // p null
                        "0200000000000000"   // null bits: d
                        "0500000000000000"   // r = 5
                        "0000000000000000"   // d null
                        "0300000000000000",  // p = 3
                    });
}

}  // namespace
}  // namespace rowbridge
