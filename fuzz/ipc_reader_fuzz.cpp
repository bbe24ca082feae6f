// libFuzzer target: the input bytes opened as an Arrow IPC file or stream;
// every batch read (in order, and by index for the file format) and every
// batch whose schema converts (flat or nested) converted to rows with full
// validation; then read again with every other column selected (the others
// skipped unread), and converted. Any crash, sanitizer report, leak or hang
// is a bug: hostile input must only yield errors.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "rowbridge/converter.hpp"
#include "rowbridge/ipc_reader.hpp"

namespace {

using rowbridge::Converter;
using rowbridge::ConverterOptions;
using rowbridge::RowBatchView;
using rowbridge::Status;
using rowbridge::ipc::IpcFileInfo;
using rowbridge::ipc::IpcFormat;
using rowbridge::ipc::IpcReader;
using rowbridge::ipc::IpcReadOptions;

/// Touches every row byte so that reads of bad memory are caught.
uint64_t Checksum(const RowBatchView& view) {
  uint64_t sum = 0;
  for (int64_t i = 0; i < view.data_size; ++i) sum += view.data[i];
  return sum;
}

struct ReleasedArray {
  ArrowArray array{};
  ~ReleasedArray() {
    if (array.release != nullptr) array.release(&array);
  }
};

/// Reads every batch of `reader` in order and converts it (when the schema
/// converts) with full validation, touching every row byte.
void ReadAndConvert(IpcReader* reader) {
  ArrowSchema schema{};
  if (!reader->ExportSchema(&schema).ok()) return;
  ConverterOptions converter_options;
  converter_options.validation = rowbridge::Validation::kFull;
  converter_options.max_chunk_bytes = int64_t{4} << 20;
  std::unique_ptr<Converter> converter;
  bool convert = Converter::Make(schema, converter_options, &converter).ok();
  schema.release(&schema);
  volatile uint64_t sink = 0;
  for (int batches = 0; batches < 1000; ++batches) {
    ReleasedArray batch;
    bool end = false;
    if (!reader->ReadNext(&batch.array, &end).ok() || end) break;
    if (!convert) continue;
    RowBatchView view;
    Status status = converter->Convert(batch.array, &view);
    while (status.ok() && view.num_rows > 0) {
      sink = sink + Checksum(view);
      if (!converter->HasMoreChunks()) break;
      status = converter->NextChunk(&view);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  IpcReadOptions options;
  // Small limits keep every input fast and within libFuzzer's memory limit.
  options.max_buffer_bytes = int64_t{16} << 20;
  options.max_array_length = int64_t{1} << 20;
  options.max_fields = 4096;
  std::unique_ptr<IpcReader> reader;
  if (!IpcReader::OpenBuffer(nullptr, data, static_cast<int64_t>(size), "fuzz input", options,
                             &reader)
           .ok()) {
    return 0;
  }
  IpcFileInfo info;
  (void)reader->Inspect(&info);
  ArrowSchema schema{};
  if (!reader->ExportSchema(&schema).ok()) return 0;
  int64_t columns = schema.n_children;
  schema.release(&schema);
  ReadAndConvert(reader.get());
  if (reader->format() == IpcFormat::kFile) {
    for (int64_t i = reader->num_batches() - 1; i >= 0 && i >= reader->num_batches() - 8; --i) {
      ReleasedArray batch;
      (void)reader->ReadBatch(i, &batch.array);
    }
  }
  IpcReadOptions projected = options;
  projected.select_columns = true;
  for (int64_t c = columns - 1; c >= 0; c -= 2)
    projected.columns.push_back(static_cast<int32_t>(c));
  std::unique_ptr<IpcReader> partial;
  if (IpcReader::OpenBuffer(nullptr, data, static_cast<int64_t>(size), "fuzz input", projected,
                            &partial)
          .ok()) {
    ReadAndConvert(partial.get());
  }
  return 0;
}
