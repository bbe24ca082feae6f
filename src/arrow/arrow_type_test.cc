// Format-string parsing (the C Data Interface's "Data type description
// format strings"), type names and per-type layout facts.
#include "arrow/arrow_type.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rowbridge {
namespace {

ArrowType Parse(const std::string& format) {
  ArrowType type;
  Status status = ParseFormat(format.c_str(), &type);
  EXPECT_TRUE(status.ok()) << "'" << format << "': " << status.message();
  return type;
}

struct SimpleCase {
  const char* format;
  ArrowTypeId id;
};

TEST(ParseFormat, EveryParameterlessFormat) {
  const std::vector<SimpleCase> cases = {
      {"n", ArrowTypeId::kNull},
      {"b", ArrowTypeId::kBool},
      {"c", ArrowTypeId::kInt8},
      {"C", ArrowTypeId::kUInt8},
      {"s", ArrowTypeId::kInt16},
      {"S", ArrowTypeId::kUInt16},
      {"i", ArrowTypeId::kInt32},
      {"I", ArrowTypeId::kUInt32},
      {"l", ArrowTypeId::kInt64},
      {"L", ArrowTypeId::kUInt64},
      {"e", ArrowTypeId::kFloat16},
      {"f", ArrowTypeId::kFloat32},
      {"g", ArrowTypeId::kFloat64},
      {"z", ArrowTypeId::kBinary},
      {"Z", ArrowTypeId::kLargeBinary},
      {"vz", ArrowTypeId::kBinaryView},
      {"u", ArrowTypeId::kUtf8},
      {"U", ArrowTypeId::kLargeUtf8},
      {"vu", ArrowTypeId::kUtf8View},
      {"tdD", ArrowTypeId::kDate32},
      {"tdm", ArrowTypeId::kDate64},
      {"tiM", ArrowTypeId::kIntervalYearMonth},
      {"tiD", ArrowTypeId::kIntervalDayTime},
      {"tin", ArrowTypeId::kIntervalMonthDayNano},
      {"+s", ArrowTypeId::kStruct},
      {"+l", ArrowTypeId::kList},
      {"+L", ArrowTypeId::kLargeList},
      {"+vl", ArrowTypeId::kListView},
      {"+vL", ArrowTypeId::kLargeListView},
      {"+m", ArrowTypeId::kMap},
      {"+r", ArrowTypeId::kRunEndEncoded},
      {"+ud:0,1", ArrowTypeId::kDenseUnion},
      {"+us:0,1", ArrowTypeId::kSparseUnion},
      {"+us:", ArrowTypeId::kSparseUnion},
  };
  for (const SimpleCase& c : cases) {
    ArrowType type = Parse(c.format);
    EXPECT_EQ(type.id, c.id) << c.format;
    EXPECT_EQ(type.bit_width, 0) << c.format;
    EXPECT_EQ(type.fixed_size, 0) << c.format;
    EXPECT_FALSE(type.has_timezone) << c.format;
  }
}

TEST(ParseFormat, FixedSizeBinaryAndList) {
  ArrowType type = Parse("w:16");
  EXPECT_EQ(type.id, ArrowTypeId::kFixedSizeBinary);
  EXPECT_EQ(type.fixed_size, 16);
  EXPECT_EQ(Parse("w:0").fixed_size, 0);
  EXPECT_EQ(Parse("w:2147483647").fixed_size, 2147483647);
  type = Parse("+w:3");
  EXPECT_EQ(type.id, ArrowTypeId::kFixedSizeList);
  EXPECT_EQ(type.fixed_size, 3);
}

TEST(ParseFormat, DecimalsWithAndWithoutBitWidth) {
  struct Case {
    const char* format;
    int32_t precision, scale, bit_width;
  };
  const std::vector<Case> cases = {
      {"d:10,2", 10, 2, 128},       {"d:5,1,32", 5, 1, 32},       {"d:18,3,64", 18, 3, 64},
      {"d:38,10,128", 38, 10, 128}, {"d:76,10,256", 76, 10, 256}, {"d:1,0", 1, 0, 128},
      {"d:10,-2", 10, -2, 128},     {"d:40,2,256", 40, 2, 256},
  };
  for (const Case& c : cases) {
    ArrowType type = Parse(c.format);
    EXPECT_EQ(type.id, ArrowTypeId::kDecimal) << c.format;
    EXPECT_EQ(type.precision, c.precision) << c.format;
    EXPECT_EQ(type.scale, c.scale) << c.format;
    EXPECT_EQ(type.bit_width, c.bit_width) << c.format;
  }
}

TEST(ParseFormat, TimesAndUnits) {
  struct Case {
    const char* format;
    ArrowTypeId id;
    TimeUnit unit;
  };
  const std::vector<Case> cases = {
      {"tts", ArrowTypeId::kTime32, TimeUnit::kSecond},
      {"ttm", ArrowTypeId::kTime32, TimeUnit::kMilli},
      {"ttu", ArrowTypeId::kTime64, TimeUnit::kMicro},
      {"ttn", ArrowTypeId::kTime64, TimeUnit::kNano},
      {"tDs", ArrowTypeId::kDuration, TimeUnit::kSecond},
      {"tDm", ArrowTypeId::kDuration, TimeUnit::kMilli},
      {"tDu", ArrowTypeId::kDuration, TimeUnit::kMicro},
      {"tDn", ArrowTypeId::kDuration, TimeUnit::kNano},
  };
  for (const Case& c : cases) {
    ArrowType type = Parse(c.format);
    EXPECT_EQ(type.id, c.id) << c.format;
    EXPECT_EQ(type.unit, c.unit) << c.format;
  }
}

TEST(ParseFormat, TimestampsWithAndWithoutTimeZone) {
  struct Case {
    const char* format;
    TimeUnit unit;
    const char* timezone;
  };
  const std::vector<Case> cases = {
      {"tss:", TimeUnit::kSecond, ""},
      {"tsm:", TimeUnit::kMilli, ""},
      {"tsu:", TimeUnit::kMicro, ""},
      {"tsn:", TimeUnit::kNano, ""},
      {"tsu:UTC", TimeUnit::kMicro, "UTC"},
      {"tss:Europe/Paris", TimeUnit::kSecond, "Europe/Paris"},
      {"tsn:+07:30", TimeUnit::kNano, "+07:30"},
      {"tsm:America/Argentina/Buenos_Aires", TimeUnit::kMilli, "America/Argentina/Buenos_Aires"},
  };
  for (const Case& c : cases) {
    ArrowType type = Parse(c.format);
    EXPECT_EQ(type.id, ArrowTypeId::kTimestamp) << c.format;
    EXPECT_EQ(type.unit, c.unit) << c.format;
    EXPECT_EQ(type.timezone, c.timezone) << c.format;
    EXPECT_EQ(type.has_timezone, std::string(c.timezone) != "") << c.format;
  }
}

TEST(ParseFormat, ResetsTheOutputBetweenCalls) {
  ArrowType type;
  ASSERT_TRUE(ParseFormat("tsu:UTC", &type).ok());
  ASSERT_TRUE(ParseFormat("i", &type).ok());
  EXPECT_EQ(type.id, ArrowTypeId::kInt32);
  EXPECT_FALSE(type.has_timezone);
  EXPECT_EQ(type.timezone, "");
  ASSERT_TRUE(ParseFormat("d:38,10", &type).ok());
  ASSERT_TRUE(ParseFormat("g", &type).ok());
  EXPECT_EQ(type.precision, 0);
  EXPECT_EQ(type.bit_width, 0);
}

TEST(ParseFormat, MalformedStringsAreInvalid) {
  const std::vector<std::string> malformed = {
      "",
      "x",
      "bb",
      "ii",
      " i",
      "i ",
      "v",
      "vx",
      "vuu",
      "w",
      "w:",
      "w:x",
      "w:-1",
      "w:16x",
      "w16",
      "w:99999999999",
      "d",
      "d:",
      "d:10",
      "d:10,",
      "d:,2",
      "d:a,b",
      "d:10,2,",
      "d:10,2,48",
      "d:10,2,0",
      "d:10,2,64x",
      "d:10,2,128,1",
      "d10,2",
      "d:10;2",
      "t",
      "tx",
      "td",
      "tdx",
      "tdDx",
      "tdd",
      "tt",
      "ttx",
      "tts:",
      "ttsx",
      "ts",
      "tsu",
      "tsx:",
      "tsuUTC",
      "tD",
      "tDx",
      "tDs:",
      "ti",
      "tiX",
      "tiMM",
      "+",
      "+x",
      "+ss",
      "+w",
      "+w:",
      "+w:-3",
      "+w:x",
      "+v",
      "+vx",
      "+u",
      "+ux:",
      "+rr",
      "+mm",
  };
  for (const std::string& format : malformed) {
    ArrowType type;
    Status status = ParseFormat(format.c_str(), &type);
    EXPECT_EQ(status.code(), StatusCode::kInvalid)
        << "'" << format << "' gave " << status.message();
    if (!status.ok()) {
      EXPECT_NE(status.message().find("'" + format + "'"), std::string::npos) << status.message();
    }
  }
}

TEST(ParseFormat, NullFormatIsInvalid) {
  ArrowType type;
  Status status = ParseFormat(nullptr, &type);
  EXPECT_EQ(status.code(), StatusCode::kInvalid);
  EXPECT_NE(status.message().find("NULL"), std::string::npos) << status.message();
}

TEST(ArrowTypeName, ReadableNames) {
  EXPECT_EQ(ArrowTypeName(Parse("tsu:UTC")), "timestamp[us, tz=UTC]");
  EXPECT_EQ(ArrowTypeName(Parse("tsn:")), "timestamp[ns]");
  EXPECT_EQ(ArrowTypeName(Parse("d:38,10")), "decimal128(38, 10)");
  EXPECT_EQ(ArrowTypeName(Parse("d:9,2,32")), "decimal32(9, 2)");
  EXPECT_EQ(ArrowTypeName(Parse("w:16")), "fixed_size_binary[16]");
  EXPECT_EQ(ArrowTypeName(Parse("+w:4")), "fixed_size_list[4]");
  EXPECT_EQ(ArrowTypeName(Parse("tDn")), "duration[ns]");
  EXPECT_EQ(ArrowTypeName(Parse("ttm")), "time32[ms]");
  EXPECT_EQ(ArrowTypeName(Parse("tin")), "interval[month_day_nano]");
  EXPECT_EQ(ArrowTypeName(Parse("vu")), "utf8_view");
  EXPECT_EQ(ArrowTypeName(Parse("L")), "uint64");
  EXPECT_EQ(ArrowTypeName(Parse("+ud:0")), "dense_union");
}

TEST(ArrowTypeLayout, PrimitiveByteWidths) {
  EXPECT_EQ(PrimitiveByteWidth(Parse("b")), 0);
  EXPECT_EQ(PrimitiveByteWidth(Parse("c")), 1);
  EXPECT_EQ(PrimitiveByteWidth(Parse("S")), 2);
  EXPECT_EQ(PrimitiveByteWidth(Parse("e")), 2);
  EXPECT_EQ(PrimitiveByteWidth(Parse("f")), 4);
  EXPECT_EQ(PrimitiveByteWidth(Parse("tdD")), 4);
  EXPECT_EQ(PrimitiveByteWidth(Parse("tiM")), 4);
  EXPECT_EQ(PrimitiveByteWidth(Parse("tdm")), 8);
  EXPECT_EQ(PrimitiveByteWidth(Parse("tsn:UTC")), 8);
  EXPECT_EQ(PrimitiveByteWidth(Parse("tin")), 16);
  EXPECT_EQ(PrimitiveByteWidth(Parse("d:5,1,32")), 4);
  EXPECT_EQ(PrimitiveByteWidth(Parse("d:40,1,256")), 32);
  EXPECT_EQ(PrimitiveByteWidth(Parse("w:7")), 7);
  EXPECT_EQ(PrimitiveByteWidth(Parse("u")), 0);
  EXPECT_EQ(PrimitiveByteWidth(Parse("+s")), 0);
}

TEST(ArrowTypeLayout, BufferCountsOfTheCDataInterface) {
  EXPECT_EQ(ExpectedBufferCount(Parse("n")), 0);
  EXPECT_EQ(ExpectedBufferCount(Parse("+r")), 0);
  EXPECT_EQ(ExpectedBufferCount(Parse("+s")), 1);
  EXPECT_EQ(ExpectedBufferCount(Parse("+w:2")), 1);
  EXPECT_EQ(ExpectedBufferCount(Parse("+us:0")), 1);
  EXPECT_EQ(ExpectedBufferCount(Parse("+ud:0")), 2);
  EXPECT_EQ(ExpectedBufferCount(Parse("b")), 2);
  EXPECT_EQ(ExpectedBufferCount(Parse("l")), 2);
  EXPECT_EQ(ExpectedBufferCount(Parse("w:3")), 2);
  EXPECT_EQ(ExpectedBufferCount(Parse("+l")), 2);
  EXPECT_EQ(ExpectedBufferCount(Parse("+m")), 2);
  EXPECT_EQ(ExpectedBufferCount(Parse("u")), 3);
  EXPECT_EQ(ExpectedBufferCount(Parse("Z")), 3);
  EXPECT_EQ(ExpectedBufferCount(Parse("+vl")), 3);
  EXPECT_EQ(ExpectedBufferCount(Parse("vu")), 3);
  EXPECT_EQ(ExpectedBufferCount(Parse("vz")), 3);
}

TEST(ArrowTypeLayout, MicrosPerUnit) {
  EXPECT_EQ(MicrosPerUnit(TimeUnit::kSecond), 1000000);
  EXPECT_EQ(MicrosPerUnit(TimeUnit::kMilli), 1000);
  EXPECT_EQ(MicrosPerUnit(TimeUnit::kMicro), 1);
  EXPECT_EQ(MicrosPerUnit(TimeUnit::kNano), 0);
}

}  // namespace
}  // namespace rowbridge
