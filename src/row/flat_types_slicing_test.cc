// Sliced inputs (batch offset, column offsets, validity bit offsets that are
// not multiples of 8) against the unsliced equivalent; the registered_batch()
// path against exported arrays; and a column's encoding changing between
// batches (plain, dictionary, run-end) with and without the batch schema.
#include <gtest/gtest.h>

#include <map>

#include "rowbridge/converter.hpp"
#include "support/row_test_util.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge {
namespace {

using testing::Batch;
using testing::Bytes;
using testing::Convert;
using testing::Int128;
using testing::IsError;
using testing::Primitive;
using testing::Slice;
using testing::TestArray;

// Logical row i (possibly negative: rows before a slice) of each column.
std::optional<int32_t> IntAt(int64_t i) {
  if (i % 5 == 3) return std::nullopt;
  return static_cast<int32_t>(i * 1000003 % 65537);
}
std::optional<bool> BoolAt(int64_t i) {
  if (i % 7 == 2) return std::nullopt;
  return (i * 13) % 3 == 0;
}
std::optional<std::string> StringAt(int64_t i) {
  if (i % 4 == 1) return std::nullopt;
  int64_t n = ((i % 19) + 19) % 19;
  return std::string(static_cast<size_t>(n), static_cast<char>('a' + ((i % 26) + 26) % 26));
}
std::optional<Int128> DecimalAt(int64_t i) {
  if (i % 6 == 5) return std::nullopt;
  return static_cast<Int128>(i) * 1234567890123456789LL * 1000;
}
std::optional<testing::MonthDayNanoValue> IntervalAt(int64_t i) {
  if (i % 3 == 0) return std::nullopt;
  return testing::MonthDayNanoValue{static_cast<int32_t>(i), static_cast<int32_t>(-i), i * -1001};
}
int64_t RunOf(int64_t i) { return i >= 0 ? i / 3 : -((-i + 2) / 3); }
std::optional<std::string> RunValueAt(int64_t i) {
  int64_t run = RunOf(i);
  if (((run % 4) + 4) % 4 == 2) return std::nullopt;
  return "run-value-" + std::to_string(run);
}

template <typename T, typename F>
std::vector<std::optional<T>> Values(int64_t first, int64_t count, F f) {
  std::vector<std::optional<T>> out;
  for (int64_t i = first; i < first + count; ++i) out.push_back(f(i));
  return out;
}

/// Run-end encodes `values` (consecutive equal values form one run).
TestArray RunEncode(const std::string& name,
                    const std::vector<std::optional<std::string>>& values) {
  std::vector<std::optional<int32_t>> ends;
  std::vector<std::optional<std::string>> run_values;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0 && values[i] == values[i - 1]) {
      ends.back() = static_cast<int32_t>(i + 1);
    } else {
      ends.push_back(static_cast<int32_t>(i + 1));
      run_values.push_back(values[i]);
    }
  }
  return testing::RunEnd(name, static_cast<int64_t>(values.size()),
                         Primitive<int32_t>("i", "", ends), testing::Strings("u", "", run_values));
}

/// Columns holding logical rows [first, first + count). Column j is built
/// from rows [first - pads[j], first + count) and sliced by pads[j].
std::vector<TestArray> Columns(int64_t first, int64_t count, const std::vector<int64_t>& pads) {
  auto pad = [&](size_t j) { return pads.empty() ? 0 : pads[j]; };
  auto build = [&](size_t j, auto make) {
    int64_t p = pad(j);
    TestArray column = make(first - p, count + p);
    return p == 0 ? column : Slice(column, p, count);
  };
  std::vector<TestArray> columns;
  columns.push_back(build(0, [](int64_t f, int64_t n) {
    return Primitive<int32_t>("i", "i", Values<int32_t>(f, n, IntAt));
  }));
  columns.push_back(build(
      1, [](int64_t f, int64_t n) { return testing::Bool("b", Values<bool>(f, n, BoolAt)); }));
  columns.push_back(build(2, [](int64_t f, int64_t n) {
    return testing::Strings("u", "s", Values<std::string>(f, n, StringAt));
  }));
  columns.push_back(build(3, [](int64_t f, int64_t n) {
    return testing::Strings("Z", "lb", Values<std::string>(f, n, StringAt));
  }));
  columns.push_back(build(4, [](int64_t f, int64_t n) {
    return testing::Views("vu", "v", Values<std::string>(f, n, StringAt), 32);
  }));
  columns.push_back(build(5, [](int64_t f, int64_t n) {
    auto values = Values<std::string>(f, n, StringAt);
    for (auto& v : values)
      if (v) v->resize(5, '.');
    return testing::FixedSizeBinary("fsb", 5, values);
  }));
  columns.push_back(build(6, [](int64_t f, int64_t n) {
    return testing::Decimal("dec", 128, 38, 3, Values<Int128>(f, n, DecimalAt));
  }));
  columns.push_back(build(7, [](int64_t f, int64_t n) {
    return testing::MonthDayNano("iv", Values<testing::MonthDayNanoValue>(f, n, IntervalAt));
  }));
  columns.push_back(build(8, [](int64_t f, int64_t n) {
    return RunEncode("ree", Values<std::string>(f, n, RunValueAt));
  }));
  columns.push_back(build(9, [](int64_t f, int64_t n) {
    std::vector<std::optional<int16_t>> indices;
    for (int64_t i = f; i < f + n; ++i) {
      indices.push_back(i % 6 == 4
                            ? std::nullopt
                            : std::optional<int16_t>(static_cast<int16_t>(((i % 5) + 5) % 5)));
    }
    // The dictionary itself is sliced by one: index 0 is "d0".
    auto values =
        Slice(testing::Strings("u", "",
                               {"unused", "d0", "d1", std::nullopt, "d3-longer-than-twelve", "d4"}),
              1, 5);
    return testing::Dictionary(Primitive<int16_t>("s", "dict", indices), values);
  }));
  return columns;
}

