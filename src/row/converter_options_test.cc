// The converter options that pick the kernels and the nested writer
// (ConverterOptions::kernels, ::nested_writer; their C twins): each choice
// writes the reference writer's bytes, a forced nested writer is the one that
// runs, and a choice this build or CPU cannot honour is a named error.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "row/kernel_isa.hpp"
#include "row/row_layout.hpp"
#include "rowbridge/converter.hpp"
#include "rowbridge/rowbridge.h"
#include "support/reference_row_writer.hpp"
#include "support/row_test_util.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge {
namespace {

using testing::TestArray;

/// A list of strings beside a string column: a schema both nested writers
/// and every kernel set take.
TestArray NestedBatch() {
  const int64_t n = 40;
  std::vector<std::optional<int64_t>> lengths;
  std::vector<std::optional<std::string>> words;
  for (int64_t i = 0; i < n; ++i) {
    lengths.push_back(i % 7 == 3 ? std::nullopt : std::optional<int64_t>(i % 4));
  }
  int64_t elements = 0;
  for (const auto& length : lengths) elements += length.value_or(0);
  for (int64_t e = 0; e < elements; ++e) {
    words.push_back(e % 5 == 2
                        ? std::nullopt
                        : std::optional<std::string>(std::string(static_cast<size_t>(e % 23),
                                                                 static_cast<char>('a' + e % 26))));
  }
  std::vector<std::optional<std::string>> names;
  for (int64_t i = 0; i < n; ++i) names.push_back("name-" + std::to_string(i * 7919));
  return testing::Batch({testing::ListOfLengths("t", testing::Strings("u", "e", words), lengths),
                         testing::Strings("u", "s", names)});
}

TEST(ConverterOptions, EveryKernelAndNestedWriterWritesTheReferenceBytes) {
  const TestArray batch = NestedBatch();
  const testing::ReferenceRows reference = testing::ReferenceConvert(batch);
  ASSERT_EQ(reference.error, "");
  int64_t kernel_sets = 0;
  for (row::KernelIsa isa : row::kKernelIsas) {
    if (!row::KernelIsaAvailable(isa)) continue;
    ++kernel_sets;
    for (NestedWriter writer :
         {NestedWriter::kAuto, NestedWriter::kDepthFirst, NestedWriter::kLevels}) {
      SCOPED_TRACE(std::string(row::KernelIsaName(isa)) + " kernels, nested writer " +
                   std::to_string(static_cast<int>(writer)));
      ConverterOptions options;
      options.kernels = row::KernelsOf(isa);
      options.nested_writer = writer;
      testing::Conversion conversion = testing::Convert(batch, options);
      const int64_t tiles = conversion.stats.depth_first_tiles;
      ASSERT_TRUE(conversion.status.ok()) << conversion.status.message();
      ASSERT_EQ(testing::RowsHex(conversion).size(), reference.rows.size());
      for (size_t r = 0; r < reference.rows.size(); ++r) {
        ASSERT_EQ(testing::Hex(conversion.rows[r]), testing::Hex(reference.rows[r])) << "row " << r;
      }
      if (writer == NestedWriter::kDepthFirst) {
        EXPECT_GT(tiles, 0);
      }
      if (writer == NestedWriter::kLevels) {
        EXPECT_EQ(tiles, 0);
      }
    }
  }
  EXPECT_GE(kernel_sets, 1);
}

TEST(ConverterOptions, ThePlanKeepsTheKernelsItWasCompiledWith) {
  const TestArray batch = NestedBatch();
  std::unique_ptr<testing::ExportedBatch> exported = testing::ExportBatch(batch);
  for (row::KernelIsa isa : row::kKernelIsas) {
    if (!row::KernelIsaAvailable(isa)) continue;
    ConverterOptions options;
    options.kernels = row::KernelsOf(isa);
    std::shared_ptr<const RowPlan> plan;
    ASSERT_TRUE(RowPlan::Compile(exported->schema.schema, options, &plan).ok());
    EXPECT_EQ(plan->impl().isa, isa) << row::KernelIsaName(isa);
    EXPECT_EQ(plan->kernels(), options.kernels) << row::KernelIsaName(isa);
  }
  // kAuto compiles the best set the CPU runs, and says which.
  row::KernelIsa best;
  ASSERT_TRUE(row::ResolveKernels(Kernels::kAuto, &best).ok());
  std::shared_ptr<const RowPlan> plan;
  ASSERT_TRUE(RowPlan::Compile(exported->schema.schema, ConverterOptions(), &plan).ok());
  EXPECT_EQ(plan->kernels(), row::KernelsOf(best));
}

/// A single column of lists of int32: the depth-first writer covers it, but
/// kAuto leaves it to the level-by-level writer (unless under AVX2).
TestArray IntLists() {
  const int64_t n = 40;
  std::vector<std::optional<int64_t>> lengths;
  for (int64_t i = 0; i < n; ++i) {
    lengths.push_back(i % 6 == 1 ? std::nullopt : std::optional<int64_t>(i % 5));
  }
  int64_t elements = 0;
  for (const auto& length : lengths) elements += length.value_or(0);
  std::vector<std::optional<int32_t>> values;
  for (int64_t e = 0; e < elements; ++e) values.push_back(static_cast<int32_t>(e * 31));
  return testing::Batch(
      {testing::ListOfLengths("a", testing::Primitive<int32_t>("i", "e", values), lengths)});
}

TEST(ConverterOptions, TheStatsNameTheWriterAndCountItsTiles) {
  std::unique_ptr<testing::ExportedBatch> exported = testing::ExportBatch(NestedBatch());
  ConverterOptions options;
  options.nested_writer = NestedWriter::kDepthFirst;
  std::unique_ptr<Converter> converter;
  ASSERT_TRUE(Converter::Make(exported->schema.schema, options, &converter).ok());
  EXPECT_EQ(converter->stats().nested_writer, NestedWriter::kDepthFirst);
  EXPECT_EQ(converter->stats().depth_first_tiles, 0);
  testing::Conversion first = testing::Drain(*converter, exported->array.array);
  ASSERT_TRUE(first.status.ok()) << first.status.message();
  EXPECT_EQ(first.stats.depth_first_tiles, 1);  // 40 rows: one tile
  testing::Conversion second = testing::Drain(*converter, exported->array.array);
  EXPECT_EQ(second.stats.depth_first_tiles, 2);  // counted since the converter was made
  // Another converter counts its own; one of flat columns only never runs
  // the depth-first writer, whatever it was asked.
  options.nested_writer = NestedWriter::kLevels;
  testing::Conversion levels = testing::Convert(NestedBatch(), options);
  EXPECT_EQ(levels.stats.nested_writer, NestedWriter::kLevels);
  EXPECT_EQ(levels.stats.depth_first_tiles, 0);
  options.nested_writer = NestedWriter::kDepthFirst;
  testing::Conversion flat = testing::Convert(
      testing::Batch({testing::Strings("u", "s", {"a", std::nullopt, "bcd"})}), options);
  EXPECT_EQ(flat.stats.nested_writer, NestedWriter::kLevels);
  EXPECT_EQ(flat.stats.depth_first_tiles, 0);
}

// The test binary's own flags (tests/support/test_main.cpp) reach the
// converters the helpers make: a forced writer runs where kAuto would pick
// the other one, and forced kernels compile the plan. ctest runs this suite
// under each flag (tests/CMakeLists.txt).
TEST(ConverterOptions, TheTestBinaryFlagsReachTheHelpersConverters) {
  const testing::ForcedChoices& forced = testing::Forced();
  const testing::Conversion two = testing::Convert(NestedBatch());
  const testing::Conversion one = testing::Convert(IntLists());
  ASSERT_TRUE(two.status.ok()) << two.status.message();
  ASSERT_TRUE(one.status.ok()) << one.status.message();
  switch (forced.nested_writer) {
    case NestedWriter::kDepthFirst:
      EXPECT_EQ(one.stats.nested_writer, NestedWriter::kDepthFirst);
      EXPECT_GT(one.stats.depth_first_tiles, 0);
      break;
    case NestedWriter::kLevels:
      EXPECT_EQ(two.stats.nested_writer, NestedWriter::kLevels);
      EXPECT_EQ(two.stats.depth_first_tiles, 0);
      break;
    case NestedWriter::kAuto:
      EXPECT_EQ(two.stats.nested_writer, NestedWriter::kDepthFirst);
      EXPECT_GT(two.stats.depth_first_tiles, 0);
      break;
  }
  row::KernelIsa best;
  ASSERT_TRUE(row::ResolveKernels(Kernels::kAuto, &best).ok());
  const Kernels expected = forced.kernels == Kernels::kAuto ? row::KernelsOf(best) : forced.kernels;
  EXPECT_EQ(two.kernels, expected);
  EXPECT_EQ(one.kernels, expected);
}

TEST(ConverterOptions, KernelsTheBuildOrCpuLacksAreANamedError) {
  std::unique_ptr<testing::ExportedBatch> exported = testing::ExportBatch(NestedBatch());
  for (row::KernelIsa isa : row::kKernelIsas) {
    ConverterOptions options;
    options.kernels = row::KernelsOf(isa);
    std::unique_ptr<Converter> converter;
    Status status = Converter::Make(exported->schema.schema, options, &converter);
    if (row::KernelIsaAvailable(isa)) {
      EXPECT_TRUE(status.ok()) << status.message();
    } else {
      EXPECT_TRUE(testing::IsError(status, StatusCode::kInvalid,
                                   {row::KernelIsaName(isa), "does not run them"}));
    }
  }
  ConverterOptions unknown;
  unknown.kernels = static_cast<Kernels>(17);
  std::unique_ptr<Converter> converter;
  EXPECT_TRUE(testing::IsError(Converter::Make(exported->schema.schema, unknown, &converter),
                               StatusCode::kInvalid, {"unknown kernels option 17"}));
  ConverterOptions bad_writer;
  bad_writer.nested_writer = static_cast<NestedWriter>(9);
  EXPECT_TRUE(testing::IsError(Converter::Make(exported->schema.schema, bad_writer, &converter),
                               StatusCode::kInvalid, {"unknown nested writer 9"}));
}

TEST(ConverterOptions, TheCApiTakesAndChecksBothChoices) {
  std::unique_ptr<testing::ExportedBatch> exported = testing::ExportBatch(NestedBatch());
  RowbridgeConverterOptions options;
  rowbridge_converter_options_init(&options);
  EXPECT_EQ(options.kernels, ROWBRIDGE_KERNELS_AUTO);
  EXPECT_EQ(options.nested_writer, ROWBRIDGE_NESTED_WRITER_AUTO);
  RowbridgeError error{};
  RowbridgeConverter* converter = nullptr;
  options.kernels = ROWBRIDGE_KERNELS_PORTABLE;
  options.nested_writer = ROWBRIDGE_NESTED_WRITER_LEVELS;
  ASSERT_EQ(rowbridge_converter_new(&exported->schema.schema, &options, &converter, &error),
            ROWBRIDGE_OK)
      << error.message;
  rowbridge_converter_free(converter);
  converter = nullptr;
  options.kernels = 42;
  EXPECT_EQ(rowbridge_converter_new(&exported->schema.schema, &options, &converter, &error),
            ROWBRIDGE_EINVAL);
  EXPECT_EQ(converter, nullptr);
  EXPECT_NE(std::string(error.message).find("unknown kernels 42"), std::string::npos)
      << error.message;
  options.kernels = ROWBRIDGE_KERNELS_AUTO;
  options.nested_writer = -1;
  EXPECT_EQ(rowbridge_converter_new(&exported->schema.schema, &options, &converter, &error),
            ROWBRIDGE_EINVAL);
  EXPECT_NE(std::string(error.message).find("unknown nested_writer -1"), std::string::npos)
      << error.message;
}

}  // namespace
}  // namespace rowbridge
