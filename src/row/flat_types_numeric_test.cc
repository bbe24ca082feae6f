// Byte-exact rows for booleans, integers, unsigned widening, uint64 as
// decimal(20,0), floats, the null type, and the row layout itself (bitset
// words, 0 and 1 rows, more than 64 columns). Every expected row is written
// by hand from CONTRACTS.md §3, one 8-byte word per line, little-endian.
#include <gtest/gtest.h>

#include <bit>
#include <cstdlib>
#include <limits>

#include "rowbridge/converter.hpp"
#include "support/row_test_util.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge {
namespace {

using testing::Batch;
using testing::Convert;
using testing::ExpectRows;
using testing::Primitive;
using testing::SparkSchemaOf;

TEST(FlatNumeric, Boolean) {
  auto batch = Batch({testing::Bool("b", {true, false, std::nullopt, true})});
  EXPECT_EQ(SparkSchemaOf(batch), "struct<b:boolean>");
  ExpectRows(batch, {
                        "0000000000000000"   // null bits: none
                        "0100000000000000",  // b = true: one byte 01
                        "0000000000000000"   // null bits: none
                        "0000000000000000",  // b = false
                        "0100000000000000"   // null bits: b
                        "0000000000000000",  // null slot is zero
                        "0000000000000000"   // null bits: none
                        "0100000000000000",  // b = true
                    });
}

TEST(FlatNumeric, Int8ZeroExtended) {
  auto batch = Batch({Primitive<int8_t>("c", "a", {0, 1, -1, 127, -128, std::nullopt})});
  EXPECT_EQ(SparkSchemaOf(batch), "struct<a:tinyint>");
  ExpectRows(batch, {
                        "0000000000000000 0000000000000000",  // 0
                        "0000000000000000 0100000000000000",  // 1
                        "0000000000000000 ff00000000000000",  // -1: one byte ff, then zeros
                        "0000000000000000 7f00000000000000",  // 127
                        "0000000000000000 8000000000000000",  // -128
                        "0100000000000000 0000000000000000",  // null: bit 0, zero slot
                    });
}

TEST(FlatNumeric, Int16ZeroExtended) {
  auto batch = Batch({Primitive<int16_t>("s", "a", {-1, 0x1234, -32768, 32767, std::nullopt})});
  EXPECT_EQ(SparkSchemaOf(batch), "struct<a:smallint>");
  ExpectRows(batch, {
                        "0000000000000000 ffff000000000000",  // -1: two bytes ff ff
                        "0000000000000000 3412000000000000",  // 0x1234 little-endian
                        "0000000000000000 0080000000000000",  // -32768 = 0x8000
                        "0000000000000000 ff7f000000000000",  // 32767 = 0x7fff
                        "0100000000000000 0000000000000000",  // null
                    });
}

TEST(FlatNumeric, Int32ZeroExtended) {
  auto batch = Batch({Primitive<int32_t>(
      "i", "a", {-1, std::numeric_limits<int32_t>::min(), 0x01020304, std::nullopt, 0})});
  EXPECT_EQ(SparkSchemaOf(batch), "struct<a:int>");
  ExpectRows(batch, {
                        "0000000000000000 ffffffff00000000",  // -1: ff ff ff ff 00 00 00 00
                        "0000000000000000 0000008000000000",  // INT32_MIN = 0x80000000
                        "0000000000000000 0403020100000000",  // 0x01020304
                        "0100000000000000 0000000000000000",  // null
                        "0000000000000000 0000000000000000",  // 0
                    });
}

TEST(FlatNumeric, Int64) {
  auto batch = Batch({Primitive<int64_t>(
      "l", "a",
      {-1, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(),
       0x0102030405060708, std::nullopt})});
  EXPECT_EQ(SparkSchemaOf(batch), "struct<a:bigint>");
  ExpectRows(batch, {
                        "0000000000000000 ffffffffffffffff",  // -1
                        "0000000000000000 0000000000000080",  // INT64_MIN
                        "0000000000000000 ffffffffffffff7f",  // INT64_MAX
                        "0000000000000000 0807060504030201",  // 0x0102030405060708
                        "0100000000000000 0000000000000000",  // null
                    });
}

TEST(FlatNumeric, UnsignedIntegersWiden) {
  auto batch = Batch({
      Primitive<uint8_t>("C", "u8", {255, 128, std::nullopt}),
      Primitive<uint16_t>("S", "u16", {65535, 32768, 1}),
      Primitive<uint32_t>("I", "u32", {4294967295u, 2147483648u, std::nullopt}),
  });
  EXPECT_EQ(SparkSchemaOf(batch), "struct<u8:smallint,u16:int,u32:bigint>");
  ExpectRows(batch, {
                        "0000000000000000"   // null bits: none
                        "ff00000000000000"   // u8 255 as short 0x00ff
                        "ffff000000000000"   // u16 65535 as int 0x0000ffff
                        "ffffffff00000000",  // u32 4294967295 as long 0x00000000ffffffff
                        "0000000000000000"   // null bits: none
                        "8000000000000000"   // u8 128 (not -128)
                        "0080000000000000"   // u16 32768 (not -32768)
                        "0000008000000000",  // u32 2^31 (positive long)
                        "0500000000000000"   // null bits: u8 (bit 0) and u32 (bit 2)
                        "0000000000000000"   // u8 null
                        "0100000000000000"   // u16 1
                        "0000000000000000",  // u32 null
                    });
}

TEST(FlatNumeric, UInt64IsDecimal20) {
  auto batch = Batch({Primitive<uint64_t>(
      "L", "u", {18446744073709551615ull, 0, 127, 128, 9223372036854775808ull, std::nullopt})});
  EXPECT_EQ(SparkSchemaOf(batch), "struct<u:decimal(20,0)>");
  // Slot = (16 << 32) | length: the variable region starts after bitset and slot.
  ExpectRows(batch, {
                        "0000000000000000"   // null bits
                        "0900000010000000"   // offset 16, 9 bytes
                        "00ffffffffffffff"   // 2^64-1 = 00 ff ff ff ff ff ff ff ff
                        "ff00000000000000",  // last byte, then zero padding of the 16
                        "0000000000000000"   // null bits
                        "0100000010000000"   // offset 16, 1 byte
                        "0000000000000000"   // 0 is the single byte 00
                        "0000000000000000",  //
                        "0000000000000000"   // null bits
                        "0100000010000000"   // 1 byte
                        "7f00000000000000"   // 127 = 7f
                        "0000000000000000",  //
                        "0000000000000000"   // null bits
                        "0200000010000000"   // 2 bytes
                        "0080000000000000"   // 128 = 00 80
                        "0000000000000000",  //
                        "0000000000000000"   // null bits
                        "0900000010000000"   // 9 bytes
                        "0080000000000000"   // 2^63 = 00 80 00 00 00 00 00 00 00
                        "0000000000000000",  //
                        "0100000000000000"   // null bits: u
                        "0000000010000000"   // offset 16, length 0
                        "0000000000000000"   // 16 reserved bytes, zero
                        "0000000000000000",  //
                    });
}

TEST(FlatNumeric, Float32KeepsRawBits) {
  auto batch = Batch({Primitive<uint32_t>("f", "f",
                                          {0x3f800000u, 0x80000000u, 0x7fc00001u, 0x7f800000u,
                                           0xff800000u, 0x7f800001u, 0xffc00000u, std::nullopt})});
  EXPECT_EQ(SparkSchemaOf(batch), "struct<f:float>");
  ExpectRows(batch, {
                        "0000000000000000 0000803f00000000",  // 1.0f
                        "0000000000000000 0000008000000000",  // -0.0f
                        "0000000000000000 0100c07f00000000",  // NaN payload 0x7fc00001
                        "0000000000000000 0000807f00000000",  // +inf
                        "0000000000000000 000080ff00000000",  // -inf
                        "0000000000000000 0100807f00000000",  // signalling NaN 0x7f800001
                        "0000000000000000 0000c0ff00000000",  // negative quiet NaN
                        "0100000000000000 0000000000000000",  // null
                    });
}

TEST(FlatNumeric, Float64KeepsRawBits) {
  auto batch = Batch({Primitive<uint64_t>(
      "g", "d",
      {0x3ff8000000000000ull, 0x8000000000000000ull, 0xfff8000000000001ull, 0x7ff0000000000000ull,
       0xfff0000000000000ull, 0x7ff0000000000001ull, 0x0000000000000001ull, std::nullopt})});
  EXPECT_EQ(SparkSchemaOf(batch), "struct<d:double>");
  ExpectRows(batch, {
                        "0000000000000000 000000000000f83f",  // 1.5
                        "0000000000000000 0000000000000080",  // -0.0
                        "0000000000000000 010000000000f8ff",  // NaN 0xfff8000000000001
                        "0000000000000000 000000000000f07f",  // +inf
                        "0000000000000000 000000000000f0ff",  // -inf
                        "0000000000000000 010000000000f07f",  // signalling NaN
                        "0000000000000000 0100000000000000",  // smallest subnormal
                        "0100000000000000 0000000000000000",  // null
                    });
}

TEST(FlatNumeric, NullType) {
  auto batch = Batch({Primitive<int32_t>("i", "a", {7, 8}), testing::Nulls("n", 2)});
  EXPECT_EQ(SparkSchemaOf(batch), "struct<a:int,n:void>");
  ExpectRows(batch, {
                        "0200000000000000"   // null bits: n (bit 1)
                        "0700000000000000"   // a = 7
                        "0000000000000000",  // n: slot 0
                        "0200000000000000"   // null bits: n
                        "0800000000000000"   // a = 8
                        "0000000000000000",  // n: slot 0
                    });
}

TEST(FlatLayout, ZeroRows) {
  auto batch = Batch({Primitive<int64_t>("l", "a", {}), testing::Strings("u", "s", {})});
  auto exported = testing::ExportBatch(batch);
  std::unique_ptr<Converter> converter;
  ASSERT_TRUE(Converter::Make(exported->schema.schema, {}, &converter).ok());
  RowBatchView view;
  Status status = converter->Convert(exported->array.array, &view);
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(view.num_rows, 0);
  EXPECT_EQ(view.first_row, 0);
  EXPECT_EQ(view.data_size, 0);
  ASSERT_NE(view.row_offsets, nullptr);
  EXPECT_EQ(view.row_offsets[0], 0);
  EXPECT_FALSE(converter->HasMoreChunks());
  ASSERT_TRUE(converter->NextChunk(&view).ok());
  EXPECT_EQ(view.num_rows, 0);
}

TEST(FlatLayout, OneRow) {
  auto batch = Batch({Primitive<int64_t>("l", "a", {42}), testing::Strings("u", "s", {"hello"})});
  ExpectRows(batch, {
                        "0000000000000000"   // null bits
                        "2a00000000000000"   // a = 42
                        "0500000018000000"   // s: offset 24, 5 bytes
                        "68656c6c6f000000",  // "hello" + 3 zero bytes of padding
                    });
}

// A record batch without columns has rows of zero bytes (Spark's UnsafeRow of
// an empty struct). Run in a child process: a crash must fail only this test.
TEST(FlatLayout, ZeroColumnsGiveEmptyRows) {
  auto run = [] {
    auto batch = Batch({});
    batch.length = 3;
    testing::Conversion conversion = Convert(batch);
    bool ok = conversion.status.ok() && conversion.rows.size() == 3;
    for (const auto& row : conversion.rows) ok = ok && row.empty();
    std::exit(ok ? 0 : 1);
  };
  EXPECT_EXIT(run(), ::testing::ExitedWithCode(0), "");
}

TEST(FlatLayout, SeventyColumnsUseTwoBitsetWords) {
  std::vector<testing::TestArray> columns;
  for (int j = 0; j < 70; ++j) {
    bool null_in_row1 = j == 1 || j == 64 || j == 69;
    columns.push_back(Primitive<int32_t>(
        "i", "c" + std::to_string(j),
        {j, null_in_row1 ? std::optional<int32_t>() : std::optional<int32_t>(-j)}));
  }
  testing::Conversion conversion = Convert(Batch(columns));
  ASSERT_TRUE(conversion.status.ok()) << conversion.status.message();
  ASSERT_EQ(conversion.rows.size(), 2u);
  auto word = [&](size_t row, size_t index) {
    return testing::Hex(conversion.rows[row].data() + 8 * index, 8);
  };
  ASSERT_EQ(conversion.rows[0].size(), 16u + 70 * 8);  // two bitset words, 70 slots
  ASSERT_EQ(conversion.rows[1].size(), 16u + 70 * 8);
  EXPECT_EQ(word(0, 0), "0000000000000000");  // row 0: no nulls
  EXPECT_EQ(word(0, 1), "0000000000000000");
  EXPECT_EQ(word(0, 2), "0000000000000000");       // c0 = 0
  EXPECT_EQ(word(0, 3), "0100000000000000");       // c1 = 1
  EXPECT_EQ(word(0, 2 + 63), "3f00000000000000");  // c63 = 63
  EXPECT_EQ(word(0, 2 + 64), "4000000000000000");  // c64 = 64
  EXPECT_EQ(word(0, 2 + 69), "4500000000000000");  // c69 = 69
  EXPECT_EQ(word(1, 0), "0200000000000000");       // row 1: c1 null (word 0, bit 1)
  EXPECT_EQ(word(1, 1), "2100000000000000");       // c64 (bit 0) and c69 (bit 5) in word 1
  EXPECT_EQ(word(1, 3), "0000000000000000");       // c1 null: zero slot
  EXPECT_EQ(word(1, 4), "feffffff00000000");       // c2 = -2
  EXPECT_EQ(word(1, 2 + 63), "c1ffffff00000000");  // c63 = -63
  EXPECT_EQ(word(1, 2 + 64), "0000000000000000");  // c64 null
  EXPECT_EQ(word(1, 2 + 65), "bfffffff00000000");  // c65 = -65
  EXPECT_EQ(word(1, 2 + 69), "0000000000000000");  // c69 null
}

TEST(FlatLayout, BitsetWordBoundaries) {
  // 64 columns: one word; 65: two; 129: three. The last column is null.
  for (int n : {63, 64, 65, 128, 129}) {
    std::vector<testing::TestArray> columns;
    for (int j = 0; j < n; ++j) {
      columns.push_back(Primitive<int8_t>(
          "c", "c" + std::to_string(j),
          {j == n - 1 ? std::optional<int8_t>() : std::optional<int8_t>(static_cast<int8_t>(j))}));
    }
    testing::Conversion conversion = Convert(Batch(columns));
    ASSERT_TRUE(conversion.status.ok()) << conversion.status.message();
    ASSERT_EQ(conversion.rows.size(), 1u);
    const testing::Bytes& row = conversion.rows[0];
    size_t words = static_cast<size_t>((n + 63) / 64);
    ASSERT_EQ(row.size(), 8 * words + 8 * static_cast<size_t>(n)) << n;
    for (size_t w = 0; w < words; ++w) {
      uint64_t expected =
          w == static_cast<size_t>((n - 1) / 64) ? uint64_t{1} << ((n - 1) % 64) : 0;
      uint64_t actual;
      std::memcpy(&actual, row.data() + 8 * w, 8);
      EXPECT_EQ(actual, expected) << n << " columns, word " << w;
    }
    // The slot of column n-2 holds n-2; the null column's slot is zero.
    EXPECT_EQ(row[8 * words + 8 * static_cast<size_t>(n - 2)], n - 2);
    EXPECT_EQ(testing::Hex(row.data() + 8 * words + 8 * static_cast<size_t>(n - 1), 8),
              "0000000000000000");
  }
}

}  // namespace
}  // namespace rowbridge
