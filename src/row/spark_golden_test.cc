// Converts the Arrow inputs of the Spark-made golden vectors (tests/golden,
// written by tools/golden-spark with Spark's own UnsafeProjection) and
// compares every row byte for byte.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "row/nested/depth_first/depth_first.hpp"
#include "rowbridge/converter.hpp"
#include "support/golden_json.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

void CompareEveryCase() {
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
    Status status = Converter::Make(schema.schema, {}, &converter);
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
    ++compared;
  }
  EXPECT_GE(compared, 75);
}

TEST(SparkGolden, EveryCaseMatchesSparkByteForByte) { CompareEveryCase(); }

// Nested cases whose shapes the depth-first writer covers take it here.
TEST(SparkGolden, EveryCaseMatchesSparkWithTheDepthFirstWriter) {
  struct DepthFirstWriter {
    DepthFirstWriter() { row::OverrideDepthFirstForTesting(true); }
    ~DepthFirstWriter() { row::ClearDepthFirstOverrideForTesting(); }
  } depth_first_writer;
  const int64_t tiles_before = row::DepthFirstTilesForTesting();
  CompareEveryCase();
  EXPECT_GT(row::DepthFirstTilesForTesting(), tiles_before);
}

}  // namespace
}  // namespace rowbridge
