// Cross-checks against a real producer: files that pyarrow writes
// (tests/ipc/make_ipc_files.py) are read, their exported schemas and values
// compared with what pyarrow itself reports, and flat columns converted to
// rows compared with the rows of the same values built in memory.
//
// The files are generated on first use into the build tree (one directory
// per version of the script, created atomically, so concurrent test
// processes share it): the first test that needs them runs the script.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>

#include "rowbridge/ipc_reader.hpp"
#include "rowbridge_ipc_test_config.hpp"
#include "support/ipc_test_support.hpp"

namespace rowbridge::ipc {
namespace {

using testing::json;
namespace fs = std::filesystem;

const char kScript[] = ROWBRIDGE_SOURCE_DIR "/tests/ipc/make_ipc_files.py";

std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// The first interpreter that can import pyarrow, or "".
std::string FindPython() {
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("ROWBRIDGE_PYTHON"); env != nullptr && *env != '\0') {
    candidates.emplace_back(env);
  }
  if (std::string(ROWBRIDGE_PYTHON).size() > 0) candidates.emplace_back(ROWBRIDGE_PYTHON);
  candidates.emplace_back(ROWBRIDGE_SOURCE_DIR "/build/venv/bin/python3");
  candidates.emplace_back(ROWBRIDGE_SOURCE_DIR "/build/ipc-venv/bin/python3");
  candidates.emplace_back("python3");
  for (const std::string& python : candidates) {
    std::string probe = ShellQuote(python) + " -c 'import pyarrow' > /dev/null 2>&1";
    if (std::system(probe.c_str()) == 0) return python;
  }
  return "";
}

/// Generates the files (once per script version) and returns their
/// directory, or "" with `*error` set.
std::string PyarrowFiles(std::string* error) {
  static std::string directory;
  static std::string failure;
  if (!directory.empty() || !failure.empty()) {
    *error = failure;
    return directory;
  }
  std::string script = testing::ReadTextFile(kScript);
  uint64_t hash = 1469598103934665603ull;  // FNV-1a of the script
  for (unsigned char c : script) hash = (hash ^ c) * 1099511628211ull;
  std::string final_dir = std::string(ROWBRIDGE_IPC_TEST_DATA_DIR) + "/" + std::to_string(hash);
  if (fs::exists(final_dir + "/manifest.json")) return directory = final_dir;
  std::string python = FindPython();
  if (python.empty()) {
    failure =
        "no Python with pyarrow found: install it (make deps, or pip install pyarrow) or "
        "set ROWBRIDGE_PYTHON";
    *error = failure;
    return "";
  }
  std::string temporary = final_dir + ".tmp." + std::to_string(getpid());
  fs::create_directories(ROWBRIDGE_IPC_TEST_DATA_DIR);
  std::string command = ShellQuote(python) + " " + ShellQuote(kScript) + " " +
                        ShellQuote(temporary) + " > " + ShellQuote(temporary + ".log") + " 2>&1";
  if (std::system(command.c_str()) != 0) {
    failure = "running " + command + " failed:\n" + testing::ReadTextFile(temporary + ".log");
    *error = failure;
    return "";
  }
  std::error_code ignored;
  fs::rename(temporary, final_dir, ignored);  // fails when another process won the race
  fs::remove_all(temporary, ignored);
  fs::remove(temporary + ".log", ignored);
  return directory = final_dir;
}

json Manifest() {
  std::string error;
  std::string directory = PyarrowFiles(&error);
  if (directory.empty()) {
    ADD_FAILURE() << error;
    return json::object();
  }
  return json::parse(testing::ReadTextFile(directory + "/manifest.json"));
}

std::string FileDirectory() {
  std::string error;
  return PyarrowFiles(&error);
}

/// The flat format of a column's values: the value type of a dictionary or
/// run-end encoded column, the column's own otherwise.
std::string PlainFormat(const json& column) {
  if (column.contains("dictionary")) return column["dictionary"]["format"];
  if (column["format"] == "+r") return column["children"][1]["format"];
  return column["format"];
}

bool IsExtensionCase(const json& entry) {
  return entry["name"].get<std::string>().rfind("extension_", 0) == 0;
}

/// `schema` (as DescribeSchema gives it) with every field's metadata pairs
/// sorted: pyarrow exports an extension's name before its metadata, and
/// writes them to files in the other order.
json SortedMetadata(json schema) {
  std::sort(schema["metadata"].begin(), schema["metadata"].end());
  for (json& child : schema["children"]) child = SortedMetadata(child);
  if (schema.contains("dictionary")) schema["dictionary"] = SortedMetadata(schema["dictionary"]);
  return schema;
}

/// Reads every batch of one file and checks schema and values; for
/// convertible cases also compares converted rows with the in-memory path.
void CheckFile(const json& entry, const json& file) {
  std::string path = FileDirectory() + "/" + file["path"].get<std::string>();
  SCOPED_TRACE(path);
  std::unique_ptr<IpcReader> reader;
  Status status = IpcReader::Open(path, {}, &reader);
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(reader->format(), file["format"] == "file" ? IpcFormat::kFile : IpcFormat::kStream);
  rowbridge::testing::OwnedSchema schema;
  ASSERT_TRUE(reader->ExportSchema(&schema.schema).ok());
  if (IsExtensionCase(entry)) {
    EXPECT_EQ(SortedMetadata(testing::DescribeSchema(schema.schema)),
              SortedMetadata(entry["schema"]));
  } else {
    EXPECT_EQ(testing::DescribeSchema(schema.schema), entry["schema"]);
  }

  std::unique_ptr<Converter> ipc_converter;
  bool convert = entry["convert"].get<bool>();
  if (convert) {
    ConverterOptions options;
    options.validation = Validation::kFull;
    status = Converter::Make(schema.schema, options, &ipc_converter);
    ASSERT_TRUE(status.ok()) << status.message();
  }
  const json& batches = entry["batches"];
  size_t index = 0;
  for (;; ++index) {
    rowbridge::testing::OwnedArray batch;
    bool end = false;
    status = reader->ReadNext(&batch.array, &end);
    ASSERT_TRUE(status.ok()) << status.message();
    if (end) break;
    ASSERT_LT(index, batches.size());
    const json& expected = batches[index];
    SCOPED_TRACE("batch " + std::to_string(index));
    ASSERT_EQ(batch.array.length, expected["length"].get<int64_t>());
    ASSERT_EQ(testing::CanonicalColumns(schema.schema, batch.array), expected["columns"]);
    if (!convert) continue;
    // The same values built in memory, plain (undictionaried, unencoded).
    std::vector<rowbridge::testing::TestArray> columns;
    for (size_t c = 0; c < expected["columns"].size(); ++c) {
      const json& column = entry["schema"]["children"][c];
      auto built =
          testing::ColumnFromCanonical(PlainFormat(column), column["name"], expected["columns"][c]);
      built.nullable = (column["flags"].get<int64_t>() & ARROW_FLAG_NULLABLE) != 0;
      columns.push_back(std::move(built));
    }
    auto memory_batch = rowbridge::testing::Batch(std::move(columns));
    memory_batch.length = expected["length"].get<int64_t>();
    rowbridge::testing::OwnedSchema memory_schema;
    rowbridge::testing::OwnedArray memory_array;
    rowbridge::testing::ExportSchema(memory_batch, &memory_schema.schema);
    rowbridge::testing::ExportArray(memory_batch, &memory_array.array);
    std::unique_ptr<Converter> memory_converter;
    ConverterOptions options;
    options.validation = Validation::kFull;
    status = Converter::Make(memory_schema.schema, options, &memory_converter);
    ASSERT_TRUE(status.ok()) << status.message();
    EXPECT_EQ(memory_converter->plan().spark_schema().ToString(),
              ipc_converter->plan().spark_schema().ToString());
    testing::ConvertedRows from_ipc, from_memory;
    status = testing::ConvertAll(ipc_converter.get(), batch.array, &from_ipc);
    ASSERT_TRUE(status.ok()) << status.message();
    status = testing::ConvertAll(memory_converter.get(), memory_array.array, &from_memory);
    ASSERT_TRUE(status.ok()) << status.message();
    ASSERT_EQ(from_ipc.rows.size(), static_cast<size_t>(batch.array.length));
    EXPECT_EQ(from_ipc.rows, from_memory.rows);
  }
  EXPECT_EQ(index, batches.size());
  if (reader->format() == IpcFormat::kStream) {
    EXPECT_EQ(reader->num_batches(), static_cast<int64_t>(batches.size()));
  }
}

/// Runs CheckFile on every file of the cases selected by `select`; returns
/// how many files were checked.
template <typename Select>
size_t CheckCases(Select select) {
  json manifest = Manifest();
  if (!manifest.contains("cases")) return 0;
  size_t files = 0;
  for (const json& entry : manifest["cases"]) {
    if (!select(entry)) continue;
    SCOPED_TRACE("case " + entry["name"].get<std::string>());
    for (const json& file : entry["files"]) {
      CheckFile(entry, file);
      ++files;
    }
  }
  return files;
}

TEST(IpcPyarrow, FlatTypesMatchPyarrowAndTheInMemoryRows) {
  size_t files = CheckCases([](const json& e) {
    return !e["nested"].get<bool>() && e["name"] != "record" && e["name"] != "dictionary_deltas" &&
           !IsExtensionCase(e);
  });
  EXPECT_GT(files, 300u);
}

TEST(IpcPyarrow, NestedTypesMatchPyarrow) {
  size_t files =
      CheckCases([](const json& e) { return e["nested"].get<bool>() && !IsExtensionCase(e); });
  EXPECT_GT(files, 60u);
}

// Extension types (CONTRACTS.md §2): the schema keeps the extension metadata as pyarrow
// exports it, the values are the storage's, and the flat cases convert to the rows of their
// storage built in memory without the extension; among them the shape of arrow-testing's
// extension integration file.
TEST(IpcPyarrow, ExtensionTypesReadAsTheirStorage) {
  size_t files = CheckCases(IsExtensionCase);
  EXPECT_EQ(files, 18u);
}

TEST(IpcPyarrow, RecordWorkloadInEveryFraming) {
  size_t files = CheckCases([](const json& e) { return e["name"] == "record"; });
  EXPECT_EQ(files, 9u);
}

TEST(IpcPyarrow, StreamsWithReplacementAndDeltaDictionaries) {
  size_t files = CheckCases([](const json& e) { return e["name"] == "dictionary_deltas"; });
  EXPECT_EQ(files, 4u);
}

TEST(IpcPyarrow, RandomAccessAndInspect) {
  json manifest = Manifest();
  ASSERT_TRUE(manifest.contains("cases"));
  for (const json& entry : manifest["cases"]) {
    if (entry["name"] != "record") continue;
    for (const char* suffix : {"plain.arrow", "zstd.arrow", "zstd.arrows"}) {
      std::string path = FileDirectory() + "/record." + suffix;
      SCOPED_TRACE(path);
      std::unique_ptr<IpcReader> reader;
      ASSERT_TRUE(IpcReader::Open(path, {}, &reader).ok());
      IpcFileInfo info;
      Status status = reader->Inspect(&info);
      ASSERT_TRUE(status.ok()) << status.message();
      EXPECT_EQ(info.num_record_batches, 3);
      EXPECT_EQ(info.num_rows, 3000);
      EXPECT_EQ(info.metadata_version, 5);
      bool compressed = std::string(suffix).find("zstd") != std::string::npos;
      EXPECT_EQ(info.compression, compressed ? "zstd" : "none");
      ASSERT_EQ(info.batches.size(), 3u);
      EXPECT_EQ(info.batches[2].num_rows, 3000 - 2048);
      if (compressed)
        EXPECT_LT(info.batches[0].body_bytes, info.batches[0].uncompressed_body_bytes);
      else EXPECT_LE(info.batches[0].uncompressed_body_bytes, info.batches[0].body_bytes);
      if (reader->format() == IpcFormat::kStream) {
        rowbridge::testing::OwnedArray array;
        EXPECT_EQ(reader->ReadBatch(0, &array.array).code(), StatusCode::kNotSupported);
        EXPECT_EQ(reader->num_batches(), -1);
        continue;
      }
      EXPECT_EQ(reader->num_batches(), 3);
      EXPECT_EQ(reader->compression_name(), compressed ? "zstd" : "none");
      // Batches in reverse order, each checked against the manifest.
      rowbridge::testing::OwnedSchema schema;
      ASSERT_TRUE(reader->ExportSchema(&schema.schema).ok());
      for (int64_t b = 2; b >= 0; --b) {
        rowbridge::testing::OwnedArray array;
        status = reader->ReadBatch(b, &array.array);
        ASSERT_TRUE(status.ok()) << status.message();
        EXPECT_EQ(testing::CanonicalColumns(schema.schema, array.array),
                  entry["batches"][static_cast<size_t>(b)]["columns"]);
      }
      rowbridge::testing::OwnedArray missing;
      EXPECT_FALSE(reader->ReadBatch(3, &missing.array).ok());
    }
  }
}

}  // namespace
}  // namespace rowbridge::ipc
