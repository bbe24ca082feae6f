// A batch of nested columns long enough for many tiles and spans converts
// to the same rows whole, one row at a time, and cut into small chunks
// (which end inside tiles and spans), at both validation levels.
#include <gtest/gtest.h>

#include "rowbridge/converter.hpp"
#include "support/row_test_util.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge {
namespace {

using testing::Primitive;
using testing::TestArray;

class Sequence {
 public:
  uint32_t Next() {
    state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(state_ >> 33);
  }
  bool OneIn(uint32_t n) { return Next() % n == 0; }
  int64_t Below(int64_t n) { return static_cast<int64_t>(Next() % static_cast<uint32_t>(n)); }
  std::string Text() {
    return std::string(static_cast<size_t>(Below(20)), static_cast<char>('a' + Below(26)));
  }

 private:
  uint64_t state_ = 42;
};

std::vector<std::optional<int64_t>> Lengths(Sequence& seq, int64_t n, int64_t max, int64_t* total) {
  std::vector<std::optional<int64_t>> lengths;
  *total = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (seq.OneIn(8)) {
      lengths.push_back(std::nullopt);
    } else {
      lengths.push_back(seq.Below(max + 1));
      *total += *lengths.back();
    }
  }
  return lengths;
}

std::vector<std::optional<std::string>> Texts(Sequence& seq, int64_t n) {
  std::vector<std::optional<std::string>> out;
  for (int64_t i = 0; i < n; ++i)
    out.push_back(seq.OneIn(9) ? std::nullopt : std::optional<std::string>(seq.Text()));
  return out;
}

template <typename T>
std::vector<std::optional<T>> Numbers(Sequence& seq, int64_t n) {
  std::vector<std::optional<T>> out;
  for (int64_t i = 0; i < n; ++i)
    out.push_back(seq.OneIn(7) ? std::nullopt : std::optional<T>(static_cast<T>(seq.Next())));
  return out;
}

std::vector<bool> Validity(Sequence& seq, int64_t n) {
  std::vector<bool> valid;
  for (int64_t i = 0; i < n; ++i) valid.push_back(!seq.OneIn(10));
  return valid;
}

TestArray LongNestedBatch(int64_t rows) {
  Sequence seq;
  TestArray s = testing::Struct("s", rows,
                                {Primitive<int64_t>("l", "a", Numbers<int64_t>(seq, rows)),
                                 testing::Strings("u", "b", Texts(seq, rows))},
                                Validity(seq, rows));
  int64_t total = 0;
  auto lengths = Lengths(seq, rows, 9, &total);
  TestArray ints = testing::ListOfLengths(
      "i", Primitive<int32_t>("i", "", Numbers<int32_t>(seq, total)), lengths);
  int64_t entries = 0;
  auto map_lengths = Lengths(seq, rows, 4, &entries);
  int64_t inner_total = 0;
  auto inner_lengths = Lengths(seq, entries, 3, &inner_total);
  std::vector<std::optional<std::string>> keys;
  for (int64_t i = 0; i < entries; ++i) keys.push_back("k" + std::to_string(i));
  TestArray inner = testing::ListOfLengths(
      "", Primitive<int16_t>("s", "", Numbers<int16_t>(seq, inner_total)), inner_lengths);
  std::vector<int64_t> map_offsets{0};
  std::vector<bool> map_valid;
  for (const auto& length : map_lengths) {
    map_offsets.push_back(map_offsets.back() + length.value_or(0));
    map_valid.push_back(length.has_value());
  }
  TestArray m = testing::Map("m", testing::Strings("u", "", keys), inner, map_offsets, map_valid);
  int64_t struct_total = 0;
  auto struct_lengths = Lengths(seq, rows, 6, &struct_total);
  TestArray points =
      testing::Struct("", struct_total,
                      {Primitive<double>("g", "x", Numbers<double>(seq, struct_total)),
                       testing::Strings("u", "y", Texts(seq, struct_total))},
                      Validity(seq, struct_total));
  TestArray p = testing::ListOfLengths("p", points, struct_lengths);
  return testing::Batch({s, ints, m, p});
}

TEST(NestedChunking, WholeRowByRowAndChunkedAgree) {
  const int64_t rows = 1500;
  TestArray batch = LongNestedBatch(rows);
  for (const Validation validation : {Validation::kCheap, Validation::kFull}) {
    ConverterOptions options = testing::TestConverterOptions();
    options.validation = validation;
    testing::Conversion whole = testing::Convert(batch, options);
    ASSERT_TRUE(whole.status.ok()) << whole.status.message();
    ASSERT_EQ(whole.rows.size(), static_cast<size_t>(rows));

    auto exported = testing::ExportBatch(batch);
    std::unique_ptr<Converter> converter;
    ASSERT_TRUE(Converter::Make(exported->schema.schema, options, &converter).ok());
    ArrowArray& array = exported->array.array;
    for (int64_t r = 0; r < rows; r += 7) {
      array.offset = r;
      array.length = 1;
      testing::Conversion one = testing::Drain(*converter, array);
      ASSERT_TRUE(one.status.ok()) << one.status.message();
      ASSERT_EQ(one.rows.size(), 1u);
      ASSERT_EQ(testing::Hex(one.rows[0]), testing::Hex(whole.rows[static_cast<size_t>(r)]))
          << "row " << r;
    }
    array.offset = 0;
    array.length = rows;

    for (int64_t cap : {int64_t{2000}, int64_t{5000}, int64_t{70000}}) {
      ConverterOptions chunked = options;
      chunked.max_chunk_bytes = cap;
      std::unique_ptr<Converter> small;
      ASSERT_TRUE(Converter::Make(exported->schema.schema, chunked, &small).ok());
      testing::Conversion pieces = testing::Drain(*small, array);
      ASSERT_TRUE(pieces.status.ok()) << pieces.status.message();
      ASSERT_EQ(pieces.rows.size(), static_cast<size_t>(rows));
      EXPECT_GT(pieces.chunk_rows.size(), 1u);
      for (int64_t r = 0; r < rows; ++r) {
        ASSERT_EQ(testing::Hex(pieces.rows[static_cast<size_t>(r)]),
                  testing::Hex(whole.rows[static_cast<size_t>(r)]))
            << "row " << r << " cap " << cap;
      }
    }
  }
}

}  // namespace
}  // namespace rowbridge