void ExpectSameRows(const testing::Conversion& actual, const testing::Conversion& expected) {
  ASSERT_TRUE(expected.status.ok()) << expected.status.message();
  ASSERT_TRUE(actual.status.ok()) << actual.status.message();
  ASSERT_EQ(actual.rows.size(), expected.rows.size());
  for (size_t i = 0; i < expected.rows.size(); ++i) {
    EXPECT_EQ(testing::Hex(actual.rows[i]), testing::Hex(expected.rows[i])) << "row " << i;
  }
}

TEST(SlicedInput, ColumnOffsetsMatchTheUnslicedBatch) {
  for (int64_t pad : {1, 3, 7, 8, 9, 13, 64}) {
    SCOPED_TRACE("pad " + std::to_string(pad));
    std::vector<int64_t> pads;
    for (int j = 0; j < 10; ++j) pads.push_back(pad + j);
    ExpectSameRows(Convert(Batch(Columns(0, 50, pads))), Convert(Batch(Columns(0, 50, {}))));
  }
}

TEST(SlicedInput, BatchOffsetMatchesTheUnslicedBatch) {
  for (int64_t offset : {1, 5, 8, 11, 30}) {
    SCOPED_TRACE("batch offset " + std::to_string(offset));
    TestArray sliced = Slice(Batch(Columns(0, 60, {})), offset, 60 - offset - 3);
    ExpectSameRows(Convert(sliced), Convert(Batch(Columns(offset, 60 - offset - 3, {}))));
  }
}

TEST(SlicedInput, BatchAndColumnOffsetsTogether) {
  std::vector<int64_t> pads = {3, 0, 5, 1, 9, 2, 6, 4, 10, 7};
  for (Validation validation : {Validation::kCheap, Validation::kFull}) {
    ConverterOptions options;
    options.validation = validation;
    TestArray sliced = Slice(Batch(Columns(0, 70, pads)), 13, 50);
    ExpectSameRows(Convert(sliced, options), Convert(Batch(Columns(13, 50, {})), options));
  }
}

TEST(SlicedInput, SlicedColumnsAreNotAllNull) {
  // Guards the fixtures: the columns above do mix values and nulls.
  testing::Conversion conversion = Convert(Batch(Columns(0, 50, {})));
  ASSERT_TRUE(conversion.status.ok()) << conversion.status.message();
  uint64_t any_null = 0;
  uint64_t all_null = ~uint64_t{0};
  for (const Bytes& row : conversion.rows) {
    uint64_t bits;
    std::memcpy(&bits, row.data(), 8);
    any_null |= bits;
    all_null &= bits;
  }
  EXPECT_EQ(any_null, (uint64_t{1} << 10) - 1);
  EXPECT_EQ(all_null, 0u);
}

/// The buffer lists the converter allocated for each registered node.
using OriginalBuffers = std::map<ArrowArray*, std::pair<const void**, int64_t>>;

void Remember(ArrowArray* node, OriginalBuffers* original) {
  (*original)[node] = {node->buffers, node->n_buffers};
  for (int64_t i = 0; i < node->n_children; ++i) Remember(node->children[i], original);
  if (node->dictionary != nullptr) Remember(node->dictionary, original);
}

