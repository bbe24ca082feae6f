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
#include "row/nested/depth_first/depth_first.hpp"
#include "row/row_layout.hpp"
#include "rowbridge/converter.hpp"
#include "rowbridge/rowbridge.h"
#include "support/reference_row_writer.hpp"
#include "support/row_test_util.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge {
namespace {

using testing::TestArray;

Kernels KernelsOf(row::KernelIsa isa) {
  switch (isa) {
    case row::KernelIsa::kAvx2: return Kernels::kAvx2;
    case row::KernelIsa::kAvx512: return Kernels::kAvx512;
    default: return Kernels::kPortable;
  }
}

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
      options.kernels = KernelsOf(isa);
      options.nested_writer = writer;
      const int64_t tiles_before = row::DepthFirstTilesForTesting();
      testing::Conversion conversion = testing::Convert(batch, options);
      const int64_t tiles = row::DepthFirstTilesForTesting() - tiles_before;
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
    options.kernels = KernelsOf(isa);
    std::shared_ptr<const RowPlan> plan;
    ASSERT_TRUE(RowPlan::Compile(exported->schema.schema, options, &plan).ok());
    EXPECT_EQ(plan->impl().isa, isa) << row::KernelIsaName(isa);
  }
}

TEST(ConverterOptions, KernelsTheBuildOrCpuLacksAreANamedError) {
  std::unique_ptr<testing::ExportedBatch> exported = testing::ExportBatch(NestedBatch());
  for (row::KernelIsa isa : row::kKernelIsas) {
    ConverterOptions options;
    options.kernels = KernelsOf(isa);
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
