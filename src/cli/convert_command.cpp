#include "cli/convert_command.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>

#include "cli/output_file.hpp"
#include "cli/row_stream_writer.hpp"
#include "rowbridge/converter.hpp"
#include "rowbridge/ipc_reader.hpp"

namespace rowbridge::cli {
namespace {

/// Inputs larger than this get a progress line when stderr is a terminal.
constexpr int64_t kProgressInputBytes = int64_t{100} << 20;

/// Owns an exported C struct and releases it when it goes out of scope.
template <typename T>
struct Released {
  T value{};
  ~Released() {
    if (value.release != nullptr) value.release(&value);
  }
};

/// Prints "batch i of n" on one rewritten terminal line, at most every 0.2 s.
class ProgressLine {
 public:
  explicit ProgressLine(bool enabled) : enabled_(enabled) {}
  void Update(int64_t batch, int64_t batches, int64_t rows) {
    if (!enabled_) return;
    auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(200)) return;
    last_ = now;
    if (batches > 0) {
      std::fprintf(stderr, "\rrowbridge convert: batch %lld of %lld, %lld rows",
                   static_cast<long long>(batch), static_cast<long long>(batches),
                   static_cast<long long>(rows));
    } else {
      std::fprintf(stderr, "\rrowbridge convert: batch %lld, %lld rows",
                   static_cast<long long>(batch), static_cast<long long>(rows));
    }
    shown_ = true;
  }
  ~ProgressLine() {
    if (shown_) std::fputs("\r\033[K", stderr);
  }

 private:
  bool enabled_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_{};
};

Status Convert(const ConvertOptions& options) {
  ipc::IpcReadOptions read_options;  // untrusted input: every value checked
  std::unique_ptr<ipc::IpcReader> reader;
  ROWBRIDGE_RETURN_NOT_OK(ipc::IpcReader::Open(options.input, read_options, &reader));
  Released<ArrowSchema> schema;
  ROWBRIDGE_RETURN_NOT_OK(reader->ExportSchema(&schema.value));
  ConverterOptions converter_options;
  converter_options.validation = Validation::kFull;
  std::unique_ptr<Converter> converter;
  ROWBRIDGE_RETURN_NOT_OK(
      Converter::Make(schema.value, converter_options, &converter).WithContext(options.input));

  OutputFile output;
  ROWBRIDGE_RETURN_NOT_OK(output.Open(options.output));
  RowStreamWriter writer(output.fd(), options.output == "-" ? "standard output" : options.output);
  ipc::IpcFileInfo info;
  int64_t input_bytes = 0;
  if (reader->format() == ipc::IpcFormat::kFile && reader->Inspect(&info).ok())
    input_bytes = info.input_bytes;
  ProgressLine progress(input_bytes > kProgressInputBytes && ::isatty(STDERR_FILENO));

  int64_t rows = 0;
  for (int64_t batch = 0;; ++batch) {
    Released<ArrowArray> array;
    bool end = false;
    ROWBRIDGE_RETURN_NOT_OK(reader->ReadNext(&array.value, &end));
    if (end) break;
    RowBatchView view;
    std::string where = options.input + ": batch " + std::to_string(batch);
    ROWBRIDGE_RETURN_NOT_OK(converter->Convert(array.value, &view).WithContext(where));
    while (view.num_rows > 0) {
      ROWBRIDGE_RETURN_NOT_OK(writer.Append(view));
      rows += view.num_rows;
      if (!converter->HasMoreChunks()) break;
      ROWBRIDGE_RETURN_NOT_OK(converter->NextChunk(&view).WithContext(where));
    }
    progress.Update(batch + 1, reader->num_batches(), rows);
  }
  ROWBRIDGE_RETURN_NOT_OK(writer.Flush());
  return output.Commit();
}

}  // namespace

int ReportFailure(const char* command, const Status& status) {
  std::string message = status.message();
  for (char& c : message) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  std::cerr << "rowbridge " << command << ": " << message << "\n";
  return 1;
}

int RunConvertCommand(const ConvertOptions& options) {
  Status status = Convert(options);
  return status.ok() ? 0 : ReportFailure("convert", status);
}

}  // namespace rowbridge::cli
