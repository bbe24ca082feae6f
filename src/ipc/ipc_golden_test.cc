// Cross-checks against a second producer: the Arrow IPC files of the Spark
// golden vectors (tests/golden/*/*.arrow, written by Arrow Java's
// ArrowFileWriter in tools/golden-spark) read to the same values as their
// JSON description, and convert to the same rows (or the same error) as the
// in-memory arrays that JSON describes.
#include <gtest/gtest.h>

#include <filesystem>

#include "rowbridge/ipc_reader.hpp"
#include "support/ipc_test_support.hpp"

namespace rowbridge::ipc {
namespace {

using testing::json;
namespace fs = std::filesystem;
namespace t = rowbridge::testing;

/// Converts `batch` with a fresh converter; returns the status and rows.
Status Convert(const ArrowSchema& schema, const ArrowArray& batch, testing::ConvertedRows* rows) {
  ConverterOptions options;
  options.validation = Validation::kFull;
  std::unique_ptr<Converter> converter;
  ROWBRIDGE_RETURN_NOT_OK(Converter::Make(schema, options, &converter));
  return testing::ConvertAll(converter.get(), batch, rows);
}

TEST(IpcGolden, JavaWrittenFilesMatchTheirJson) {
  size_t files = 0;
  for (const fs::path& arrow_path : t::GoldenFiles(".arrow")) {
    SCOPED_TRACE(arrow_path.string());
    fs::path json_path = arrow_path;
    json_path.replace_extension(".json");
    json golden = json::parse(testing::ReadTextFile(json_path.string()));
    t::TestArray expected = t::GoldenToTestArray(golden["schema"], golden["batch"]);
    t::OwnedSchema expected_schema;
    t::OwnedArray expected_array;
    t::ExportSchema(expected, &expected_schema.schema);
    t::ExportArray(expected, &expected_array.array);

    std::unique_ptr<IpcReader> reader;
    Status status = IpcReader::Open(arrow_path.string(), {}, &reader);
    ASSERT_TRUE(status.ok()) << status.message();
    EXPECT_EQ(reader->format(), IpcFormat::kFile);
    t::OwnedSchema schema;
    ASSERT_TRUE(reader->ExportSchema(&schema.schema).ok());
    json described = testing::DescribeSchema(schema.schema);
    json expected_described = testing::DescribeSchema(expected_schema.schema);
    ASSERT_EQ(described["children"].size(), expected_described["children"].size());
    for (size_t c = 0; c < described["children"].size(); ++c) {
      EXPECT_EQ(described["children"][c]["format"], expected_described["children"][c]["format"]);
      EXPECT_EQ(described["children"][c]["name"], expected_described["children"][c]["name"]);
    }
    t::OwnedArray batch;
    bool end = false;
    status = reader->ReadNext(&batch.array, &end);
    ASSERT_TRUE(status.ok()) << status.message();
    ASSERT_FALSE(end);
    EXPECT_EQ(testing::CanonicalColumns(schema.schema, batch.array),
              testing::CanonicalColumns(expected_schema.schema, expected_array.array));

    testing::ConvertedRows from_ipc, from_memory;
    Status ipc_status = Convert(schema.schema, batch.array, &from_ipc);
    Status memory_status = Convert(expected_schema.schema, expected_array.array, &from_memory);
    EXPECT_EQ(ipc_status.code(), memory_status.code())
        << ipc_status.message() << " / " << memory_status.message();
    EXPECT_EQ(from_ipc.rows, from_memory.rows);
    t::OwnedArray after;
    ASSERT_TRUE(reader->ReadNext(&after.array, &end).ok());
    EXPECT_TRUE(end);
    ++files;
  }
  EXPECT_GT(files, 70u);
}

}  // namespace
}  // namespace rowbridge::ipc
