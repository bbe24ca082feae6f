// Byte-exact rows for decimals: precision <= 18 as a long in the slot (from
// decimal32/64/128/256), precision 19..38 as the minimal big-endian two's
// complement in 16 reserved bytes, and precision overflow errors.
#include <gtest/gtest.h>

#include "rowbridge/converter.hpp"
#include "support/row_test_util.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge {
namespace {

using testing::Batch;
using testing::Convert;
using testing::Decimal;
using testing::ExpectRows;
using testing::Int128;
using testing::IsError;
using testing::SparkSchemaOf;

Int128 Pow10(int n) {
  Int128 v = 1;
  for (int i = 0; i < n; ++i) v *= 10;
  return v;
}

TEST(FlatDecimal, Decimal32IsALongInTheSlot) {
  auto batch =
      Batch({Decimal("d", 32, 9, 2, {12345, -1, Pow10(9) - 1, -(Pow10(9) - 1), std::nullopt})});
  EXPECT_EQ(SparkSchemaOf(batch), "struct<d:decimal(9,2)>");
  ExpectRows(batch,
             {
                 "0000000000000000 3930000000000000",  // 123.45 -> unscaled 12345
                 "0000000000000000 ffffffffffffffff",  // -0.01 -> -1 as a long (sign-extended)
                 "0000000000000000 ffc99a3b00000000",  // 999999999
                 "0000000000000000 013665c4ffffffff",  // -999999999
                 "0100000000000000 0000000000000000",  // null
             });
}

TEST(FlatDecimal, Decimal64) {
  auto batch = Batch({Decimal("d", 64, 18, 4, {Pow10(18) - 1, -(Pow10(18) - 1), 0, std::nullopt})});
  EXPECT_EQ(SparkSchemaOf(batch), "struct<d:decimal(18,4)>");
  ExpectRows(batch, {
                        "0000000000000000 ffff63a7b3b6e00d",  // 10^18 - 1
                        "0000000000000000 01009c584c491ff2",  // -(10^18 - 1)
                        "0000000000000000 0000000000000000",  // 0
                        "0100000000000000 0000000000000000",  // null
                    });
}

TEST(FlatDecimal, Decimal128And256WithSmallPrecision) {
  auto batch = Batch({Decimal("a", 128, 18, 0, {Pow10(18) - 1, -7, std::nullopt}),
                      Decimal("b", 256, 10, 3, {-5, std::nullopt, Pow10(10) - 1})});
  EXPECT_EQ(SparkSchemaOf(batch), "struct<a:decimal(18,0),b:decimal(10,3)>");
  ExpectRows(batch, {
                        "0000000000000000"   // null bits
                        "ffff63a7b3b6e00d"   // a = 10^18 - 1
                        "fbffffffffffffff",  // b = -5
                        "0200000000000000"   // null bits: b
                        "f9ffffffffffffff"   // a = -7
                        "0000000000000000",  // b null
                        "0100000000000000"   // null bits: a
                        "0000000000000000"   // a null
                        "ffe30b5402000000",  // b = 9999999999 = 0x2540be3ff
                    });
}

TEST(FlatDecimal, SmallPrecisionOverflowNamesColumnAndRow) {
  struct Case {
    int bit_width;
    int precision;
    Int128 value;
  };
  for (Case c :
       {Case{32, 9, Pow10(9)}, Case{32, 1, -10}, Case{64, 18, Pow10(18)}, Case{64, 5, -Pow10(5)},
        Case{128, 18, -Pow10(18)}, Case{128, 18, Int128{1} << 64},
        Case{128, 18, -(Int128{1} << 100)}, Case{256, 18, Pow10(30)}, Case{256, 3, 1000}}) {
    auto batch = Batch({Decimal("dec", c.bit_width, c.precision, 0, {1, std::nullopt, c.value})});
    EXPECT_TRUE(
        IsError(Convert(batch).status, StatusCode::kOverflow, {"'dec'", "row 2", "precision"}))
        << c.bit_width << " " << c.precision;
  }
}

TEST(FlatDecimal, LargeDecimalMinimalBigEndian) {
  auto batch = Batch(
      {Decimal("d", 128, 38, 10,
               {0, 127, 128, -128, -129, -1, Pow10(38) - 1, -(Pow10(38) - 1), std::nullopt})});
  EXPECT_EQ(SparkSchemaOf(batch), "struct<d:decimal(38,10)>");
  ExpectRows(batch, {
                        "0000000000000000"   // null bits
                        "0100000010000000"   // offset 16, 1 byte
                        "0000000000000000"   // 0 -> 00
                        "0000000000000000",  //
                        "0000000000000000"   //
                        "0100000010000000"   // 1 byte
                        "7f00000000000000"   // 127 -> 7f
                        "0000000000000000",  //
                        "0000000000000000"   //
                        "0200000010000000"   // 2 bytes
                        "0080000000000000"   // 128 -> 00 80
                        "0000000000000000",  //
                        "0000000000000000"   //
                        "0100000010000000"   // 1 byte
                        "8000000000000000"   // -128 -> 80
                        "0000000000000000",  //
                        "0000000000000000"   //
                        "0200000010000000"   // 2 bytes
                        "ff7f000000000000"   // -129 -> ff 7f
                        "0000000000000000",  //
                        "0000000000000000"   //
                        "0100000010000000"   // 1 byte
                        "ff00000000000000"   // -1 -> ff
                        "0000000000000000",  //
                        "0000000000000000"   //
                        "1000000010000000"   // 16 bytes
                        "4b3b4ca85a86c47a"   // 10^38 - 1, big-endian
                        "098a223fffffffff",  //
                        "0000000000000000"   //
                        "1000000010000000"   // 16 bytes
                        "b4c4b357a5793b85"   // -(10^38 - 1)
                        "f675ddc000000001",  //
                        "0100000000000000"   // null bits: d
                        "0000000010000000"   // null: offset 16, size 0
                        "0000000000000000"   // 16 reserved bytes, zero
                        "0000000000000000",  //
                    });
}

TEST(FlatDecimal, LargeDecimal256AndPrecisionBoundaries) {
  auto batch = Batch({Decimal("d", 256, 20, 0, {Pow10(19), -Pow10(19), Pow10(20) - 1})});
  EXPECT_EQ(SparkSchemaOf(batch), "struct<d:decimal(20,0)>");
  ExpectRows(batch, {
                        "0000000000000000"   //
                        "0900000010000000"   // 9 bytes
                        "008ac7230489e800"   // 10^19 = 00 8a c7 23 04 89 e8 00 00
                        "0000000000000000",  //
                        "0000000000000000"   //
                        "0900000010000000"   // 9 bytes
                        "ff7538dcfb761800"   // -10^19 = ff 75 38 dc fb 76 18 00 00
                        "0000000000000000",  //
                        "0000000000000000"   //
                        "0900000010000000"   // 9 bytes
                        "056bc75e2d630fff"   // 10^20 - 1 = 05 6b c7 5e 2d 63 0f ff ff
                        "ff00000000000000",  //
                    });
}

TEST(FlatDecimal, NullLargeDecimalKeepsItsBytesBeforeAString) {
  auto batch =
      Batch({Decimal("d", 128, 19, 2, {std::nullopt, 1}), testing::Strings("u", "s", {"xyz", ""})});
  ExpectRows(batch, {
                        "0100000000000000"   // null bits: d
                        "0000000018000000"   // d null: offset 24, size 0
                        "0300000028000000"   // s: offset 40 (after d's 16 bytes), 3 bytes
                        "0000000000000000"   // d: 16 zero bytes
                        "0000000000000000"   //
                        "78797a0000000000",  // "xyz"
                        "0000000000000000"   // null bits
                        "0100000018000000"   // d: offset 24, 1 byte
                        "0000000028000000"   // s: empty at the cursor, offset 40
                        "0100000000000000"   // d = 01
                        "0000000000000000",  //
                    });
}

TEST(FlatDecimal, LargePrecisionOverflowNamesColumnAndRow) {
  struct Case {
    int bit_width;
    int precision;
    Int128 value;
  };
  for (Case c :
       {Case{128, 38, Pow10(38)}, Case{128, 38, -Pow10(38)}, Case{128, 20, Pow10(20)},
        Case{256, 19, -Pow10(19)}, Case{128, 38, -(Int128{1} << 126) - (Int128{1} << 126)}}) {
    auto batch = Batch({testing::Strings("u", "s", {"a", "b", "c"}),
                        Decimal("big", c.bit_width, c.precision, 0, {std::nullopt, 5, c.value})});
    EXPECT_TRUE(
        IsError(Convert(batch).status, StatusCode::kOverflow, {"'big'", "row 2", "precision"}))
        << c.bit_width << " " << c.precision;
  }
}

TEST(FlatDecimal, Decimal256BeyondOneHundredTwentyEightBitsOverflows) {
  // Upper words that are not the sign extension of the low 128 bits.
  testing::Bytes data(64, 0);
  data[0] = 1;        // row 0: 1
  data[32 + 16] = 1;  // row 1: 2^128
  testing::TestArray column;
  column.format = "d:38,0,256";
  column.name = "wide";
  column.length = 2;
  column.buffers = {std::nullopt, data};
  EXPECT_TRUE(IsError(Convert(Batch({column})).status, StatusCode::kOverflow, {"'wide'", "row 1"}));
  column.format = "d:18,0,256";
  EXPECT_TRUE(IsError(Convert(Batch({column})).status, StatusCode::kOverflow, {"'wide'", "row 1"}));
}

TEST(FlatDecimal, PrecisionTooLargeForTheWidthIsRejected) {
  for (const char* format : {"d:19,2,64", "d:20,0,32"}) {
    testing::TestArray column = testing::SchemaNode(format, "narrow");
    auto exported = testing::ExportBatch(Batch({column}));
    std::unique_ptr<Converter> converter;
    Status status = Converter::Make(exported->schema.schema, {}, &converter);
    EXPECT_FALSE(status.ok()) << format;
    EXPECT_NE(status.message().find("'narrow'"), std::string::npos) << status.message();
  }
}

}  // namespace
}  // namespace rowbridge
