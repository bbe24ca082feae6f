// Byte-exact rows for strings and binaries of every Arrow layout: offsets
// (32- and 64-bit), views (inline and in variadic buffers) and fixed-size
// binary. Variable data is padded with zero bytes to a multiple of 8; the
// slot holds (offset << 32) | size; an empty value has offset = the cursor.
#include <gtest/gtest.h>

#include "rowbridge/converter.hpp"
#include "support/row_test_util.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge {
namespace {

using testing::Batch;
using testing::Convert;
using testing::ExpectRows;
using testing::SparkSchemaOf;
using testing::TestArray;

const std::vector<std::optional<std::string>> kLengths = {
    "",
    "abcdefg",            // 7
    "abcdefgh",           // 8
    "abcdefghi",          // 9
    "abcdefghijkl",       // 12: the longest inline view
    "abcdefghijklm",      // 13: the shortest out-of-line view
    "abcdefghijklmnop",   // 16
    "abcdefghijklmnopq",  // 17
    std::nullopt,
};

// One column at slot 1: the variable region starts at byte 16 (0x10).
const std::vector<std::string> kLengthRows = {
    "0000000000000000"   // null bits
    "0000000010000000",  // "": offset 16, size 0; no bytes
    "0000000000000000"   //
    "0700000010000000"   // 7 bytes at 16
    "6162636465666700",  // "abcdefg" + 1 zero byte
    "0000000000000000"   //
    "0800000010000000"   // 8 bytes
    "6162636465666768",  // "abcdefgh", no padding
    "0000000000000000"   //
    "0900000010000000"   // 9 bytes
    "6162636465666768"   // "abcdefgh"
    "6900000000000000",  // "i" + 7 zero bytes
    "0000000000000000"   //
    "0c00000010000000"   // 12 bytes
    "6162636465666768"   //
    "696a6b6c00000000",  // "ijkl" + 4 zero bytes
    "0000000000000000"   //
    "0d00000010000000"   // 13 bytes
    "6162636465666768"   //
    "696a6b6c6d000000",  // "ijklm" + 3 zero bytes
    "0000000000000000"   //
    "1000000010000000"   // 16 bytes
    "6162636465666768"   //
    "696a6b6c6d6e6f70",  // "ijklmnop"
    "0000000000000000"   //
    "1100000010000000"   // 17 bytes
    "6162636465666768"   //
    "696a6b6c6d6e6f70"   //
    "7100000000000000",  // "q" + 7 zero bytes
    "0100000000000000"   // null bits: the column
    "0000000000000000",  // null: zero slot, no bytes
};

TEST(FlatBinary, Utf8Lengths) {
  auto batch = Batch({testing::Strings("u", "s", kLengths)});
  EXPECT_EQ(SparkSchemaOf(batch), "struct<s:string>");
  ExpectRows(batch, kLengthRows);
}

TEST(FlatBinary, LargeUtf8Lengths) {
  auto batch = Batch({testing::Strings("U", "s", kLengths)});
  EXPECT_EQ(SparkSchemaOf(batch), "struct<s:string>");
  ExpectRows(batch, kLengthRows);
}

TEST(FlatBinary, BinaryLengths) {
  auto batch = Batch({testing::Strings("z", "s", kLengths)});
  EXPECT_EQ(SparkSchemaOf(batch), "struct<s:binary>");
  ExpectRows(batch, kLengthRows);
}

TEST(FlatBinary, LargeBinaryLengths) {
  auto batch = Batch({testing::Strings("Z", "s", kLengths)});
  EXPECT_EQ(SparkSchemaOf(batch), "struct<s:binary>");
  ExpectRows(batch, kLengthRows);
}

TEST(FlatBinary, Utf8ViewLengths) {
  // 20-byte data buffers: each out-of-line value lands in a buffer of its own.
  auto batch = Batch({testing::Views("vu", "s", kLengths, 20)});
  ASSERT_EQ(batch.children[0].buffers.size(), 2u + 3u + 1u);  // validity, views, 3 data, sizes
  EXPECT_EQ(SparkSchemaOf(batch), "struct<s:string>");
  ExpectRows(batch, kLengthRows);
}

TEST(FlatBinary, BinaryViewLengthsInOneSharedBuffer) {
  auto batch = Batch({testing::Views("vz", "s", kLengths, 1024)});
  ASSERT_EQ(batch.children[0].buffers.size(), 2u + 1u + 1u);
  EXPECT_EQ(SparkSchemaOf(batch), "struct<s:binary>");
  ExpectRows(batch, kLengthRows);
}

TEST(FlatBinary, ViewsWithoutAnyDataBuffer) {
  auto batch = Batch({testing::Views("vu", "s", {"short", std::nullopt, ""})});
  ASSERT_EQ(batch.children[0].buffers.size(), 3u);  // validity, views, sizes
  ExpectRows(batch, {
                        "0000000000000000 0500000010000000 73686f7274000000",  // "short"
                        "0100000000000000 0000000000000000",                   // null
                        "0000000000000000 0000000010000000",                   // "" at the cursor
                    });
}

TEST(FlatBinary, FixedSizeBinary) {
  auto batch =
      Batch({testing::FixedSizeBinary("f", 9, {"abcdefghi", std::nullopt, std::string(9, '\0')})});
  EXPECT_EQ(SparkSchemaOf(batch), "struct<f:binary>");
  ExpectRows(batch, {
                        "0000000000000000"   // null bits
                        "0900000010000000"   // 9 bytes at 16
                        "6162636465666768"   // "abcdefgh"
                        "6900000000000000",  // "i" + padding
                        "0100000000000000"   // null bits: f
                        "0000000000000000",  // null
                        "0000000000000000"   //
                        "0900000010000000"   // nine zero bytes are a value, not a null
                        "0000000000000000"   //
                        "0000000000000000",  //
                    });
}

TEST(FlatBinary, FixedSizeBinaryOfWidthZero) {
  auto batch = Batch({testing::FixedSizeBinary("f", 0, {"", std::nullopt})});
  ExpectRows(batch, {
                        "0000000000000000 0000000010000000",  // empty value: offset 16, size 0
                        "0100000000000000 0000000000000000",  // null
                    });
}

TEST(FlatBinary, ArbitraryBytesAreCopiedVerbatim) {
  std::string bytes("\x00\xff\x80\x7f", 4);
  auto batch =
      Batch({testing::Strings("z", "b", {bytes}), testing::Strings("u", "s", {"\xc3\xa9"})});
  ExpectRows(batch, {
                        "0000000000000000"   // null bits
                        "0400000018000000"   // b: 4 bytes at 24
                        "0200000020000000"   // s: 2 bytes at 32
                        "00ff807f00000000"   // b's bytes
                        "c3a9000000000000",  // "é" in UTF-8
                    });
}

TEST(FlatBinary, VariableRegionFollowsFieldOrder) {
  auto batch = Batch({testing::Strings("u", "a", {"abc", std::nullopt}),
                      testing::Primitive<int32_t>("i", "b", {1, 2}),
                      testing::Strings("z", "c", {"abcdefghi", "xy"})});
  ExpectRows(batch, {
                        "0000000000000000"   // null bits
                        "0300000020000000"   // a: 3 bytes at 32
                        "0100000000000000"   // b = 1
                        "0900000028000000"   // c: 9 bytes at 40
                        "6162630000000000"   // "abc"
                        "6162636465666768"   // "abcdefgh"
                        "6900000000000000",  // "i"
                        "0100000000000000"   // null bits: a
                        "0000000000000000"   // a null
                        "0200000000000000"   // b = 2
                        "0200000020000000"   // c: 2 bytes at 32 (a took none)
                        "7879000000000000",  // "xy"
                    });
}

// A converter reuses its output buffer: padding, null slots, null bits and
// reserved decimal bytes must be rewritten, not inherited from an earlier batch.
TEST(FlatBinary, ReusedBuffersNeverLeakEarlierBytes) {
  auto schema_of = [](std::vector<std::optional<std::string>> s,
                      std::vector<std::optional<int64_t>> l,
                      std::vector<std::optional<testing::Int128>> d) {
    return Batch({testing::Strings("u", "s", s), testing::Primitive<int64_t>("l", "l", l),
                  testing::Decimal("d", 128, 38, 0, d)});
  };
  std::string filler(31, '\xff');
  auto dirty = schema_of({filler, filler, filler}, {-1, -1, -1}, {-1, -1, -1});
  auto clean =
      schema_of({"a", std::nullopt, ""}, {std::nullopt, 5, std::nullopt}, {std::nullopt, 1, 2});
  auto dirty_export = testing::ExportBatch(dirty);
  auto clean_export = testing::ExportBatch(clean);
  std::unique_ptr<Converter> converter;
  ASSERT_TRUE(Converter::Make(dirty_export->schema.schema, {}, &converter).ok());
  ASSERT_TRUE(testing::Drain(*converter, dirty_export->array.array).status.ok());
  testing::Conversion reused = testing::Drain(*converter, clean_export->array.array);
  ASSERT_TRUE(reused.status.ok()) << reused.status.message();
  const std::vector<std::string> expected = {
      "0600000000000000"   // null bits: l (bit 1), d (bit 2)
      "0100000020000000"   // s: 1 byte at 32
      "0000000000000000"   // l null
      "0000000028000000"   // d null: offset 40, size 0
      "6100000000000000"   // "a" + zero padding
      "0000000000000000"   // d: 16 zero bytes
      "0000000000000000",  //
      "0100000000000000"   // null bits: s
      "0000000000000000"   // s null
      "0500000000000000"   // l = 5
      "0100000020000000"   // d: 1 byte at 32
      "0100000000000000"   // d = 01
      "0000000000000000",  //
      "0200000000000000"   // null bits: l
      "0000000020000000"   // s: empty at 32
      "0000000000000000"   // l null
      "0100000020000000"   // d: 1 byte at 32
      "0200000000000000"   // d = 02
      "0000000000000000",  //
  };
  ASSERT_EQ(reused.rows.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(testing::Hex(reused.rows[i]), testing::CleanHex(expected[i])) << "row " << i;
  }
}

}  // namespace
}  // namespace rowbridge
