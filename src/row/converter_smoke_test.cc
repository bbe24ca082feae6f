#include <gtest/gtest.h>

#include "rowbridge/converter.hpp"
#include "support/row_test_util.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge {
namespace {

using testing::Hex;
using testing::OwnedArray;
using testing::OwnedSchema;

TEST(ConverterSmoke, RecordSchema) {
  auto batch = testing::Batch({
      testing::Primitive<int64_t>("l", "a", {1, std::nullopt}),
      testing::Primitive<int32_t>("i", "b", {-1, 2}),
      testing::Primitive<double>("g", "c", {0.5, -0.0}),
      testing::Strings("u", "d", {"value_0", std::nullopt}),
  });
  OwnedSchema schema;
  OwnedArray array;
  testing::ExportSchema(batch, &schema.schema);
  testing::ExportArray(batch, &array.array);
  std::unique_ptr<Converter> converter;
  ASSERT_TRUE(Converter::Make(schema.schema, testing::TestConverterOptions(), &converter).ok());
  EXPECT_EQ(converter->plan().spark_schema().ToString(),
            "struct<a:bigint,b:int,c:double,d:string>");
  RowBatchView view;
  Status status = converter->Convert(array.array, &view);
  ASSERT_TRUE(status.ok()) << status.message();
  ASSERT_EQ(view.num_rows, 2);
  EXPECT_EQ(view.row_offsets[1], 48);
  EXPECT_EQ(view.row_offsets[2], 88);
  EXPECT_EQ(Hex(view.data, 48),
            "0000000000000000"
            "0100000000000000"
            "ffffffff00000000"
            "000000000000e03f"
            "0700000028000000"
            "76616c75655f3000");
  EXPECT_EQ(Hex(view.data + 48, 40),
            "0900000000000000"
            "0000000000000000"
            "0200000000000000"
            "0000000000000080"
            "0000000000000000");
}

}  // namespace
}  // namespace rowbridge
