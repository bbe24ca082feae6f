// The pyarrow-written inputs of the scan tests (tests/stream/make_scan_files.py)
// and reading them the plain way, for comparison.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "rowbridge/converter.hpp"
#include "rowbridge/ipc_reader.hpp"
#include "rowbridge/ipc_scan.hpp"
#include "rowbridge/stream.hpp"
#include "rowbridge_ipc_test_config.hpp"
#include "support/stream_test_support.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge::stream::testing {

inline const std::string kScript = ROWBRIDGE_SOURCE_DIR "/tests/stream/make_scan_files.py";

inline std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

inline std::string FindPython() {
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("ROWBRIDGE_PYTHON"); env != nullptr && *env != '\0') {
    candidates.emplace_back(env);
  }
  if (std::string(ROWBRIDGE_PYTHON).size() > 0) candidates.emplace_back(ROWBRIDGE_PYTHON);
  candidates.emplace_back(ROWBRIDGE_SOURCE_DIR "/build/venv/bin/python3");
  candidates.emplace_back("python3");
  for (const std::string& python : candidates) {
    if (std::system((Quote(python) + " -c 'import pyarrow' > /dev/null 2>&1").c_str()) == 0) {
      return python;
    }
  }
  return "";
}

/// The directory of the generated inputs (made once per build directory).
inline std::string ScanFiles() {
  static std::string directory = [] {
    std::string final_dir = std::string(ROWBRIDGE_IPC_TEST_DATA_DIR) + "/stream-v1";
    if (std::filesystem::exists(final_dir + "/lists.zstd.arrows")) return final_dir;
    std::string python = FindPython();
    if (python.empty()) return std::string();
    std::string temporary = final_dir + ".tmp." + std::to_string(getpid());
    std::string command = Quote(python) + " " + Quote(kScript) + " " + Quote(temporary);
    if (std::system(command.c_str()) != 0) return std::string();
    std::error_code ignored;
    std::filesystem::rename(temporary, final_dir,
                            ignored);  // another process may have won the race
    std::filesystem::remove_all(temporary, ignored);
    return final_dir;
  }();
  return directory;
}

inline std::vector<std::string> Inputs() {
  std::vector<std::string> inputs;
  for (const char* kind : {"flat", "lists"}) {
    for (const char* codec : {"zstd", "lz4", "none"}) {
      for (const char* suffix : {".arrow", ".arrows"}) {
        inputs.push_back(ScanFiles() + "/" + kind + "." + codec + suffix);
      }
    }
  }
  return inputs;
}

inline void AppendRows(const RowBatchView& view, std::vector<std::string>* rows) {
  for (int64_t r = 0; r < view.num_rows; ++r) {
    rows->emplace_back(reinterpret_cast<const char*>(view.data + view.row_offsets[r]),
                       static_cast<size_t>(view.row_offsets[r + 1] - view.row_offsets[r]));
  }
}

/// Every row of `path`, read with IpcReader::ReadNext and converted in order.
inline std::vector<std::string> SequentialRows(const std::string& path, int64_t* batches) {
  std::vector<std::string> rows;
  std::unique_ptr<ipc::IpcReader> reader;
  EXPECT_TRUE(ipc::IpcReader::Open(path, ipc::IpcReadOptions(), &reader).ok());
  if (reader == nullptr) return rows;
  rowbridge::testing::OwnedSchema schema;
  EXPECT_TRUE(reader->ExportSchema(&schema.schema).ok());
  std::unique_ptr<Converter> converter;
  EXPECT_TRUE(Converter::Make(schema.schema, ConverterOptions(), &converter).ok());
  *batches = 0;
  for (;;) {
    rowbridge::testing::OwnedArray array;
    bool end = false;
    EXPECT_TRUE(reader->ReadNext(&array.array, &end).ok());
    if (end) break;
    ++*batches;
    RowBatchView view;
    EXPECT_TRUE(converter->Convert(array.array, &view).ok());
    AppendRows(view, &rows);
  }
  return rows;
}

/// Every row a scan with `scan` options yields, converted by the workers.
inline std::vector<std::string> ScanRows(const std::string& path, const scan::IpcScanOptions& scan,
                                         int64_t* batches) {
  std::vector<std::string> rows;
  std::unique_ptr<BatchProducer> producer;
  Status status = scan::MakeIpcProducer(path, scan, &producer);
  EXPECT_TRUE(status.ok()) << status.message();
  if (!status.ok()) return rows;
  StreamOptions options;
  options.pool = Pool(3);
  options.in_flight = 3;
  std::unique_ptr<RowStream> stream;
  EXPECT_TRUE(RowStream::Make(std::move(producer), options, ConverterOptions(), &stream).ok());
  *batches = 0;
  for (;;) {
    RowBatch batch;
    bool end = false;
    status = stream->Next(&batch, &end);
    EXPECT_TRUE(status.ok()) << status.message();
    if (!status.ok() || end) break;
    ++*batches;
    AppendRows(batch.rows, &rows);
  }
  return rows;
}

}  // namespace rowbridge::stream::testing
