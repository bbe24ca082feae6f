// The row decoder on rows Spark itself wrote (tests/golden, CONTRACTS.md §2's
// types flat, derived and nested): each case's UnsafeRows, decoded with the
// decoder of its Spark schema and converted back by the converter, must be
// Spark's bytes again, so the arrays hold exactly the values Spark's rows do.
#include <gtest/gtest.h>

#include "rowbridge/converter.hpp"
#include "rowbridge/row_decoder.hpp"
#include "support/golden_json.hpp"
#include "support/row_test_util.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge {
namespace {

using json = nlohmann::json;

TEST(RowDecoderGolden, SparksRowsDecodeToArraysThatConvertBackToThem) {
  std::vector<testing::GoldenCase> cases = testing::LoadGoldenCases();
  ASSERT_GE(cases.size(), 75u) << "golden vectors missing under " << testing::GoldenDir();
  int compared = 0;
  for (const testing::GoldenCase& golden_case : cases) {
    SCOPED_TRACE(golden_case.path.string());
    const json& golden = golden_case.golden;
    testing::OwnedSchema schema;
    testing::ExportSchema(golden_case.batch, &schema.schema);
    std::shared_ptr<const RowPlan> plan;
    Status status = RowPlan::Compile(schema.schema, &plan);
    ASSERT_TRUE(status.ok()) << status.message();

    // Spark's rows, packed as a RowBatchView lays them out.
    testing::Bytes data;
    std::vector<int64_t> offsets{0};
    for (const json& row : golden.at("rows")) {
      testing::Bytes bytes = testing::FromHex(row.get<std::string>());
      data.insert(data.end(), bytes.begin(), bytes.end());
      offsets.push_back(static_cast<int64_t>(data.size()));
    }
    const int64_t num_rows = static_cast<int64_t>(offsets.size()) - 1;
    std::unique_ptr<RowDecoder> decoder;
    status = RowDecoder::Make(plan->spark_schema(), &decoder);
    ASSERT_TRUE(status.ok()) << status.message();
    testing::OwnedArray decoded;
    status = decoder->Decode(data.data(), offsets.data(), num_rows, &decoded.array);
    ASSERT_TRUE(status.ok()) << status.message();

    testing::OwnedSchema decoded_schema;
    ASSERT_TRUE(decoder->ExportSchema(&decoded_schema.schema).ok());
    std::unique_ptr<Converter> converter;
    status =
        Converter::Make(decoded_schema.schema, ConverterOptions{Validation::kFull}, &converter);
    ASSERT_TRUE(status.ok()) << status.message();
    testing::Conversion again = testing::Drain(*converter, decoded.array, nullptr);
    ASSERT_TRUE(again.status.ok()) << again.status.message();
    ASSERT_EQ(static_cast<int64_t>(again.rows.size()), num_rows);
    for (int64_t r = 0; r < num_rows; ++r) {
      EXPECT_EQ(testing::Hex(again.rows[static_cast<size_t>(r)]),
                testing::Hex(data.data() + offsets[static_cast<size_t>(r)],
                             static_cast<size_t>(offsets[static_cast<size_t>(r) + 1] -
                                                 offsets[static_cast<size_t>(r)])))
          << "row " << r;
    }
    ++compared;
  }
  EXPECT_GE(compared, 75);
}

}  // namespace
}  // namespace rowbridge
