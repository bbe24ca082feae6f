// The depth-first writer (nested/depth_first.hpp) on what the randomized
// test rarely draws: strings longer than one masked move (64 bytes) as
// fields, elements and map keys; arrays longer than one null word (56 and
// 64+ elements) with nulls; structs of more than three fields and of 64+
// fields (two bitset words); nested values below arrays of structs; every
// shape with and without nulls, under both kernel sets. Expected rows come
// from the reference writer (testing/reference_row_writer), whose bytes the
// Spark-made golden vectors check.
#include "row/nested/depth_first/depth_first.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "row/kernel_isa.hpp"
#include "rowbridge/converter.hpp"
#include "support/reference_row_writer.hpp"
#include "support/row_test_util.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge {
namespace {

using testing::Batch;
using testing::Primitive;
using testing::TestArray;

/// Converts `batch` with the depth-first writer under `isa` at `validation`
/// and expects `reference`'s rows, written by depth-first tiles.
void ExpectDepthFirstRows(const TestArray& batch, const testing::ReferenceRows& reference,
                          row::KernelIsa isa, Validation validation) {
  ConverterOptions options;
  options.kernels = row::KernelsOf(isa);
  options.nested_writer = NestedWriter::kDepthFirst;
  options.validation = validation;
  testing::Conversion conversion = testing::Convert(batch, options);
  ASSERT_TRUE(conversion.status.ok()) << conversion.status.message();
  EXPECT_GT(conversion.stats.depth_first_tiles, 0)
      << "the batch did not take the depth-first writer";
  ASSERT_EQ(conversion.rows.size(), reference.rows.size());
  for (size_t r = 0; r < reference.rows.size(); ++r) {
    EXPECT_EQ(testing::Hex(conversion.rows[r]), testing::Hex(reference.rows[r])) << "row " << r;
  }
}

/// ExpectDepthFirstRows of the reference rows under every kernel set, at
/// both validation levels (full validation checks the offsets when the
/// batch is bound, then lets the depth-first writer write).
void ExpectDepthFirstMatchesReference(const TestArray& batch) {
  testing::ReferenceRows reference = testing::ReferenceConvert(batch);
  ASSERT_EQ(reference.error, "");
  for (row::KernelIsa isa : row::kKernelIsas) {
    if (!row::KernelIsaAvailable(isa)) continue;
    for (Validation validation : {Validation::kCheap, Validation::kFull}) {
      SCOPED_TRACE(std::string(row::KernelIsaName(isa)) + " kernels" +
                   (validation == Validation::kFull ? ", full validation" : ", cheap validation"));
      ExpectDepthFirstRows(batch, reference, isa, validation);
    }
  }
}

std::string Text(size_t length, char first) {
  std::string s;
  for (size_t i = 0; i < length; ++i) s.push_back(static_cast<char>(first + i % 23));
  return s;
}

std::vector<std::optional<std::string>> MixedStrings(int64_t n) {
  std::vector<std::optional<std::string>> values;
  for (int64_t i = 0; i < n; ++i) {
    if (i % 7 == 3) values.push_back(std::nullopt);
    else
      values.push_back(Text(static_cast<size_t>((i * 37) % 150), static_cast<char>('a' + i % 5)));
  }
  return values;
}

TEST(DepthFirst, LongStringsAsFieldsElementsAndKeys) {
  const int64_t n = 40;
  TestArray fields =
      testing::Struct("s", n,
                      {Primitive<int64_t>("l", "a", std::vector<std::optional<int64_t>>(n, 5)),
                       testing::Strings("u", "b", MixedStrings(n))});
  std::vector<std::optional<int64_t>> lengths;
  for (int64_t i = 0; i < n; ++i)
    lengths.push_back(i % 9 == 4 ? std::nullopt : std::optional<int64_t>(i % 4));
  int64_t elements = 0;
  for (const auto& length : lengths) elements += length.value_or(0);
  TestArray strings =
      testing::ListOfLengths("a", testing::Strings("U", "e", MixedStrings(elements)), lengths);
  std::vector<int64_t> offsets{0};
  for (int64_t i = 0; i < n; ++i) offsets.push_back(offsets.back() + i % 3);
  std::vector<std::optional<std::string>> keys;
  for (int64_t k = 0; k < offsets.back(); ++k)
    keys.push_back(Text(static_cast<size_t>(60 + k % 40), 'k'));
  std::vector<std::optional<double>> values;
  for (int64_t k = 0; k < offsets.back(); ++k)
    values.push_back(k % 5 == 0 ? std::nullopt : std::optional<double>(k));
  TestArray map = testing::Map("m", testing::Strings("u", "key", keys),
                               Primitive<double>("g", "value", values), offsets);
  ExpectDepthFirstMatchesReference(
      Batch({fields, strings, map, testing::Strings("z", "flat", MixedStrings(n))}));
}

TEST(DepthFirst, ArraysAroundOneNullWord) {
  std::vector<std::optional<int64_t>> lengths{0, 1, 55, 56, 57, 63, 64, 65, 130, std::nullopt, 200};
  int64_t elements = 0;
  for (const auto& length : lengths) elements += length.value_or(0);
  std::vector<std::optional<int32_t>> ints;
  std::vector<std::optional<int8_t>> bytes;
  std::vector<std::optional<int64_t>> longs;
  for (int64_t e = 0; e < elements; ++e) {
    bool null = e % 11 == 2;
    ints.push_back(null ? std::nullopt : std::optional<int32_t>(static_cast<int32_t>(e)));
    bytes.push_back(null ? std::nullopt : std::optional<int8_t>(static_cast<int8_t>(e)));
    longs.push_back(e % 13 == 0 ? std::nullopt : std::optional<int64_t>(e * 3));
  }
  ExpectDepthFirstMatchesReference(Batch(
      {testing::ListOfLengths("i", Primitive<int32_t>("i", "e", ints), lengths),
       testing::ListOfLengths("c", Primitive<int8_t>("c", "e", bytes), lengths),
       testing::ListOfLengths("l", Primitive<int64_t>("l", "e", longs), lengths, true),
       testing::ListOfLengths("s", testing::Strings("u", "e", MixedStrings(elements)), lengths)}));
}

TEST(DepthFirst, WideStructsAndStructsInArrays) {
  const int64_t n = 20;
  std::vector<TestArray> many;
  for (int f = 0; f < 70; ++f) {
    std::vector<std::optional<int32_t>> values;
    for (int64_t i = 0; i < n; ++i) {
      values.push_back((i + f) % 6 == 0 ? std::nullopt
                                        : std::optional<int32_t>(static_cast<int32_t>(i * f)));
    }
    many.push_back(f % 10 == 9 ? testing::Strings("u", "f" + std::to_string(f), MixedStrings(n))
                               : Primitive<int32_t>("i", "f" + std::to_string(f), values));
  }
  std::vector<bool> valid;
  for (int64_t i = 0; i < n; ++i) valid.push_back(i % 5 != 1);
  TestArray wide = testing::Struct("wide", n, many, valid);
  // list<struct<x int64, y utf8, z list<int16>, w float32>>: a struct of four
  // fields, one nested, below an array.
  std::vector<std::optional<int64_t>> lengths;
  for (int64_t i = 0; i < n; ++i)
    lengths.push_back(i % 7 == 6 ? std::nullopt : std::optional<int64_t>(i % 5));
  int64_t elements = 0;
  for (const auto& length : lengths) elements += length.value_or(0);
  std::vector<std::optional<int64_t>> inner_lengths;
  for (int64_t e = 0; e < elements; ++e)
    inner_lengths.push_back(e % 4 == 0 ? std::nullopt : std::optional<int64_t>(e % 3));
  int64_t inner = 0;
  for (const auto& length : inner_lengths) inner += length.value_or(0);
  std::vector<std::optional<int16_t>> shorts;
  for (int64_t k = 0; k < inner; ++k) shorts.push_back(static_cast<int16_t>(k));
  std::vector<std::optional<int64_t>> xs;
  std::vector<std::optional<float>> ws;
  std::vector<bool> element_valid;
  for (int64_t e = 0; e < elements; ++e) {
    xs.push_back(e % 3 == 1 ? std::nullopt : std::optional<int64_t>(e));
    ws.push_back(static_cast<float>(e) / 2);
    element_valid.push_back(e % 8 != 5);
  }
  TestArray element = testing::Struct(
      "item", elements,
      {Primitive<int64_t>("l", "x", xs), testing::Strings("u", "y", MixedStrings(elements)),
       testing::ListOfLengths("z", Primitive<int16_t>("s", "e", shorts), inner_lengths),
       Primitive<float>("f", "w", ws)},
      element_valid);
  ExpectDepthFirstMatchesReference(Batch({wide, testing::ListOfLengths("p", element, lengths)}));
}

TEST(DepthFirst, ListsOfTwoFieldStructsWithNullsInEveryField) {
  // list<struct<x int64, y utf8>>, the shaped writer that reads its
  // elements' validity as one word per row (up to 56 elements) or bit by
  // bit (more); nulls in the lists, the elements and both fields, each on
  // its own pattern, and a struct sliced inside its list.
  std::vector<std::optional<int64_t>> lengths{3, 0, 56, 1, std::nullopt, 57, 8, 64, 65, 5, 2, 9};
  int64_t elements = 0;
  for (const auto& length : lengths) elements += length.value_or(0);
  std::vector<std::optional<int64_t>> xs;
  std::vector<bool> element_valid;
  for (int64_t e = 0; e < elements + 4; ++e) {
    xs.push_back(e % 5 == 2 ? std::nullopt : std::optional<int64_t>(e * 11));
    element_valid.push_back(e % 7 != 4);
  }
  TestArray element =
      testing::Slice(testing::Struct("item", elements + 4,
                                     {Primitive<int64_t>("l", "x", xs),
                                      testing::Strings("u", "y", MixedStrings(elements + 4))},
                                     element_valid),
                     4, elements);
  TestArray lists = testing::ListOfLengths("p", element, lengths);
  std::vector<std::optional<double>> values;
  for (int64_t e = 0; e < elements; ++e)
    values.push_back(e % 3 == 0 ? std::nullopt : std::optional<double>(e));
  std::vector<int64_t> offsets{0};
  for (const auto& length : lengths) offsets.push_back(offsets.back() + length.value_or(0));
  std::vector<std::optional<std::string>> keys;
  for (int64_t e = 0; e < elements; ++e) keys.push_back(Text(static_cast<size_t>(1 + e % 30), 'k'));
  TestArray map = testing::Map("m", testing::Strings("u", "key", keys),
                               Primitive<double>("g", "value", values), offsets);
  ExpectDepthFirstMatchesReference(Batch({lists, map}));
}

TEST(DepthFirst, ValuesThatNeedAConversion) {
  // Timestamps and durations in s, ms and ns (ns floor-divided, negative
  // ones included), date64 (negative days, an odd count of 4-byte elements)
  // and decimals of 32, 64 and 128 bits, as struct fields, list elements
  // and map values.
  const int64_t n = 30;
  std::vector<std::optional<int64_t>> seconds, millis, nanos, dates;
  std::vector<std::optional<testing::Int128>> small, wide;
  for (int64_t i = 0; i < n; ++i) {
    const bool null = i % 6 == 4;
    seconds.push_back(null ? std::nullopt : std::optional<int64_t>((i - 15) * 86399));
    millis.push_back(null ? std::nullopt : std::optional<int64_t>((i - 11) * 1000003));
    nanos.push_back(i % 7 == 2 ? std::nullopt : std::optional<int64_t>((i - 13) * 1000001 - 7));
    dates.push_back(i % 5 == 3 ? std::nullopt
                               : std::optional<int64_t>((i - 17) * 86400000 + 5 - 3 * i));
    small.push_back(null ? std::nullopt : std::optional<testing::Int128>((i - 9) * 12345));
    wide.push_back(i % 4 == 1 ? std::nullopt
                              : std::optional<testing::Int128>((i - 20) * 999999999999LL));
  }
  TestArray fields = testing::Struct(
      "s", n,
      {Primitive<int64_t>("tss:", "seconds", seconds), Primitive<int64_t>("tDm", "millis", millis),
       testing::Decimal("small", 32, 9, 2, small)},
      std::vector<bool>(static_cast<size_t>(n), true));
  std::vector<std::optional<int64_t>> lengths;
  for (int64_t i = 0; i < 10; ++i)
    lengths.push_back(i % 4 == 3 ? std::nullopt : std::optional<int64_t>(i % 3 + 1));
  int64_t elements = 0;
  for (const auto& length : lengths) elements += length.value_or(0);
  auto take = [](std::vector<std::optional<int64_t>> values, int64_t count) {
    values.resize(static_cast<size_t>(count));
    return values;
  };
  TestArray date_lists =
      testing::ListOfLengths("d", Primitive<int64_t>("tdm", "e", take(dates, elements)), lengths);
  TestArray nano_lists = testing::ListOfLengths(
      "t", Primitive<int64_t>("tsn:UTC", "e", take(nanos, elements)), lengths);
  std::vector<int64_t> offsets{0};
  for (const auto& length : lengths) offsets.push_back(offsets.back() + length.value_or(0));
  std::vector<std::optional<std::string>> keys;
  for (int64_t k = 0; k < offsets.back(); ++k)
    keys.push_back(Text(static_cast<size_t>(3 + k % 9), 'k'));
  std::vector<std::optional<testing::Int128>> map_values(wide.begin(),
                                                         wide.begin() + offsets.back());
  TestArray map = testing::Map("m", testing::Strings("u", "key", keys),
                               testing::Decimal("value", 128, 18, 4, map_values), offsets);
  TestArray rows = testing::Slice(fields, 20, 10);
  ExpectDepthFirstMatchesReference(Batch({rows, date_lists, nano_lists, map}));
}

/// A boolean array of `values` whose null elements hold a set value bit
/// (garbage that must not reach the rows).
TestArray BoolsWithGarbage(const std::string& name,
                           const std::vector<std::optional<bool>>& values) {
  TestArray array = testing::Bool(name, values);
  testing::Bytes& bits = *array.buffers[1];
  for (size_t k = 0; k < values.size(); ++k) {
    if (!values[k].has_value()) bits[k / 8] = static_cast<uint8_t>(bits[k / 8] | (1u << (k % 8)));
  }
  return array;
}

TEST(DepthFirst, BooleansAsFieldsElementsAndMapValues) {
  // Booleans are bits in Arrow and one byte per element in an
  // UnsafeArrayData (8 in a struct's slot): arrays of 1, 7, 8, 9, 56, 64 and
  // 65 of them (one and two null words, the slow null-word path past 56),
  // null elements, null arrays, bit offsets that are not multiples of 8
  // (sliced children and a sliced struct), set value bits under nulls.
  const std::vector<std::optional<int64_t>> lengths = {1, 7, std::nullopt, 8, 0, 9, 56, 64, 65, 3};
  int64_t elements = 0;
  for (const auto& length : lengths) elements += length.value_or(0);
  std::vector<std::optional<bool>> bits;
  for (int64_t k = 0; k < elements + 5; ++k) {
    bits.push_back(k % 7 == 2 ? std::nullopt : std::optional<bool>((k * 5 + k / 3) % 3 == 0));
  }
  const int64_t n = static_cast<int64_t>(lengths.size());
  TestArray flags = testing::ListOfLengths(
      "flags", testing::Slice(BoolsWithGarbage("e", bits), 3, elements), lengths);
  std::vector<std::optional<bool>> fields;
  std::vector<std::optional<std::string>> names;
  for (int64_t i = 0; i < n + 11; ++i) {
    fields.push_back(i % 4 == 1 ? std::nullopt : std::optional<bool>(i % 3 != 0));
    names.push_back(i % 5 == 4
                        ? std::nullopt
                        : std::optional<std::string>(Text(static_cast<size_t>(1 + i % 13), 'n')));
  }
  TestArray record = testing::Slice(
      testing::Struct("r", n + 11,
                      {BoolsWithGarbage("active", fields), testing::Strings("u", "name", names)},
                      [&] {
                        std::vector<bool> valid;
                        for (int64_t i = 0; i < n + 11; ++i) valid.push_back(i % 6 != 5);
                        return valid;
                      }()),
      11, n);
  std::vector<int64_t> offsets{0};
  for (int64_t i = 0; i < n; ++i) offsets.push_back(offsets.back() + i % 4);
  std::vector<std::optional<std::string>> keys;
  std::vector<std::optional<bool>> values;
  for (int64_t k = 0; k < offsets.back(); ++k) {
    keys.push_back(Text(static_cast<size_t>(2 + k % 5), 'k'));
    values.push_back(k % 3 == 1 ? std::nullopt : std::optional<bool>(k % 2 == 0));
  }
  TestArray map = testing::Map("m", testing::Strings("u", "key", keys),
                               BoolsWithGarbage("value", values), offsets);
  ExpectDepthFirstMatchesReference(Batch({record, flags, map}));
  ExpectDepthFirstMatchesReference(Batch({flags}));
}

/// Large decimals of 1 to 16 big-endian bytes, both signs and zero, every
/// fifth one null.
std::vector<std::optional<testing::Int128>> LargeDecimals(int64_t count, int32_t digits) {
  std::vector<std::optional<testing::Int128>> values;
  testing::Int128 limit = 1;
  for (int32_t d = 0; d < digits; ++d) limit *= 10;
  for (int64_t i = 0; i < count; ++i) {
    testing::Int128 v = 1;
    for (int64_t shift = 0; shift < i % 17; ++shift) v = v * 183 + 7;  // 1 to ~16 bytes
    v %= limit;
    if (i % 3 == 1) v = -v;
    if (i % 11 == 4) v = 0;
    values.push_back(i % 5 == 3 ? std::nullopt : std::optional<testing::Int128>(v));
  }
  return values;
}

TEST(DepthFirst, LargeDecimalsAsFieldsElementsAndMapValues) {
  // A struct field reserves 16 bytes, null or not (a null keeps its offset
  // in the slot); an array element takes round8(length), a null one none;
  // uint64 is decimal(20,0).
  const int64_t n = 24;
  std::vector<std::optional<uint64_t>> unsigned_values;
  for (int64_t i = 0; i < n + 2; ++i) {
    unsigned_values.push_back(i % 4 == 2 ? std::nullopt
                                         : std::optional<uint64_t>(~uint64_t{0} / (i + 1)));
  }
  std::vector<bool> valid;
  for (int64_t i = 0; i < n + 2; ++i) valid.push_back(i % 7 != 6);
  TestArray fields =
      testing::Slice(testing::Struct("s", n + 2,
                                     {testing::Decimal("d", 128, 38, 4, LargeDecimals(n + 2, 38)),
                                      testing::Strings("u", "t", MixedStrings(n + 2)),
                                      Primitive<uint64_t>("L", "u", unsigned_values)},
                                     valid),
                     2, n);
  std::vector<std::optional<int64_t>> lengths;
  for (int64_t i = 0; i < n; ++i)
    lengths.push_back(i % 6 == 5 ? std::nullopt : std::optional<int64_t>(i % 10));
  int64_t elements = 0;
  for (const auto& length : lengths) elements += length.value_or(0);
  TestArray lists = testing::ListOfLengths(
      "a",
      testing::Slice(testing::Decimal("e", 128, 38, 10, LargeDecimals(elements + 3, 38)), 3,
                     elements),
      lengths);
  TestArray records = testing::ListOfLengths(
      "r",
      testing::Struct(
          "e", elements,
          {testing::Decimal("x", 256, 30, 2, LargeDecimals(elements, 30)),
           Primitive<int64_t>("l", "y", std::vector<std::optional<int64_t>>(elements, -5))}),
      lengths);
  std::vector<int64_t> offsets{0};
  for (int64_t i = 0; i < n; ++i) offsets.push_back(offsets.back() + i % 3);
  std::vector<std::optional<std::string>> keys;
  for (int64_t k = 0; k < offsets.back(); ++k)
    keys.push_back(Text(static_cast<size_t>(1 + k % 7), 'k'));
  TestArray map = testing::Map(
      "m", testing::Strings("u", "key", keys),
      testing::Decimal("value", 128, 20, 0, LargeDecimals(offsets.back(), 20)), offsets);
  ExpectDepthFirstMatchesReference(Batch({fields, lists, records, map}));
  ExpectDepthFirstMatchesReference(Batch({lists}));
}

/// Converts `batch` with the depth-first writer forced: an error holding
/// `message` when the bad value is `live`, else the reference's rows.
void ExpectErrorWhenLiveElseReferenceRows(const TestArray& batch, bool live,
                                          const std::string& message) {
  ConverterOptions options = testing::TestConverterOptions();
  options.nested_writer = NestedWriter::kDepthFirst;
  testing::Conversion conversion = testing::Convert(batch, options);
  if (live) {
    EXPECT_FALSE(conversion.status.ok());
    EXPECT_NE(conversion.status.message().find(message), std::string::npos)
        << conversion.status.message();
    return;
  }
  testing::ReferenceRows reference = testing::ReferenceConvert(batch);
  ASSERT_TRUE(conversion.status.ok()) << conversion.status.message();
  ASSERT_EQ(conversion.rows.size(), reference.rows.size());
  for (size_t r = 0; r < reference.rows.size(); ++r) {
    EXPECT_EQ(testing::Hex(conversion.rows[r]), testing::Hex(reference.rows[r])) << "row " << r;
  }
}

TEST(DepthFirst, LargeDecimalBeyondItsPrecisionIsAnErrorOrWrittenWhenDead) {
  // 10^19 has 20 digits: the tile goes to the level-by-level writer, which
  // names it when the value is live and writes the row when it lies under
  // a null list.
  const testing::Int128 too_wide = testing::Int128{10000000000000000000ULL};
  for (const bool live : {true, false}) {
    SCOPED_TRACE(live ? "live" : "under a null list");
    TestArray lists =
        testing::ListOfLengths("a", testing::Decimal("e", 128, 19, 0, {1, too_wide, 3}),
                               {1, live ? std::optional<int64_t>(2) : std::nullopt});
    TestArray batch = Batch({lists, testing::Strings("u", "z", MixedStrings(2))});
    ExpectErrorWhenLiveElseReferenceRows(batch, live, "does not fit precision 19");
  }
}

TEST(DepthFirst, ValueThatDoesNotConvertIsAnErrorOrConvertedWhenDead) {
  // 10^18 seconds overflows int64 microseconds: the tile goes to the
  // level-by-level writer, which names it when the value is live and
  // writes the row when it lies under a null struct.
  const int64_t n = 4;
  std::vector<std::optional<int64_t>> seconds{1, 2, int64_t{1000000000000000000}, 4};
  for (const bool live : {true, false}) {
    SCOPED_TRACE(live ? "live" : "under a null struct");
    TestArray fields = testing::Struct("s", n, {Primitive<int64_t>("tss:", "seconds", seconds)},
                                       {true, true, live, true});
    TestArray batch = Batch({fields, testing::Strings("u", "z", MixedStrings(n))});
    ExpectErrorWhenLiveElseReferenceRows(batch, live, "overflows int64 microseconds");
  }
}

TEST(DepthFirst, SlicedAtEveryLevel) {
  const int64_t n = 30;
  std::vector<std::optional<int64_t>> lengths;
  for (int64_t i = 0; i < n + 3; ++i)
    lengths.push_back(i % 6 == 2 ? std::nullopt : std::optional<int64_t>(i % 4));
  int64_t elements = 0;
  for (const auto& length : lengths) elements += length.value_or(0);
  TestArray strings =
      testing::Slice(testing::Strings("u", "e", MixedStrings(elements + 2)), 2, elements);
  TestArray lists = testing::Slice(testing::ListOfLengths("a", strings, lengths), 3, n);
  TestArray fields = testing::Slice(
      testing::Struct("s", n + 1,
                      {testing::Slice(Primitive<int32_t>(
                                          "i", "a", std::vector<std::optional<int32_t>>(n + 4, 9)),
                                      3, n + 1),
                       testing::Strings("u", "b", MixedStrings(n + 1))}),
      1, n);
  ExpectDepthFirstMatchesReference(Batch({lists, fields}));
}

/// Whether converting `batch` under `choice` with the kernels of `isa`
/// writes depth-first tiles.
bool TakesDepthFirst(const TestArray& batch, NestedWriter choice, row::KernelIsa isa) {
  ConverterOptions options;
  options.kernels = row::KernelsOf(isa);
  options.nested_writer = choice;
  testing::Conversion conversion = testing::Convert(batch, options);
  EXPECT_TRUE(conversion.status.ok()) << conversion.status.message();
  const bool took = conversion.stats.depth_first_tiles > 0;
  EXPECT_EQ(conversion.stats.nested_writer,
            took ? NestedWriter::kDepthFirst : NestedWriter::kLevels);
  return took;
}

TEST(DepthFirst, TakenByDefaultForTwoOrMoreColumnsOrArraysOfVariableUnconvertedValues) {
  const int64_t n = 20;
  std::vector<std::optional<int64_t>> lengths;
  for (int64_t i = 0; i < n; ++i)
    lengths.push_back(i % 5 == 1 ? std::nullopt : std::optional<int64_t>(i % 3));
  int64_t elements = 0;
  for (const auto& length : lengths) elements += length.value_or(0);
  auto ints = [&] {
    return testing::ListOfLengths(
        "a", Primitive<int32_t>("i", "e", std::vector<std::optional<int32_t>>(elements, 4)),
        lengths);
  };
  TestArray strings = testing::Strings("u", "s", MixedStrings(n));
  TestArray numbers = Primitive<int64_t>("l", "x", std::vector<std::optional<int64_t>>(n, 7));
  TestArray fields = testing::Struct("s", n, {numbers, strings});
  TestArray texts =
      testing::ListOfLengths("t", testing::Strings("u", "e", MixedStrings(elements)), lengths);
  TestArray records = testing::ListOfLengths(
      "r",
      testing::Struct(
          "e", elements,
          {Primitive<int64_t>("l", "x", std::vector<std::optional<int64_t>>(elements, 3))}),
      lengths);
  const std::vector<int64_t> map_offsets = {0, 2, 2, 3};
  auto stamps = [&] {
    return testing::Map("m", testing::Strings("u", "k", {"a", "bc", "d"}),
                        Primitive<int64_t>("tsm:", "v", {1000, std::nullopt, -1}), map_offsets,
                        {true, false, true});
  };
  using Choice = NestedWriter;
  for (row::KernelIsa isa : row::kKernelIsas) {
    if (!row::KernelIsaAvailable(isa)) continue;
    SCOPED_TRACE(std::string(row::KernelIsaName(isa)) + " kernels");
    // Under AVX2 only the depth-first writer has vector kernels: it takes
    // every eligible schema.
    const bool single_columns = isa == row::KernelIsa::kAvx2;
    // One nested column (flat columns beside it are written by slot
    // writers) of fixed-width elements, or of none.
    EXPECT_EQ(TakesDepthFirst(Batch({ints(), numbers}), Choice::kAuto, isa), single_columns);
    EXPECT_TRUE(TakesDepthFirst(Batch({ints(), numbers}), Choice::kDepthFirst, isa));
    EXPECT_EQ(TakesDepthFirst(Batch({fields}), Choice::kAuto, isa), single_columns);
    // One nested column with an array of strings or structs at any depth.
    EXPECT_TRUE(TakesDepthFirst(Batch({texts, numbers}), Choice::kAuto, isa));
    EXPECT_FALSE(TakesDepthFirst(Batch({texts, numbers}), Choice::kLevels, isa));
    EXPECT_TRUE(TakesDepthFirst(Batch({testing::Struct("w", n, {records})}), Choice::kAuto, isa));
    // ... unless values in it need a conversion (a map of timestamps in
    // ms); beside another string or nested column it takes the depth-first
    // writer.
    EXPECT_EQ(TakesDepthFirst(Batch({stamps()}), Choice::kAuto, isa), single_columns);
    EXPECT_TRUE(TakesDepthFirst(Batch({stamps()}), Choice::kDepthFirst, isa));
    EXPECT_TRUE(
        TakesDepthFirst(Batch({stamps(), testing::Strings("u", "s", {"x", std::nullopt, "zz"})}),
                        Choice::kAuto, isa));
    // A nested column and a string column, two nested columns.
    EXPECT_TRUE(TakesDepthFirst(Batch({ints(), strings}), Choice::kAuto, isa));
    EXPECT_TRUE(TakesDepthFirst(Batch({ints(), numbers, ints()}), Choice::kAuto, isa));
    EXPECT_FALSE(TakesDepthFirst(Batch({ints(), ints()}), Choice::kLevels, isa));
    // Strings alone never: the plan needs a nested column.
    EXPECT_FALSE(TakesDepthFirst(Batch({strings, testing::Strings("u", "t", MixedStrings(n))}),
                                 Choice::kAuto, isa));
  }
}

}  // namespace
}  // namespace rowbridge
