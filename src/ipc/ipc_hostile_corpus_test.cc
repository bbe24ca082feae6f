// The hostile corpus (tests/ipc/corpus, made by tests/ipc/make_hostile_corpus.py):
// every file is read completely, through a mapping and from an unaligned
// in-memory copy; each must fail with the message its EXPECTED line gives
// (naming the input), read cleanly ("OK"), or either ("*") — never crash.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "rowbridge/ipc_reader.hpp"
#include "support/ipc_test_support.hpp"

namespace rowbridge::ipc {
namespace {

namespace fs = std::filesystem;
namespace t = rowbridge::testing;

const fs::path kCorpus = fs::path(ROWBRIDGE_SOURCE_DIR) / "tests" / "ipc" / "corpus";

std::map<std::string, std::string> ExpectedOutcomes() {
  std::map<std::string, std::string> out;
  std::istringstream lines(testing::ReadTextFile((kCorpus / "EXPECTED").string()));
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '#') continue;
    size_t tab = line.find('\t');
    out[line.substr(0, tab)] = line.substr(tab + 1);
  }
  return out;
}

/// Reads everything a consumer would: the schema, each batch (and, for the
/// file format, each batch by index), converting flat batches with full
/// validation; returns the first error.
Status ReadEverything(IpcReader* reader) {
  t::OwnedSchema schema;
  ROWBRIDGE_RETURN_NOT_OK(reader->ExportSchema(&schema.schema));
  IpcFileInfo info;
  Status inspected = reader->Inspect(&info);
  std::unique_ptr<Converter> converter;
  ConverterOptions options;
  options.validation = Validation::kFull;
  bool convert = Converter::Make(schema.schema, options, &converter).ok();
  int64_t batches = 0;
  for (;;) {
    t::OwnedArray batch;
    bool end = false;
    ROWBRIDGE_RETURN_NOT_OK(reader->ReadNext(&batch.array, &end));
    if (end) break;
    ++batches;
    (void)testing::CanonicalColumns(schema.schema, batch.array);  // touches every value
    if (convert) {
      testing::ConvertedRows rows;
      ROWBRIDGE_RETURN_NOT_OK(testing::ConvertAll(converter.get(), batch.array, &rows));
    }
  }
  if (reader->format() == IpcFormat::kFile) {
    for (int64_t i = reader->num_batches() - 1; i >= 0; --i) {
      t::OwnedArray batch;
      ROWBRIDGE_RETURN_NOT_OK(reader->ReadBatch(i, &batch.array));
    }
  }
  // A reader that read everything can also summarise it.
  if (!inspected.ok()) return inspected;
  if (info.num_record_batches != batches)
    return Status::Internal("Inspect disagrees with ReadNext");
  return Status::Ok();
}

Status OpenAndRead(const fs::path& path, bool mapped) {
  std::unique_ptr<IpcReader> reader;
  if (mapped) {
    ROWBRIDGE_RETURN_NOT_OK(IpcReader::Open(path.string(), {}, &reader));
  } else {
    // One byte in, so that every buffer is misaligned and must be copied.
    std::string bytes = testing::ReadTextFile(path.string());
    auto copy = std::make_shared<std::vector<uint8_t>>(bytes.size() + 1);
    std::memcpy(copy->data() + 1, bytes.data(), bytes.size());
    ROWBRIDGE_RETURN_NOT_OK(IpcReader::OpenBuffer(
        copy, copy->data() + 1, static_cast<int64_t>(bytes.size()), path.string(), {}, &reader));
  }
  return ReadEverything(reader.get());
}

TEST(IpcHostileCorpus, EveryFileFailsCleanlyWithItsExpectedMessage) {
  std::map<std::string, std::string> expected = ExpectedOutcomes();
  ASSERT_GT(expected.size(), 100u);
  size_t listed = 0;
  for (const auto& entry : fs::directory_iterator(kCorpus)) {
    std::string name = entry.path().filename().string();
    if (name == "EXPECTED") continue;
    SCOPED_TRACE(name);
    auto it = expected.find(name);
    ASSERT_NE(it, expected.end()) << "not listed in EXPECTED";
    ++listed;
    for (bool mapped : {true, false}) {
      Status status = OpenAndRead(entry.path(), mapped);
      if (it->second == "*") continue;
      if (it->second == "OK") {
        EXPECT_TRUE(status.ok()) << status.message();
        continue;
      }
      ASSERT_FALSE(status.ok()) << "expected an error containing: " << it->second;
      EXPECT_NE(status.message().find(it->second), std::string::npos) << status.message();
      EXPECT_NE(status.message().find(entry.path().string()), std::string::npos)
          << "the error does not name the input: " << status.message();
      EXPECT_NE(status.code(), StatusCode::kInternal) << status.message();
    }
  }
  EXPECT_EQ(listed, expected.size());
}

TEST(IpcHostileCorpus, ErrorsNameTheBatch) {
  Status status = OpenAndRead(kCorpus / "offsets_decrease.arrows", true);
  EXPECT_NE(status.message().find("message 1 at offset"), std::string::npos) << status.message();
  EXPECT_NE(status.message().find("record batch 0"), std::string::npos) << status.message();
  EXPECT_NE(status.message().find("field 's'"), std::string::npos) << status.message();
  status = OpenAndRead(kCorpus / "file_block_disagrees.arrow", true);
  EXPECT_NE(status.message().find("record batch 0 at offset"), std::string::npos)
      << status.message();
}

TEST(IpcHostileCorpus, MissingFileIsAnError) {
  std::unique_ptr<IpcReader> reader;
  Status status = IpcReader::Open("/nonexistent/input.arrow", {}, &reader);
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.message().find("/nonexistent/input.arrow"), std::string::npos);
  status = IpcReader::Open(kCorpus.string(), {}, &reader);
  EXPECT_NE(status.message().find("directory"), std::string::npos) << status.message();
}

}  // namespace
}  // namespace rowbridge::ipc
