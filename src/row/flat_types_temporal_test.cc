// Byte-exact rows for dates, timestamps, durations and intervals, plus the
// unit-conversion overflow errors. Expected words are little-endian, one per
// line, computed by hand from CONTRACTS.md §2 and §3.
#include <gtest/gtest.h>

#include <limits>

#include "rowbridge/converter.hpp"
#include "support/row_test_util.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge {
namespace {

using testing::Batch;
using testing::Convert;
using testing::ExpectRows;
using testing::IsError;
using testing::MonthDayNanoValue;
using testing::Primitive;
using testing::SparkSchemaOf;

constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

TEST(FlatTemporal, Date32) {
  auto batch = Batch({Primitive<int32_t>("tdD", "d",
                                         {0, 1, -1, std::numeric_limits<int32_t>::max(),
                                          std::numeric_limits<int32_t>::min(), std::nullopt})});
  EXPECT_EQ(SparkSchemaOf(batch), "struct<d:date>");
  ExpectRows(batch, {
                        "0000000000000000 0000000000000000",  // day 0
                        "0000000000000000 0100000000000000",  // day 1
                        "0000000000000000 ffffffff00000000",  // day -1: int, zero-extended
                        "0000000000000000 ffffff7f00000000",  // INT32_MAX
                        "0000000000000000 0000008000000000",  // INT32_MIN
                        "0100000000000000 0000000000000000",  // null
                    });
}

TEST(FlatTemporal, Date64FloorsToDays) {
  auto batch = Batch({Primitive<int64_t>("tdm", "d",
                                         {0, 86399999, 86400000, -1, -86400000, -86400001,
                                          1700000000000, -185542587187200000, std::nullopt})});
  EXPECT_EQ(SparkSchemaOf(batch), "struct<d:date>");
  ExpectRows(batch, {
                        "0000000000000000 0000000000000000",  // 0 ms -> day 0
                        "0000000000000000 0000000000000000",  // 86399999 ms -> day 0
                        "0000000000000000 0100000000000000",  // 86400000 ms -> day 1
                        "0000000000000000 ffffffff00000000",  // -1 ms -> day -1 (floor)
                        "0000000000000000 ffffffff00000000",  // -86400000 ms -> day -1
                        "0000000000000000 feffffff00000000",  // -86400001 ms -> day -2
                        "0000000000000000 db4c000000000000",  // 1.7e12 ms -> day 19675
                        "0000000000000000 0000008000000000",  // INT32_MIN days exactly
                        "0100000000000000 0000000000000000",  // null
                    });
}

TEST(FlatTemporal, Date64BeyondInt32DaysOverflows) {
  for (int64_t ms :
       {int64_t{185542587187200000}, int64_t{-185542587187200001}, kInt64Max, kInt64Min}) {
    auto batch = Batch({Primitive<int64_t>("tdm", "when", {0, std::nullopt, ms, 0})});
    EXPECT_TRUE(IsError(Convert(batch).status, StatusCode::kOverflow, {"'when'", "row 2"})) << ms;
  }
}

TEST(FlatTemporal, TimestampUnitsToMicros) {
  auto batch = Batch({
      Primitive<int64_t>("tss:", "s", {1, -1, 9223372036854}),
      Primitive<int64_t>("tsm:", "ms", {1, -1, 9223372036854775}),
      Primitive<int64_t>("tsu:", "us", {123456789, -1, kInt64Min}),
      Primitive<int64_t>("tsn:", "ns", {1999, -1001, kInt64Min}),
  });
  EXPECT_EQ(SparkSchemaOf(batch),
            "struct<s:timestamp_ntz,ms:timestamp_ntz,us:timestamp_ntz,ns:timestamp_ntz>");
  ExpectRows(batch, {
                        "0000000000000000"   // null bits
                        "40420f0000000000"   // 1 s = 1000000 us
                        "e803000000000000"   // 1 ms = 1000 us
                        "15cd5b0700000000"   // 123456789 us
                        "0100000000000000",  // 1999 ns -> 1 us
                        "0000000000000000"   // null bits
                        "c0bdf0ffffffffff"   // -1 s = -1000000 us
                        "18fcffffffffffff"   // -1 ms = -1000 us
                        "ffffffffffffffff"   // -1 us
                        "feffffffffffffff",  // -1001 ns -> -2 us (floor)
                        "0000000000000000"   // null bits
                        "8029f4ffffffff7f"   // 9223372036854 s = 9223372036854000000 us
                        "d8fcffffffffff7f"   // 9223372036854775 ms = 9223372036854775000 us
                        "0000000000000080"   // INT64_MIN us
                        "08ac1c5a643bdfff",  // INT64_MIN ns -> -9223372036854776 us
                    });
}

TEST(FlatTemporal, TimestampNanosFloorDivision) {
  auto batch = Batch({Primitive<int64_t>("tsn:UTC", "t", {-1, -999, -1000, 999, 1000, kInt64Max})});
  EXPECT_EQ(SparkSchemaOf(batch), "struct<t:timestamp>");
  ExpectRows(batch, {
                        "0000000000000000 ffffffffffffffff",  // -1 ns -> -1 us
                        "0000000000000000 ffffffffffffffff",  // -999 ns -> -1 us
                        "0000000000000000 ffffffffffffffff",  // -1000 ns -> -1 us
                        "0000000000000000 0000000000000000",  // 999 ns -> 0 us
                        "0000000000000000 0100000000000000",  // 1000 ns -> 1 us
                        "0000000000000000 f753e3a59bc42000",  // INT64_MAX ns -> 9223372036854775 us
                    });
}

TEST(FlatTemporal, TimeZoneSelectsTimestampOverNtz) {
  auto with_tz = Batch({Primitive<int64_t>("tsm:Europe/Paris", "a", {1, std::nullopt}),
                        Primitive<int64_t>("tsm:", "b", {1, std::nullopt})});
  EXPECT_EQ(SparkSchemaOf(with_tz), "struct<a:timestamp,b:timestamp_ntz>");
  ExpectRows(with_tz, {
                          "0000000000000000"   // null bits
                          "e803000000000000"   // a: 1000 us; the zone does not change the bytes
                          "e803000000000000",  // b: 1000 us
                          "0300000000000000"   // null bits: a and b
                          "0000000000000000"   // a null
                          "0000000000000000",  // b null
                      });
}

TEST(FlatTemporal, SecondAndMilliTimestampOverflowNamesColumnAndRow) {
  struct Case {
    const char* format;
    int64_t value;
  };
  for (Case c :
       {Case{"tss:", 9223372036855}, Case{"tss:UTC", -9223372036855}, Case{"tss:", kInt64Max},
        Case{"tsm:", 9223372036854776}, Case{"tsm:UTC", kInt64Min}, Case{"tDs", 9223372036855},
        Case{"tDm", -9223372036854776}}) {
    auto batch = Batch({Primitive<int64_t>("l", "ok", {1, 2, 3, 4}),
                        Primitive<int64_t>(c.format, "ts", {0, std::nullopt, 5, c.value})});
    EXPECT_TRUE(IsError(Convert(batch).status, StatusCode::kOverflow, {"'ts'", "row 3"}))
        << c.format << " " << c.value;
  }
}

TEST(FlatTemporal, OverflowUnderANullIsNotAnError) {
  // The validity bitmap decides: a null slot's garbage value is never converted.
  auto batch = Batch({Primitive<int64_t>("tss:", "ts", {1, std::nullopt})});
  batch.children[0].buffers[1] = testing::ToBytes(std::vector<int64_t>{1, kInt64Max});
  ExpectRows(batch, {"0000000000000000 40420f0000000000",    // 1 s
                     "0100000000000000 0000000000000000"});  // null
}

TEST(FlatTemporal, TimesOfDayToNanos) {
  auto batch = Batch({
      Primitive<int32_t>("tts", "s", {1, 86399, std::nullopt}),
      Primitive<int32_t>("ttm", "ms", {1, -1, 0}),
      Primitive<int64_t>("ttu", "us", {1, 86399999999, 0}),
      Primitive<int64_t>("ttn", "ns", {1, kInt64Max, kInt64Min}),
  });
  EXPECT_EQ(SparkSchemaOf(batch), "struct<s:time(6),ms:time(6),us:time(6),ns:time(6)>");
  ExpectRows(batch, {
                        "0000000000000000"   // null bits
                        "00ca9a3b00000000"   // 1 s = 10^9 ns
                        "40420f0000000000"   // 1 ms = 10^6 ns
                        "e803000000000000"   // 1 us = 1000 ns
                        "0100000000000000",  // 1 ns, as it is
                        "0000000000000000"   // null bits
                        "0036b455944e0000"   // 86399 s = 86399 * 10^9 ns
                        "c0bdf0ffffffffff"   // -1 ms = -10^6 ns (no range check, as Spark)
                        "18fc4e91944e0000"   // 86399999999 us = 86399999999000 ns
                        "ffffffffffffff7f",  // INT64_MAX ns
                        "0100000000000000"   // null bits: s is null
                        "0000000000000000"   // null slot
                        "0000000000000000"   // 0 ms
                        "0000000000000000"   // 0 us
                        "0000000000000080",  // INT64_MIN ns
                    });
}

TEST(FlatTemporal, MicrosTimeOverflowNamesColumnAndRow) {
  for (int64_t us : {int64_t{9223372036854776}, int64_t{-9223372036854776}, kInt64Max}) {
    auto batch = Batch({Primitive<int64_t>("ttu", "t", {0, std::nullopt, us})});
    EXPECT_TRUE(
        IsError(Convert(batch).status, StatusCode::kOverflow, {"'t'", "row 2", "nanoseconds"}))
        << us;
  }
}

TEST(FlatTemporal, DurationsToMicros) {
  auto batch = Batch({
      Primitive<int64_t>("tDs", "s", {2, std::nullopt}),
      Primitive<int64_t>("tDm", "ms", {-2, 0}),
      Primitive<int64_t>("tDu", "us", {kInt64Max, 7}),
      Primitive<int64_t>("tDn", "ns", {-1, 1000}),
  });
  EXPECT_EQ(SparkSchemaOf(batch),
            "struct<s:interval day to second,ms:interval day to second,"
            "us:interval day to second,ns:interval day to second>");
  ExpectRows(batch, {
                        "0000000000000000"   // null bits
                        "80841e0000000000"   // 2 s = 2000000 us
                        "30f8ffffffffffff"   // -2 ms = -2000 us
                        "ffffffffffffff7f"   // INT64_MAX us
                        "ffffffffffffffff",  // -1 ns -> -1 us
                        "0100000000000000"   // null bits: s
                        "0000000000000000"   // s null
                        "0000000000000000"   // 0 ms
                        "0700000000000000"   // 7 us
                        "0100000000000000",  // 1000 ns -> 1 us
                    });
}

TEST(FlatTemporal, IntervalYearMonth) {
  auto batch = Batch({Primitive<int32_t>(
      "tiM", "ym", {0, 13, -1, std::numeric_limits<int32_t>::max(), std::nullopt})});
  EXPECT_EQ(SparkSchemaOf(batch), "struct<ym:interval year to month>");
  ExpectRows(batch, {
                        "0000000000000000 0000000000000000",  // 0 months
                        "0000000000000000 0d00000000000000",  // 13 months
                        "0000000000000000 ffffffff00000000",  // -1 month, int zero-extended
                        "0000000000000000 ffffff7f00000000",  // INT32_MAX
                        "0100000000000000 0000000000000000",  // null
                    });
}

TEST(FlatTemporal, MonthDayNanoIsCalendarInterval) {
  auto batch = Batch(
      {testing::MonthDayNano("iv", {MonthDayNanoValue{1, 2, 3000}, MonthDayNanoValue{-1, -2, -1},
                                    MonthDayNanoValue{0, 0, 1999},
                                    MonthDayNanoValue{std::numeric_limits<int32_t>::min(),
                                                      std::numeric_limits<int32_t>::max(), -1001},
                                    std::nullopt, MonthDayNanoValue{0, 0, kInt64Min}})});
  EXPECT_EQ(SparkSchemaOf(batch), "struct<iv:interval>");
  ExpectRows(batch, {
                        "0000000000000000"   // null bits
                        "1000000010000000"   // offset 16, size 16
                        "0100000002000000"   // months 1, days 2
                        "0300000000000000",  // 3000 ns = 3 us
                        "0000000000000000"   // null bits
                        "1000000010000000"   // offset 16, size 16
                        "fffffffffeffffff"   // months -1, days -2
                        "0000000000000000",  // -1 ns -> 0 us (toward zero)
                        "0000000000000000"   // null bits
                        "1000000010000000"   //
                        "0000000000000000"   // months 0, days 0
                        "0100000000000000",  // 1999 ns -> 1 us
                        "0000000000000000"   // null bits
                        "1000000010000000"   //
                        "00000080ffffff7f"   // months INT32_MIN, days INT32_MAX
                        "ffffffffffffffff",  // -1001 ns -> -1 us
                        "0100000000000000"   // null bits: iv
                        "1000000010000000"   // a null interval keeps offset and size 16
                        "0000000000000000"   // and its 16 bytes, zeroed
                        "0000000000000000",  //
                        "0000000000000000"   // null bits
                        "1000000010000000"   //
                        "0000000000000000"   //
                        "09ac1c5a643bdfff",  // INT64_MIN ns -> -9223372036854775 us
                    });
}

TEST(FlatTemporal, CalendarIntervalThenStringLayout) {
  auto batch = Batch({testing::MonthDayNano("iv", {MonthDayNanoValue{1, 2, 3000}, std::nullopt}),
                      testing::Strings("u", "s", {"abc", "x"})});
  ExpectRows(batch, {
                        "0000000000000000"   // null bits
                        "1000000018000000"   // iv: offset 24, size 16
                        "0300000028000000"   // s: offset 40, 3 bytes
                        "0100000002000000"   // iv months 1, days 2
                        "0300000000000000"   // iv 3 us
                        "6162630000000000",  // "abc" padded
                        "0100000000000000"   // null bits: iv
                        "1000000018000000"   // iv null: same slot
                        "0100000028000000"   // s: offset 40, 1 byte
                        "0000000000000000"   // iv: 16 zero bytes
                        "0000000000000000"   //
                        "7800000000000000",  // "x" padded
                    });
}

}  // namespace
}  // namespace rowbridge