/// Points the registered node `dst` at the buffers and children of `src`:
/// buffer addresses are written into the converter's own lists, except for
/// view types, whose variadic buffers need the caller's own list.
void Fill(ArrowArray* dst, const ArrowArray& src, const OriginalBuffers& original) {
  dst->length = src.length;
  dst->null_count = src.null_count;
  dst->offset = src.offset;
  auto [buffers, count] = original.at(dst);
  if (count == src.n_buffers) {
    dst->buffers = buffers;
    dst->n_buffers = count;
    for (int64_t i = 0; i < src.n_buffers; ++i) dst->buffers[i] = src.buffers[i];
  } else {
    dst->buffers = src.buffers;
    dst->n_buffers = src.n_buffers;
  }
  ASSERT_EQ(dst->n_children, src.n_children);
  for (int64_t i = 0; i < src.n_children; ++i) Fill(dst->children[i], *src.children[i], original);
  ASSERT_EQ(dst->dictionary != nullptr, src.dictionary != nullptr);
  if (src.dictionary != nullptr) Fill(dst->dictionary, *src.dictionary, original);
}

TEST(RegisteredBatch, MatchesTheExportedBatch) {
  auto first =
      testing::ExportBatch(Slice(Batch(Columns(0, 80, {2, 0, 3, 0, 1, 0, 5, 0, 0, 4})), 7, 70));
  auto second = testing::ExportBatch(Batch(Columns(100, 40, {})));
  std::unique_ptr<Converter> converter;
  ASSERT_TRUE(Converter::Make(first->schema.schema, {}, &converter).ok());
  ArrowArray* registered = converter->registered_batch();
  ASSERT_NE(registered, nullptr);
  EXPECT_EQ(registered, converter->registered_batch());  // the same array every time
  ASSERT_NE(registered->release, nullptr);
  ASSERT_EQ(registered->n_children, 10);
  OriginalBuffers original;
  Remember(registered, &original);
  for (auto* exported : {first.get(), second.get(), first.get()}) {
    testing::Conversion expected = testing::Drain(*converter, exported->array.array);
    Fill(registered, exported->array.array, original);
    testing::Conversion actual = testing::Drain(*converter, *registered);
    ExpectSameRows(actual, expected);
  }
}

TEST(RegisteredBatch, ShapeFollowsTheSchema) {
  auto exported = testing::ExportBatch(Batch(Columns(0, 4, {})));
  std::unique_ptr<Converter> converter;
  ASSERT_TRUE(Converter::Make(exported->schema.schema, {}, &converter).ok());
  ArrowArray* registered = converter->registered_batch();
  EXPECT_EQ(registered->n_buffers, 1);  // struct: validity only
  const int64_t buffers[] = {2, 2, 3, 3, 3, 2, 2, 2, 0, 2};
  for (int64_t i = 0; i < 10; ++i) {
    EXPECT_EQ(registered->children[i]->n_buffers, buffers[i]) << "column " << i;
  }
  EXPECT_EQ(registered->children[8]->n_children, 2);  // run ends and values
  EXPECT_NE(registered->children[9]->dictionary, nullptr);
  EXPECT_EQ(registered->children[9]->dictionary->n_buffers, 3);
}

// One logical column "s" (strings) in three encodings.
TestArray PlainStrings() {
  return testing::Strings("u", "s", {"x", "yy", std::nullopt, "yy", "x"});
}
TestArray DictionaryStrings() {
  return testing::Dictionary(Primitive<int8_t>("c", "s", {0, 1, std::nullopt, 1, 0}),
                             testing::Strings("u", "", {"x", "yy"}));
}
TestArray RunEndStrings() {
  return testing::RunEnd("s", 5, Primitive<int64_t>("l", "", {1, 2, 3, 4, 5}),
                         testing::Strings("u", "", {"x", "yy", std::nullopt, "yy", "x"}));
}
TestArray WithId(TestArray column) {
  return Batch({Primitive<int64_t>("l", "id", {1, 2, 3, 4, 5}), std::move(column)});
}

