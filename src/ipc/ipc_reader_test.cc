// Unit tests of the IPC reader: the flatbuffer reader's bounds checks, and
// the reader's API contracts (ownership, zero copy, options, C stream).
#include "rowbridge/ipc_reader.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "ipc/flatbuffer_reader.hpp"
#include "support/ipc_test_support.hpp"

namespace rowbridge::ipc {
namespace {

namespace fs = std::filesystem;
namespace t = rowbridge::testing;

const fs::path kCorpus = fs::path(ROWBRIDGE_SOURCE_DIR) / "tests" / "ipc" / "corpus";

// ---------------------------------------------------------------------------
// FlatTable / FlatVector.

void Put16(std::vector<uint8_t>* b, size_t at, uint16_t v) { std::memcpy(b->data() + at, &v, 2); }
void Put32(std::vector<uint8_t>* b, size_t at, uint32_t v) { std::memcpy(b->data() + at, &v, 4); }

/// root offset -> table at 12, vtable at 4: fields 0 (int32 at +4) and
/// 1 (uoffset at +8 to a vector of two int32 at 24).
std::vector<uint8_t> SmallBuffer() {
  std::vector<uint8_t> b(40, 0);
  Put32(&b, 0, 12);   // root table at 12
  Put16(&b, 4, 8);    // vtable: 8 bytes
  Put16(&b, 6, 12);   // table: 12 bytes
  Put16(&b, 8, 4);    // field 0 at +4
  Put16(&b, 10, 8);   // field 1 at +8
  Put32(&b, 12, 8);   // soffset: vtable at 12 - 8 = 4
  Put32(&b, 16, 42);  // field 0
  Put32(&b, 20, 4);   // field 1: vector at 20 + 4 = 24
  Put32(&b, 24, 2);   // two elements
  Put32(&b, 28, 7);
  Put32(&b, 32, 9);
  return b;
}

TEST(IpcFlatBuffer, ReadsScalarsVectorsAndDefaults) {
  std::vector<uint8_t> b = SmallBuffer();
  FlatTable table;
  ASSERT_TRUE(FlatTable::Root({b.data(), static_cast<int64_t>(b.size())}, "T", &table).ok());
  int32_t value = 0;
  ASSERT_TRUE(table.Scalar<int32_t>(0, -1, &value).ok());
  EXPECT_EQ(value, 42);
  ASSERT_TRUE(table.Scalar<int32_t>(5, -1, &value).ok());  // absent: the default
  EXPECT_EQ(value, -1);
  FlatVector vector;
  ASSERT_TRUE(table.Vector(1, 4, &vector).ok());
  ASSERT_EQ(vector.size(), 2);
  EXPECT_EQ(vector.ScalarAt<int32_t>(1), 9);
  ASSERT_TRUE(table.Vector(3, 4, &vector).ok());  // absent: empty
  EXPECT_EQ(vector.size(), 0);
}

TEST(IpcFlatBuffer, RejectsEveryOutOfBoundsReference) {
  auto fails = [](std::vector<uint8_t> b, const char* what) {
    FlatTable table;
    Status status = FlatTable::Root({b.data(), static_cast<int64_t>(b.size())}, "T", &table);
    if (status.ok()) {
      FlatVector vector;
      int32_t value;
      status = table.Vector(1, 4, &vector);
      if (status.ok()) status = table.Scalar<int32_t>(0, 0, &value);
    }
    EXPECT_FALSE(status.ok()) << what;
    EXPECT_NE(status.message().find("malformed flatbuffer"), std::string::npos) << status.message();
  };
  std::vector<uint8_t> b = SmallBuffer();
  Put32(&b, 0, 1000);
  fails(b, "root outside");
  b = SmallBuffer();
  Put32(&b, 12, 0x80000000u);
  fails(b, "vtable outside");
  b = SmallBuffer();
  Put16(&b, 4, 7);
  fails(b, "odd vtable size");
  b = SmallBuffer();
  Put16(&b, 6, 200);
  fails(b, "table past the end");
  b = SmallBuffer();
  Put16(&b, 8, 10);
  fails(b, "scalar past its table");
  b = SmallBuffer();
  Put32(&b, 24, 0x40000000u);
  fails(b, "vector count past the end");
  b = SmallBuffer();
  Put32(&b, 20, 0xFFFFFFF0u);
  fails(b, "vector offset wrapping");
  b = SmallBuffer();
  b.resize(6);
  fails(b, "truncated buffer");
}

TEST(IpcFlatBuffer, StringsMustFitWithTheirTerminator) {
  std::vector<uint8_t> b = {3, 0, 0, 0, 'a', 'b', 'c', 0};
  std::string_view s;
  EXPECT_TRUE(ReadFlatString({b.data(), 8}, 0, "S", &s).ok());
  EXPECT_EQ(s, "abc");
  EXPECT_FALSE(ReadFlatString({b.data(), 7}, 0, "S", &s).ok());
  EXPECT_FALSE(ReadFlatString({b.data(), 8}, 6, "S", &s).ok());
}

// ---------------------------------------------------------------------------
// The reader's contracts.

std::shared_ptr<std::vector<uint8_t>> FileBytes(const std::string& name, size_t shift = 0) {
  std::string bytes = testing::ReadTextFile((kCorpus / name).string());
  auto out = std::make_shared<std::vector<uint8_t>>(bytes.size() + shift);
  std::memcpy(out->data() + shift, bytes.data(), bytes.size());
  return out;
}

std::unique_ptr<IpcReader> OpenCorpus(const std::string& name, const IpcReadOptions& options = {}) {
  std::unique_ptr<IpcReader> reader;
  Status status = IpcReader::Open((kCorpus / name).string(), options, &reader);
  EXPECT_TRUE(status.ok()) << status.message();
  return reader;
}

TEST(IpcReader, ArraysOutliveTheReaderAndTheirBytes) {
  t::OwnedSchema schema;
  t::OwnedArray batch;
  {
    auto bytes = FileBytes("valid_utf8.arrows");
    std::unique_ptr<IpcReader> reader;
    ASSERT_TRUE(IpcReader::OpenBytes(bytes, "utf8", {}, &reader).ok());
    bytes.reset();  // the reader (and then the array) keep the bytes alive
    ASSERT_TRUE(reader->ExportSchema(&schema.schema).ok());
    bool end = false;
    ASSERT_TRUE(reader->ReadNext(&batch.array, &end).ok());
  }
  EXPECT_EQ(testing::CanonicalColumns(schema.schema, batch.array),
            testing::json::parse(R"([["6162", "", "63646566", "67"]])"));
}

TEST(IpcReader, ChildrenAndDictionariesMayBeMovedOutAndReleasedApart) {
  std::unique_ptr<IpcReader> reader = OpenCorpus("valid_dictionary.arrows");
  ArrowArray batch{};
  bool end = false;
  ASSERT_TRUE(reader->ReadNext(&batch, &end).ok());
  reader.reset();
  ArrowArray column = *batch.children[0];  // move the column out
  batch.children[0]->release = nullptr;
  batch.release(&batch);
  ASSERT_NE(column.dictionary, nullptr);
  ArrowArray dictionary = *column.dictionary;  // and its dictionary
  column.dictionary->release = nullptr;
  column.release(&column);
  EXPECT_EQ(dictionary.length, 2);
  EXPECT_EQ(std::string(static_cast<const char*>(dictionary.buffers[2]), 6), "onetwo");
  dictionary.release(&dictionary);
}

TEST(IpcReader, UncompressedBuffersAreReferencedInPlaceUnlessMisaligned) {
  for (size_t shift : {0, 1}) {
    auto bytes = FileBytes("valid_int32.arrows", shift);
    std::unique_ptr<IpcReader> reader;
    ASSERT_TRUE(IpcReader::OpenBuffer(bytes, bytes->data() + shift,
                                      static_cast<int64_t>(bytes->size() - shift), "int32", {},
                                      &reader)
                    .ok());
    t::OwnedArray batch;
    bool end = false;
    ASSERT_TRUE(reader->ReadNext(&batch.array, &end).ok());
    const auto* values = static_cast<const uint8_t*>(batch.array.children[0]->buffers[1]);
    bool in_place = values >= bytes->data() && values < bytes->data() + bytes->size();
    EXPECT_EQ(in_place, shift == 0) << "shift " << shift;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(values) % 4, 0u);
  }
}

TEST(IpcReader, OptionsBoundLengthsAndDecompressedSizes) {
  IpcReadOptions options;
  options.max_array_length = 5;
  std::unique_ptr<IpcReader> reader = OpenCorpus("valid_int32.arrows", options);
  t::OwnedArray batch;
  bool end = false;
  Status status = reader->ReadNext(&batch.array, &end);
  EXPECT_NE(status.message().find("above the limit of 5"), std::string::npos) << status.message();
  // A failed reader keeps failing the same way.
  EXPECT_EQ(reader->ReadNext(&batch.array, &end).message(), status.message());

  options = IpcReadOptions();
  options.max_buffer_bytes = 16;
  reader = OpenCorpus("valid_zstd.arrows", options);
  status = reader->ReadNext(&batch.array, &end);
  EXPECT_NE(status.message().find("IpcReadOptions::max_buffer_bytes"), std::string::npos)
      << status.message();

  options = IpcReadOptions();
  options.max_nesting_depth = 1;
  std::unique_ptr<IpcReader> nested;
  status = IpcReader::Open((kCorpus / "list_view_outside_child.arrows").string(), options, &nested);
  EXPECT_NE(status.message().find("deeper than 1 levels"), std::string::npos) << status.message();
}

TEST(IpcReader, ValueChecksCanBeTurnedOffButStructureIsAlwaysChecked) {
  IpcReadOptions options;
  options.validate_values = false;
  std::unique_ptr<IpcReader> reader = OpenCorpus("offsets_decrease.arrows", options);
  t::OwnedArray batch;
  bool end = false;
  EXPECT_TRUE(reader->ReadNext(&batch.array, &end).ok());
  reader = OpenCorpus("offsets_past_data.arrows", options);
  EXPECT_FALSE(reader->ReadNext(&batch.array, &end).ok());
}

TEST(IpcReader, StreamCountsAndInspect) {
  std::unique_ptr<IpcReader> reader = OpenCorpus("valid_dictionary.arrows");
  EXPECT_EQ(reader->format(), IpcFormat::kStream);
  EXPECT_EQ(reader->num_batches(), -1);
  IpcFileInfo info;
  ASSERT_TRUE(reader->Inspect(&info).ok());
  EXPECT_EQ(info.num_dictionary_batches, 1);
  EXPECT_EQ(info.num_record_batches, 1);
  EXPECT_EQ(info.num_rows, 3);
  EXPECT_EQ(info.compression, "none");
  bool end = false;
  for (int i = 0; i < 2; ++i) {
    t::OwnedArray batch;
    ASSERT_TRUE(reader->ReadNext(&batch.array, &end).ok());
  }
  EXPECT_TRUE(end);
  EXPECT_EQ(reader->num_batches(), 1);
  reader = OpenCorpus("valid_lz4.arrows");
  t::OwnedArray batch;
  ASSERT_TRUE(reader->ReadNext(&batch.array, &end).ok());
  EXPECT_EQ(reader->compression_name(), "lz4_frame");
}

TEST(IpcReader, ExportsACStream) {
  ArrowArrayStream stream{};
  ASSERT_TRUE(ExportArrayStream(OpenCorpus("valid_int32.arrows"), &stream).ok());
  t::OwnedSchema schema;
  ASSERT_EQ(stream.get_schema(&stream, &schema.schema), 0);
  EXPECT_STREQ(schema.schema.children[0]->format, "i");
  int batches = 0;
  for (;;) {
    ArrowArray batch{};
    ASSERT_EQ(stream.get_next(&stream, &batch), 0);
    if (batch.release == nullptr) break;
    EXPECT_EQ(batch.length, 7);
    batch.release(&batch);
    ++batches;
  }
  EXPECT_EQ(batches, 1);
  stream.release(&stream);

  ASSERT_TRUE(ExportArrayStream(OpenCorpus("offsets_decrease.arrows"), &stream).ok());
  ArrowArray batch{};
  EXPECT_EQ(stream.get_next(&stream, &batch), static_cast<int>(StatusCode::kInvalid));
  ASSERT_NE(stream.get_last_error(&stream), nullptr);
  EXPECT_NE(std::string(stream.get_last_error(&stream)).find("offsets decrease"),
            std::string::npos);
  stream.release(&stream);
}

TEST(IpcReader, ReadsThroughAPipe) {
  std::string path = (kCorpus / "valid_int32.arrows").string();
  std::string command = "cat '" + path + "'";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::unique_ptr<IpcReader> reader;
  Status status = IpcReader::Open("/dev/fd/" + std::to_string(fileno(pipe)), {}, &reader);
  ASSERT_TRUE(status.ok()) << status.message();
  pclose(pipe);
  t::OwnedArray batch;
  bool end = false;
  ASSERT_TRUE(reader->ReadNext(&batch.array, &end).ok());
  EXPECT_EQ(batch.array.length, 7);
}

}  // namespace
}  // namespace rowbridge::ipc
