// Randomized differential test: random schemas (every flat type; plain,
// dictionary-encoded and run-end encoded columns; sliced batches, columns,
// dictionaries and run-end children; in 40 % of the iterations, struct, list
// and map columns up to four levels deep, see support/random_nested.hpp),
// random lengths, nulls, strings and
// extreme values, converted by the library (random validation level, random
// small chunk caps, schema re-encoding between batches) and compared byte for
// byte with the independent reference writer, errors included.
//
// Iterations alternate the byte-copying kernels this machine runs (odd seeds
// use the AVX-512 kernels when available, even ones the portable kernels).
//
// ROWBRIDGE_TEST_SEED sets the seed (iteration i uses seed + i; rerun one with
// ROWBRIDGE_TEST_SEED=<seed + i> ROWBRIDGE_RANDOM_ITERATIONS=1) and
// ROWBRIDGE_RANDOM_ITERATIONS the number of schemas (default 300).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>

#include "rowbridge/converter.hpp"
#include "support/random_columns.hpp"
#include "support/random_iteration.hpp"
#include "support/random_nested.hpp"
#include "support/reference_row_writer.hpp"
#include "support/row_test_util.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge {
namespace {

using testing::Bytes;
using testing::ColumnSpec;
using testing::EncodingSpec;
using testing::EnvOr;
using testing::Int128;
using testing::IterationOptions;
using testing::Rng;
using testing::TestArray;

constexpr uint64_t kDefaultSeed = 0x5eed2024;

/// The rows or error the library must produce for `reference` with `cap`.
struct Outcome {
  size_t good_rows = 0;  // rows returned before any error
  StatusCode code = StatusCode::kOk;
  int64_t capacity_row = -1;
  std::vector<testing::ReferenceCell> cells;  // overflow: the error names one of these
};

Outcome Expect(const testing::ReferenceRows& reference, int64_t cap) {
  Outcome out;
  const auto& rows = reference.rows;
  size_t i = 0;
  while (i < rows.size()) {
    if (static_cast<int64_t>(rows[i].size()) > cap) {
      out.code = StatusCode::kCapacity;
      out.capacity_row = static_cast<int64_t>(i);
      break;
    }
    size_t j = i;
    int64_t total = 0;
    while (j < rows.size() && total + static_cast<int64_t>(rows[j].size()) <= cap)
      total += static_cast<int64_t>(rows[j++].size());
    // A chunk holding an overflowing value fails as a whole; the order in
    // which its cells are written is the library's choice.
    for (const testing::ReferenceCell& cell : reference.overflows) {
      if (cell.row >= static_cast<int64_t>(i) && cell.row < static_cast<int64_t>(j))
        out.cells.push_back(cell);
    }
    if (!out.cells.empty()) {
      out.code = StatusCode::kOverflow;
      break;
    }
    i = j;
  }
  out.good_rows = i;
  return out;
}

/// Succeeds when `message` names one of `cells` as "'column' ... row R:".
::testing::AssertionResult NamesACell(const std::string& message,
                                      const std::vector<testing::ReferenceCell>& cells,
                                      const std::vector<std::string>& names) {
  for (const testing::ReferenceCell& cell : cells) {
    // A value nested in the column is named by its path, "'column.field...'".
    std::string row = "row " + std::to_string(cell.row) + ":";
    for (const char* end : {"'", "."}) {
      std::string column = "'" + names[static_cast<size_t>(cell.column)] + end;
      size_t at = message.find(column);
      if (at != std::string::npos && message.find(row, at) != std::string::npos)
        return ::testing::AssertionSuccess();
    }
  }
  return ::testing::AssertionFailure()
         << "'" << message << "' names none of the " << cells.size()
         << " overflowing cells, the first being column " << (cells.empty() ? -1 : cells[0].column)
         << " row " << (cells.empty() ? -1 : cells[0].row);
}

/// Flat columns that leave a schema in the depth-first writer's reach:
/// strings (plain) and every type written in the slot alone.
const std::vector<std::string>& DepthFirstFlatFormats() {
  static const std::vector<std::string> kFormats = {
      "n",   "b",   "c",    "C",    "s",    "S",   "i",   "I", "l", "L", "f", "g",
      "tdD", "tdm", "tss:", "tsn:", "tsu:", "tDu", "tiM", "u", "U", "z", "Z"};
  return kFormats;
}

bool IsStringFormat(const std::string& format) {
  return format == "u" || format == "U" || format == "z" || format == "Z";
}

/// One randomized batch sequence. `depth_first_shapes` draws schemas the
/// depth-first writer covers (nested in every iteration). Adds the tiles the
/// depth-first writer wrote to `*depth_first_tiles`.
void RunIteration(uint64_t seed, bool depth_first_shapes, int64_t* depth_first_tiles) {
  Rng rng(seed);
  int64_t num_columns = rng.Chance(0.05) ? rng.Range(60, 80) : rng.Range(1, 12);
  bool overflow_schema = rng.Chance(0.1);
  std::vector<ColumnSpec> specs;
  for (int64_t c = 0; c < num_columns; ++c) {
    ColumnSpec spec;
    spec.name = "c" + std::to_string(c);
    spec.format = depth_first_shapes ? rng.Pick(DepthFirstFlatFormats()) : RandomFormat(rng);
    spec.null_rate = rng.Pick(std::vector<double>{0, 0, 0.1, 0.5, 0.95});
    spec.nullable = spec.null_rate > 0 || spec.format == "n" || rng.Chance(0.5);
    spec.extremes = overflow_schema && rng.Chance(0.3);
    specs.push_back(spec);
  }
  bool reencode = rng.Chance(0.25) && !depth_first_shapes;
  std::vector<EncodingSpec> encodings;
  for (int64_t c = 0; c < num_columns; ++c) {
    encodings.push_back(RandomEncoding(rng));
    if (depth_first_shapes && IsStringFormat(specs[static_cast<size_t>(c)].format))
      encodings.back() = {};
  }
  // Nested columns draw from a stream of their own, so that the flat columns
  // of an iteration without them stay what they were.
  Rng nested_rng(seed * 0x9e3779b97f4a7c15ull + 0x4e);
  const bool nested_iteration = nested_rng.Chance(0.4) || depth_first_shapes;
  std::vector<std::optional<testing::TypeSpec>> nested(static_cast<size_t>(num_columns));
  std::string nested_description;
  for (int64_t c = 0; nested_iteration && c < num_columns; ++c) {
    if (!nested_rng.Chance(0.5) && !(depth_first_shapes && c == 0)) continue;
    nested[static_cast<size_t>(c)] = testing::RandomNestedSpec(
        nested_rng, specs[static_cast<size_t>(c)].name, static_cast<int>(nested_rng.Range(1, 4)),
        overflow_schema, depth_first_shapes);
    nested_description += " " + specs[static_cast<size_t>(c)].name + "=" +
                          testing::DescribeSpec(*nested[static_cast<size_t>(c)]);
  }

  ConverterOptions options = IterationOptions(depth_first_shapes ? seed & ~uint64_t{2} : seed);
  options.validation = rng.Chance(0.5) ? Validation::kFull : Validation::kCheap;
  int64_t num_batches = rng.Range(1, 3);
  std::unique_ptr<Converter> converter;
  std::unique_ptr<testing::ExportedBatch> registered;
  for (int64_t b = 0; b < num_batches; ++b) {
    int64_t length = rng.Chance(0.1) ? rng.Range(0, 1) : rng.Range(0, 300);
    if (nested_iteration) length = std::min<int64_t>(length, 150);
    int64_t batch_offset = rng.Chance(0.25) ? rng.Range(1, 30) : 0;
    int64_t extra = batch_offset > 0 ? rng.Range(0, 5) : 0;
    if (reencode) {
      for (auto& encoding : encodings) encoding = RandomEncoding(rng);
      for (auto& spec : nested) {
        if (spec) testing::RandomizeEncodings(nested_rng, &*spec);
      }
    }
    std::vector<TestArray> columns;
    for (int64_t c = 0; c < num_columns; ++c) {
      const auto& nested_spec = nested[static_cast<size_t>(c)];
      columns.push_back(
          nested_spec
              ? testing::MakeNestedColumn(nested_rng, *nested_spec, batch_offset + length + extra)
              : MakeColumn(rng, specs[static_cast<size_t>(c)], encodings[static_cast<size_t>(c)],
                           batch_offset + length + extra));
    }
    TestArray batch = testing::Batch(std::move(columns));
    if (batch_offset + extra > 0) batch = testing::Slice(batch, batch_offset, length);
    testing::ReferenceRows reference = testing::ReferenceConvert(batch);
    ASSERT_EQ(reference.error, "") << testing::DescribeBatch(batch);

    if (converter == nullptr) {
      int64_t largest = 8;
      for (const Bytes& row : reference.rows)
        largest = std::max(largest, static_cast<int64_t>(row.size()));
      if (rng.Chance(0.4)) options.max_chunk_bytes = rng.Range(largest, 4 * largest);
      else if (rng.Chance(0.1)) options.max_chunk_bytes = rng.Range(8, largest);
      TestArray schema = testing::SchemaNode("+s", "");
      for (size_t c = 0; c < specs.size(); ++c) {
        TestArray plain = nested[c] ? testing::PlainSchema(*nested[c])
                                    : testing::SchemaNode(specs[c].format, specs[c].name);
        if (!nested[c]) plain.nullable = specs[c].nullable;
        schema.children.push_back(plain);
      }
      registered = testing::ExportBatch(reencode ? schema : batch);
      Status status = Converter::Make(registered->schema.schema, options, &converter);
      ASSERT_TRUE(status.ok()) << status.message();
    }
    Outcome expected = Expect(reference, options.max_chunk_bytes);
    SCOPED_TRACE("batch " + std::to_string(b) + " " + testing::DescribeBatch(batch) +
                 nested_description + "; cap " + std::to_string(options.max_chunk_bytes) +
                 ", validation " + std::to_string(static_cast<int>(options.validation)) +
                 (reencode ? ", re-encoding" : ""));
    auto exported = testing::ExportBatch(batch);
    bool pass_schema = reencode || rng.Chance(0.5);
    testing::Conversion actual = testing::Drain(*converter, exported->array.array,
                                                pass_schema ? &exported->schema.schema : nullptr);
    if (expected.code == StatusCode::kOk) {
      ASSERT_TRUE(actual.status.ok()) << actual.status.message();
    } else if (expected.code == StatusCode::kCapacity) {
      ASSERT_TRUE(testing::IsError(actual.status, StatusCode::kCapacity,
                                   {"row " + std::to_string(expected.capacity_row) + " "}));
    } else {
      ASSERT_EQ(actual.status.code(), StatusCode::kOverflow) << actual.status.message();
      std::vector<std::string> names;
      for (const ColumnSpec& spec : specs) names.push_back(spec.name);
      ASSERT_TRUE(NamesACell(actual.status.message(), expected.cells, names));
    }
    ASSERT_EQ(actual.rows.size(), expected.good_rows) << actual.status.message();
    for (size_t r = 0; r < expected.good_rows; ++r) {
      ASSERT_EQ(testing::Hex(actual.rows[r]), testing::Hex(reference.rows[r])) << "row " << r;
    }
  }
  *depth_first_tiles += converter->stats().depth_first_tiles;
}

TEST(RandomDifferential, LibraryMatchesTheReferenceWriter) {
  uint64_t seed = EnvOr("ROWBRIDGE_TEST_SEED", kDefaultSeed);
  uint64_t iterations = EnvOr("ROWBRIDGE_RANDOM_ITERATIONS", 300);
  RecordProperty("seed", std::to_string(seed));
  for (uint64_t i = 0; i < iterations; ++i) {
    SCOPED_TRACE("ROWBRIDGE_TEST_SEED=" + std::to_string(seed + i) + " (seed " +
                 std::to_string(seed) + ", iteration " + std::to_string(i) + ")");
    testing::TrackIterationSeed(seed + i);
    int64_t depth_first_tiles = 0;
    RunIteration(seed + i, false, &depth_first_tiles);
    if (HasFailure()) break;
  }
}

// Schemas the depth-first writer covers, so that most of their tiles take it
// (the rest take the level-by-level writer: chunk caps below a tile's bound).
TEST(RandomDifferential, DepthFirstWriterMatchesTheReferenceWriter) {
  uint64_t seed = EnvOr("ROWBRIDGE_TEST_SEED", kDefaultSeed);
  uint64_t iterations = EnvOr("ROWBRIDGE_RANDOM_ITERATIONS", 300);
  RecordProperty("seed", std::to_string(seed));
  int64_t depth_first_tiles = 0;
  for (uint64_t i = 0; i < iterations; ++i) {
    SCOPED_TRACE("ROWBRIDGE_TEST_SEED=" + std::to_string(seed + i) + " (seed " +
                 std::to_string(seed) + ", iteration " + std::to_string(i) + ")");
    testing::TrackIterationSeed(seed + i);
    RunIteration(seed + i, true, &depth_first_tiles);
    if (HasFailure()) break;
  }
  std::printf("depth-first tiles: %lld of %llu iterations\n",
              static_cast<long long>(depth_first_tiles),
              static_cast<unsigned long long>(iterations));
  EXPECT_GE(depth_first_tiles, static_cast<int64_t>(iterations) / 2)
      << "too few tiles took the depth-first writer for this test to cover it";
}

// The reference writer itself, on hand-computed rows (CONTRACTS.md §3).
TEST(ReferenceRowWriter, AgreesWithHandComputedBytes) {
  TestArray batch = testing::Batch({
      testing::Primitive<int32_t>("i", "a", {-1, std::nullopt}),
      testing::Strings("u", "s", {"abcdefghi", ""}),
      testing::Decimal("d", 128, 38, 0, {-129, std::nullopt}),
      testing::MonthDayNano("iv", {std::nullopt, testing::MonthDayNanoValue{1, 2, -1}}),
  });
  testing::ReferenceRows reference = testing::ReferenceConvert(batch);
  ASSERT_EQ(reference.error, "");
  ASSERT_EQ(reference.rows.size(), 2u);
  EXPECT_EQ(testing::Hex(reference.rows[0]),
            testing::CleanHex("0800000000000000"  // null bits: iv
                              "ffffffff00000000"  // a = -1
                              "0900000028000000"  // s: 9 bytes at 40
                              "0200000038000000"  // d: 2 bytes at 56
                              "1000000048000000"  // iv: 16 bytes at 72
                              "6162636465666768"  // "abcdefgh"
                              "6900000000000000"  // "i"
                              "ff7f000000000000"  // d = ff 7f
                              "0000000000000000"  //
                              "0000000000000000"  // iv null: zeros
                              "0000000000000000"));
  EXPECT_EQ(testing::Hex(reference.rows[1]),
            testing::CleanHex("0500000000000000"     // null bits: a, d
                              "0000000000000000"     // a null
                              "0000000028000000"     // s: empty at 40
                              "0000000028000000"     // d null at 40
                              "1000000038000000"     // iv at 56
                              "0000000000000000"     // d: 16 zero bytes
                              "0000000000000000"     //
                              "0100000002000000"     // months 1, days 2
                              "0000000000000000"));  // -1 ns -> 0 us (toward zero)
  TestArray overflow =
      testing::Batch({testing::Primitive<int64_t>("tss:", "t", {1, int64_t{1} << 62})});
  reference = testing::ReferenceConvert(overflow);
  ASSERT_EQ(reference.overflows.size(), 1u);
  EXPECT_EQ(reference.overflows[0].row, 1);
}

}  // namespace
}  // namespace rowbridge