TEST(EncodingChange, PlainThenDictionaryThenRunEndGiveTheSameRows) {
  auto plain = testing::ExportBatch(WithId(PlainStrings()));
  auto dictionary = testing::ExportBatch(WithId(DictionaryStrings()));
  auto run_end = testing::ExportBatch(WithId(RunEndStrings()));
  std::unique_ptr<Converter> converter;
  ASSERT_TRUE(Converter::Make(plain->schema.schema, {}, &converter).ok());
  testing::Conversion reference = testing::Drain(*converter, plain->array.array);
  ASSERT_TRUE(reference.status.ok()) << reference.status.message();
  ASSERT_EQ(reference.rows.size(), 5u);
  EXPECT_EQ(testing::Hex(reference.rows[1]),
            testing::CleanHex("0000000000000000"     // null bits
                              "0200000000000000"     // id = 2
                              "0200000018000000"     // s: 2 bytes at 24
                              "7979000000000000"));  // "yy"
  auto convert_each = [&] {
    for (auto* exported :
         {dictionary.get(), run_end.get(), plain.get(), run_end.get(), dictionary.get()}) {
      ExpectSameRows(testing::Drain(*converter, exported->array.array, &exported->schema.schema),
                     reference);
    }
  };
  convert_each();
  // Each layout is compiled once and kept, with its scratch buffers: alternating grows nothing.
  const int64_t held = converter->buffer_bytes();
  convert_each();
  EXPECT_EQ(converter->buffer_bytes(), held);
  // A batch passed without its schema is read with the registered one, whatever came before.
  ExpectSameRows(testing::Drain(*converter, plain->array.array), reference);
  EXPECT_TRUE(IsError(testing::Drain(*converter, dictionary->array.array).status,
                      StatusCode::kInvalid,
                      {"'s'", "dictionary-encoded", "pass the batch's schema"}));
  ExpectSameRows(testing::Drain(*converter, dictionary->array.array, &dictionary->schema.schema),
                 reference);
  ExpectSameRows(testing::Drain(*converter, plain->array.array), reference);
}

TEST(EncodingChange, ArrayEncodedDifferentlyWithoutSchemaIsInvalid) {
  auto plain = testing::ExportBatch(WithId(PlainStrings()));
  auto dictionary = testing::ExportBatch(WithId(DictionaryStrings()));
  auto run_end = testing::ExportBatch(WithId(RunEndStrings()));
  for (auto* registered : {plain.get(), dictionary.get(), run_end.get()}) {
    for (auto* batch : {plain.get(), dictionary.get(), run_end.get()}) {
      if (batch == registered) continue;
      std::unique_ptr<Converter> converter;
      ASSERT_TRUE(Converter::Make(registered->schema.schema, {}, &converter).ok());
      testing::Conversion conversion = testing::Drain(*converter, batch->array.array);
      EXPECT_TRUE(IsError(conversion.status, StatusCode::kInvalid, {"'s'"}));
      EXPECT_TRUE(conversion.rows.empty());
      // The converter still works afterwards.
      ASSERT_TRUE(testing::Drain(*converter, registered->array.array).status.ok());
    }
  }
}

TEST(EncodingChange, SameSparkTypeFromAnotherLayoutIsAccepted) {
  auto plain = testing::ExportBatch(WithId(PlainStrings()));
  auto large = testing::ExportBatch(
      WithId(testing::Strings("U", "s", {"x", "yy", std::nullopt, "yy", "x"})));
  auto view =
      testing::ExportBatch(WithId(testing::Views("vu", "s", {"x", "yy", std::nullopt, "yy", "x"})));
  std::unique_ptr<Converter> converter;
  ASSERT_TRUE(Converter::Make(plain->schema.schema, {}, &converter).ok());
  testing::Conversion reference = testing::Drain(*converter, plain->array.array);
  ExpectSameRows(testing::Drain(*converter, large->array.array, &large->schema.schema), reference);
  ExpectSameRows(testing::Drain(*converter, view->array.array, &view->schema.schema), reference);
}

TEST(EncodingChange, AnotherSparkTypeIsInvalid) {
  auto plain = testing::ExportBatch(WithId(PlainStrings()));
  auto ints = testing::ExportBatch(WithId(Primitive<int32_t>("i", "s", {1, 2, 3, 4, 5})));
  auto binary = testing::ExportBatch(
      WithId(testing::Strings("z", "s", {"x", "yy", std::nullopt, "yy", "x"})));
  std::unique_ptr<Converter> converter;
  ASSERT_TRUE(Converter::Make(plain->schema.schema, {}, &converter).ok());
  EXPECT_TRUE(IsError(testing::Drain(*converter, ints->array.array, &ints->schema.schema).status,
                      StatusCode::kInvalid, {"'s'", "string", "int"}));
  EXPECT_TRUE(
      IsError(testing::Drain(*converter, binary->array.array, &binary->schema.schema).status,
              StatusCode::kInvalid, {"'s'", "binary"}));
  ASSERT_TRUE(testing::Drain(*converter, plain->array.array).status.ok());
}

}  // namespace
}  // namespace rowbridge
