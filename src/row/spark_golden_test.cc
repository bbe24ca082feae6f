// Converts the Arrow inputs of the Spark-made golden vectors (tests/golden,
// written by tools/golden-spark with Spark's own UnsafeProjection) and
// compares every row byte for byte.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "rowbridge/converter.hpp"
#include "support/golden_json.hpp"
#include "support/row_test_util.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

/// Converts every case with `options`; adds the tiles the depth-first writer
/// wrote to `*depth_first_tiles`.
void CompareEveryCase(const ConverterOptions& options, int64_t* depth_first_tiles) {
  std::vector<testing::GoldenCase> cases = testing::LoadGoldenCases();
  ASSERT_GE(cases.size(), 75u) << "golden vectors missing under " << testing::GoldenDir();
  int compared = 0;
  for (const testing::GoldenCase& golden_case : cases) {
    SCOPED_TRACE(golden_case.path.string());
    const json& golden = golden_case.golden;
    const testing::TestArray& batch = golden_case.batch;
    std::string spark_schema = golden.at("spark_schema").get<std::string>();
    testing::OwnedSchema schema;
    testing::OwnedArray array;
    testing::ExportSchema(batch, &schema.schema);
    testing::ExportArray(batch, &array.array);
    std::unique_ptr<Converter> converter;
    Status status = Converter::Make(schema.schema, options, &converter);
    ASSERT_TRUE(status.ok()) << status.message();
    EXPECT_EQ(converter->plan().spark_schema().ToString(), spark_schema);
    RowBatchView view;
    status = converter->Convert(array.array, &view);
    ASSERT_TRUE(status.ok()) << status.message();
    const json& rows = golden.at("rows");
    ASSERT_EQ(view.num_rows, static_cast<int64_t>(rows.size()));
    for (int64_t r = 0; r < view.num_rows; ++r) {
      testing::Bytes ours(view.data + view.row_offsets[r], view.data + view.row_offsets[r + 1]);
      testing::Bytes spark = testing::FromHex(rows[static_cast<size_t>(r)].get<std::string>());
      EXPECT_EQ(testing::Hex(ours.data(), ours.size()), testing::Hex(spark.data(), spark.size()))
          << "row " << r;
    }
    *depth_first_tiles += converter->stats().depth_first_tiles;
    testing::TallyForcedRun(options, *converter);
    ++compared;
  }
  EXPECT_GE(compared, 75);
}

TEST(SparkGolden, EveryCaseMatchesSparkByteForByte) {
  int64_t depth_first_tiles = 0;
  CompareEveryCase(testing::TestConverterOptions(), &depth_first_tiles);
}

// Nested cases whose shapes the depth-first writer covers take it here.
TEST(SparkGolden, EveryCaseMatchesSparkWithTheDepthFirstWriter) {
  ConverterOptions options = testing::TestConverterOptions();
  options.nested_writer = NestedWriter::kDepthFirst;
  int64_t depth_first_tiles = 0;
  CompareEveryCase(options, &depth_first_tiles);
  EXPECT_GT(depth_first_tiles, 0);
}

}  // namespace
}  // namespace rowbridge
