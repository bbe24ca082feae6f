// The C API of the row decoder: rows made by the C converter decoded back
// through the C ABI (the arrays converting to the same rows), the arrays
// outliving the decoder, the exported schema, errors and NULL arguments.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "rowbridge/rowbridge.h"
#include "support/row_test_util.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge {
namespace {

using testing::Bytes;
using testing::TestArray;

struct Handles {
  RowbridgeConverter* converter = nullptr;
  RowbridgeDecoder* decoder = nullptr;
  ~Handles() {
    rowbridge_converter_free(converter);
    rowbridge_decoder_free(decoder);
  }
};

TestArray Sample() {
  std::vector<std::optional<int64_t>> a;
  std::vector<std::optional<std::string>> s;
  for (int64_t i = 0; i < 50; ++i) {
    a.push_back(i % 7 == 0 ? std::nullopt : std::optional<int64_t>(i * 1000003));
    s.push_back(i % 5 == 0 ? std::nullopt
                           : std::optional<std::string>(std::string(static_cast<size_t>(i), 'x')));
  }
  return testing::Batch({testing::Primitive<int64_t>("l", "a", a), testing::Strings("u", "s", s)});
}

/// The rows of one conversion, copied.
struct Rows {
  Bytes data;
  std::vector<int64_t> offsets;
};

Rows ConvertWithC(RowbridgeConverter* converter, const testing::ExportedBatch& batch) {
  RowbridgeRowBatch view{};
  RowbridgeError error{};
  EXPECT_EQ(rowbridge_converter_convert(converter, &batch.array.array, nullptr, &view, &error),
            ROWBRIDGE_OK)
      << error.message;
  Rows rows;
  rows.data.assign(view.data, view.data + view.data_size);
  rows.offsets.assign(view.row_offsets, view.row_offsets + view.num_rows + 1);
  return rows;
}

TEST(CApiDecoder, DecodedArraysConvertToTheSameRows) {
  auto batch = testing::ExportBatch(Sample());
  Handles h;
  RowbridgeError error{};
  ASSERT_EQ(rowbridge_converter_new(&batch->schema.schema, nullptr, &h.converter, &error),
            ROWBRIDGE_OK);
  Rows rows = ConvertWithC(h.converter, *batch);

  ASSERT_EQ(rowbridge_decoder_new(&batch->schema.schema, &h.decoder, &error), ROWBRIDGE_OK)
      << error.message;
  testing::OwnedArray decoded;
  ASSERT_EQ(rowbridge_decoder_decode(h.decoder, rows.data.data(), rows.offsets.data(), 50,
                                     &decoded.array, &error),
            ROWBRIDGE_OK)
      << error.message;
  testing::OwnedSchema schema;
  ASSERT_EQ(rowbridge_decoder_schema(h.decoder, &schema.schema, &error), ROWBRIDGE_OK);
  EXPECT_EQ(std::string(schema.schema.children[1]->format), "u");
  // The arrays outlive the decoder.
  rowbridge_decoder_free(h.decoder);
  h.decoder = nullptr;
  EXPECT_EQ(decoded.array.children[0]->null_count, 8);
  EXPECT_EQ(decoded.array.children[1]->null_count, 10);

  RowbridgeConverter* again = nullptr;
  ASSERT_EQ(rowbridge_converter_new(&schema.schema, nullptr, &again, &error), ROWBRIDGE_OK);
  RowbridgeRowBatch view{};
  ASSERT_EQ(rowbridge_converter_convert(again, &decoded.array, nullptr, &view, &error),
            ROWBRIDGE_OK)
      << error.message;
  EXPECT_EQ(testing::Hex(view.data, static_cast<size_t>(view.data_size)), testing::Hex(rows.data));
  rowbridge_converter_free(again);
}

TEST(CApiDecoder, ErrorsAndNullArguments) {
  auto batch = testing::ExportBatch(Sample());
  Handles h;
  RowbridgeError error{};
  ASSERT_EQ(rowbridge_converter_new(&batch->schema.schema, nullptr, &h.converter, &error),
            ROWBRIDGE_OK);
  ASSERT_EQ(rowbridge_decoder_new(&batch->schema.schema, &h.decoder, &error), ROWBRIDGE_OK);
  Rows rows = ConvertWithC(h.converter, *batch);
  // Row 3's string slot pointed past the row.
  const int64_t slot = rows.offsets[3] + 16;
  const uint64_t bad = (uint64_t{4096} << 32) | 8;
  std::memcpy(rows.data.data() + slot, &bad, 8);
  testing::OwnedArray out;
  EXPECT_EQ(rowbridge_decoder_decode(h.decoder, rows.data.data(), rows.offsets.data(), 50,
                                     &out.array, &error),
            ROWBRIDGE_EINVAL);
  EXPECT_NE(std::string(error.message).find("field 's' row 3"), std::string::npos) << error.message;
  EXPECT_EQ(out.array.release, nullptr);

  EXPECT_EQ(rowbridge_decoder_decode(nullptr, rows.data.data(), rows.offsets.data(), 1, &out.array,
                                     &error),
            ROWBRIDGE_EINVAL);
  EXPECT_EQ(rowbridge_decoder_decode(h.decoder, nullptr, nullptr, 1, &out.array, &error),
            ROWBRIDGE_EINVAL);
  EXPECT_EQ(rowbridge_decoder_schema(nullptr, nullptr, &error), ROWBRIDGE_EINVAL);
  RowbridgeDecoder* decoder = reinterpret_cast<RowbridgeDecoder*>(1);
  EXPECT_EQ(rowbridge_decoder_new(nullptr, &decoder, &error), ROWBRIDGE_EINVAL);
  EXPECT_EQ(decoder, nullptr);

  TestArray unsupported = testing::SchemaNode("+s", "", {testing::SchemaNode("tsn:", "t")});
  testing::OwnedSchema schema;
  testing::ExportSchema(unsupported, &schema.schema);
  EXPECT_EQ(rowbridge_decoder_new(&schema.schema, &decoder, &error), ROWBRIDGE_ENOTSUP);
  EXPECT_NE(std::string(error.message).find("field 't'"), std::string::npos) << error.message;
  rowbridge_decoder_free(nullptr);
}

}  // namespace
}  // namespace rowbridge
