// The IPC writer: pyarrow's files read by IpcReader, written again with each
// codec, must read back (with IpcReader, and with pyarrow itself) as the same
// rows; bad input is a named error.
#include "rowbridge/ipc_writer.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "rowbridge/ipc_reader.hpp"
#include "support/scan_test_files.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge::ipc {
namespace {

using stream::testing::FindPython;
using stream::testing::Quote;
using stream::testing::ScanFiles;
using stream::testing::SequentialRows;

/// Writes every batch of `input` to `out` with `codec`.
Status Rewrite(const std::string& input, IpcCodec codec, const std::string& out) {
  std::unique_ptr<IpcReader> reader;
  ROWBRIDGE_RETURN_NOT_OK(IpcReader::Open(input, IpcReadOptions(), &reader));
  rowbridge::testing::OwnedSchema schema;
  ROWBRIDGE_RETURN_NOT_OK(reader->ExportSchema(&schema.schema));
  IpcWriteOptions options;
  options.codec = codec;
  std::unique_ptr<IpcFileWriter> writer;
  ROWBRIDGE_RETURN_NOT_OK(IpcFileWriter::Open(out, schema.schema, options, &writer));
  for (;;) {
    rowbridge::testing::OwnedArray array;
    bool end = false;
    ROWBRIDGE_RETURN_NOT_OK(reader->ReadNext(&array.array, &end));
    if (end) break;
    ROWBRIDGE_RETURN_NOT_OK(writer->Write(array.array));
  }
  return writer->Close();
}

TEST(IpcWriter, RewrittenFilesReadBackAsTheSameRows) {
  ASSERT_FALSE(ScanFiles().empty()) << "no Python with pyarrow (make deps) to write the inputs";
  std::string python = FindPython();
  ASSERT_FALSE(python.empty());
  std::string out_dir = ScanFiles() + "/written." + std::to_string(getpid());
  std::filesystem::create_directories(out_dir);
  std::string pairs;
  for (const char* name : {"flat.none", "flat.zstd", "lists.lz4", "lists.none"}) {
    for (IpcCodec codec : {IpcCodec::kNone, IpcCodec::kLz4Frame, IpcCodec::kZstd}) {
      std::string input = ScanFiles() + "/" + name + ".arrow";
      std::string out =
          out_dir + "/" + name + "." + std::to_string(static_cast<int>(codec)) + ".arrow";
      SCOPED_TRACE(out);
      Status written = Rewrite(input, codec, out);
      ASSERT_TRUE(written.ok()) << written.message();
      int64_t original_batches = 0;
      int64_t copy_batches = 0;
      std::vector<std::string> original = SequentialRows(input, &original_batches);
      EXPECT_EQ(SequentialRows(out, &copy_batches), original);
      EXPECT_EQ(copy_batches, original_batches);
      EXPECT_FALSE(original.empty());
      pairs += " " + Quote(input) + " " + Quote(out);
    }
  }
  // pyarrow reads each written file as a table equal to the original's.
  std::string script =
      "import sys, pyarrow as pa\n"
      "args = sys.argv[1:]\n"
      "for a, b in zip(args[::2], args[1::2]):\n"
      "    x = pa.ipc.open_file(a).read_all(); y = pa.ipc.open_file(b).read_all()\n"
      "    assert x.equals(y), (a, b)\n";
  std::string command = Quote(python) + " -c " + Quote(script) + pairs;
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  std::filesystem::remove_all(out_dir);
}

TEST(IpcWriter, BadInputIsANamedError) {
  rowbridge::testing::OwnedSchema schema;
  // A struct column of a view type is refused, naming it.
  std::vector<uint8_t> bytes;
  IpcSink sink = [&](const uint8_t* data, int64_t size) {
    if (data != nullptr) bytes.insert(bytes.end(), data, data + size);
    return Status::Ok();
  };
  ArrowSchema view{};
  ArrowSchema* children[1] = {&view};
  view.format = "vu";
  view.name = "words";
  ArrowSchema root{};
  root.format = "+s";
  root.name = "";
  root.n_children = 1;
  root.children = children;
  std::unique_ptr<IpcFileWriter> writer;
  Status refused = IpcFileWriter::Open(sink, root, IpcWriteOptions(), &writer);
  EXPECT_EQ(refused.code(), StatusCode::kNotSupported);
  EXPECT_NE(refused.message().find("words"), std::string::npos) << refused.message();
  root.format = "i";
  EXPECT_FALSE(IpcFileWriter::Open(sink, root, IpcWriteOptions(), &writer).ok());
  Status missing =
      IpcFileWriter::Open("/nonexistent-dir/x.arrow", root, IpcWriteOptions(), &writer);
  EXPECT_NE(missing.message().find("/nonexistent-dir/x.arrow"), std::string::npos);
}

}  // namespace
}  // namespace rowbridge::ipc
