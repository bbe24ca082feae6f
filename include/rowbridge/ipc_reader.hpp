// The Arrow IPC reader: Arrow IPC files and streams as Arrow C Data arrays.
//
// An IpcReader reads the Arrow IPC file format (magic "ARROW1", footer,
// random access to record batches) and the stream format (encapsulated
// messages, with or without the 0xFFFFFFFF continuation marker), detected from
// the first bytes. Bodies may be uncompressed or compressed buffer by buffer
// with LZ4_FRAME or ZSTD. Every batch is exported as a C Data Interface struct
// array, so that everything downstream is the code in-memory callers use.
//
// The input is untrusted: every length, offset and count read from it is
// checked before use, and a malformed input yields an error Status naming the
// input, the message or batch and the problem. The reader never prints, never
// aborts and never throws.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "rowbridge/arrow_c_data.h"
#include "rowbridge/export.h"
#include "rowbridge/ipc_format.hpp"
#include "rowbridge/status.hpp"

namespace rowbridge::ipc {

/// Limits and checks applied to untrusted input.
struct IpcReadOptions {
  /// The largest size, in bytes, that one body buffer may decompress to. A
  /// buffer claiming more is rejected before anything is allocated for it.
  int64_t max_buffer_bytes = int64_t{2} << 30;
  /// The largest length (rows of a batch, elements of a nested array node)
  /// accepted. Bounds the work of arrays that need no buffer per element
  /// (null columns, run-end encoded columns).
  int64_t max_array_length = (int64_t{1} << 31) - 1;
  /// The deepest nesting of fields accepted in a schema.
  int32_t max_nesting_depth = 64;
  /// The most fields, counting nested fields, accepted in a schema.
  int64_t max_fields = int64_t{1} << 16;
  /// Checks every offset, list view, string view, run end and dictionary index
  /// of each batch before exporting it (O(values)). With false, only the
  /// structure is checked (O(columns)): the exported arrays may then point
  /// outside their buffers, so pass false only for inputs from a trusted
  /// writer, and have the consumer validate values.
  bool validate_values = true;
  /// Open() maps the file into memory (and reads it into memory only when it
  /// cannot be mapped, e.g. a pipe). With false, Open() reads it into memory.
  bool memory_map = true;
  /// The columns to read, as indices of top-level fields of the input's
  /// schema, in the order wanted; each index at most once. Empty
  /// (`select_columns` false): every column. The exported schema and every
  /// batch then hold only these columns; the buffers of the others are
  /// neither decompressed nor checked, and dictionary batches that only
  /// they use are skipped.
  bool select_columns = false;
  std::vector<int32_t> columns;
};

/// One record batch as stored, for `rowbridge inspect`.
struct IpcBatchInfo {
  /// Index among the record batches (0-based).
  int64_t index = 0;
  /// Byte offset of the batch's message in the input.
  int64_t offset = 0;
  /// Bytes of the message framing and metadata flatbuffer (with padding).
  int64_t metadata_bytes = 0;
  /// Bytes of the body as stored (compressed when compressed).
  int64_t body_bytes = 0;
  /// Bytes of the body's buffers once decompressed (as the buffers claim).
  int64_t uncompressed_body_bytes = 0;
  int64_t num_rows = 0;
  /// "none", "lz4_frame" or "zstd".
  std::string compression;
};

/// A summary of a whole input, for `rowbridge inspect`.
struct IpcFileInfo {
  IpcFormat format = IpcFormat::kStream;
  /// Size of the input in bytes.
  int64_t input_bytes = 0;
  /// The metadata version of the schema: 4 (V4) or 5 (V5).
  int32_t metadata_version = 5;
  int64_t num_record_batches = 0;
  int64_t num_dictionary_batches = 0;
  int64_t num_rows = 0;
  /// "none", "lz4_frame", "zstd", or "mixed" when batches differ.
  std::string compression;
  /// The schema's custom metadata, in order.
  std::vector<std::pair<std::string, std::string>> schema_metadata;
  std::vector<IpcBatchInfo> batches;
};

/// A byte range of an input.
struct IpcByteRange {
  int64_t offset = 0;
  int64_t length = 0;
};

/// Where a file-format input keeps its messages, as its footer says (nothing
/// else is read): what a caller that fetches the bytes itself needs.
struct IpcFileLayout {
  struct Block {
    /// Where the message starts (its prefix).
    int64_t offset = 0;
    /// Bytes of the prefix and metadata flatbuffer (with padding).
    int64_t metadata_bytes = 0;
    /// Bytes of the body as stored.
    int64_t body_bytes = 0;
  };
  std::vector<Block> dictionaries;
  std::vector<Block> record_batches;
  /// Where the footer flatbuffer starts; the footer, its length and the
  /// trailing magic run from here to the end of the input.
  int64_t footer_offset = 0;
};

/// Reads an Arrow IPC file or stream. An IpcReader is used by one thread at a
/// time; arrays it exported may be used and released from any thread, before
/// or after the reader is destroyed.
class ROWBRIDGE_EXPORT IpcReader {
 public:
  struct Impl;

  /// Opens the file at `path`, memory-mapped unless `options.memory_map` is
  /// false, and reads its schema (and, for the file format, its footer). On
  /// success `*out` owns the reader; on failure `*out` is unchanged.
  static Status Open(const std::string& path, const IpcReadOptions& options,
                     std::unique_ptr<IpcReader>* out);

  /// Opens `size` bytes at `data` as an IPC file or stream. `owner` keeps the
  /// bytes alive: the reader and every array it exports hold a reference to
  /// it, so the bytes must stay valid and unchanged while any of them lives
  /// (pass a null owner only for bytes that outlive all of them). `name`
  /// names the input in error messages. `data` need not be aligned: buffers
  /// misaligned for their type are copied.
  static Status OpenBuffer(std::shared_ptr<const void> owner, const uint8_t* data, int64_t size,
                           const std::string& name, const IpcReadOptions& options,
                           std::unique_ptr<IpcReader>* out);

  /// Opens `bytes` (shared, never modified) as an IPC file or stream.
  static Status OpenBytes(std::shared_ptr<const std::vector<uint8_t>> bytes,
                          const std::string& name, const IpcReadOptions& options,
                          std::unique_ptr<IpcReader>* out);

  ~IpcReader();
  IpcReader(const IpcReader&) = delete;
  IpcReader& operator=(const IpcReader&) = delete;

  /// Exports the schema as a struct ArrowSchema with one child per column
  /// (dictionary-encoded columns carry their value type in `dictionary`).
  /// `out` must be uninitialized or released; the caller owns the result and
  /// releases it with `out->release(out)`. It does not depend on the reader.
  Status ExportSchema(ArrowSchema* out) const;

  IpcFormat format() const;

  /// Opens another reader over the same input bytes (sharing them, as
  /// OpenBuffer does) with the same options and its own position,
  /// decompression state and dictionaries, so that several threads can read
  /// one input at once, one reader each. The clone starts at the first batch.
  Status Clone(std::unique_ptr<IpcReader>* out) const;

  /// The name given at Open (the path, for Open(path)).
  const std::string& name() const;

  /// The number of record batches: for the file format, from the footer; for
  /// a stream, -1 until ReadNext has reached the end, then the count read.
  int64_t num_batches() const;

  /// The body compression of the record batches read so far (file format:
  /// of the first record batch): "none", "lz4_frame", "zstd" or "mixed".
  const std::string& compression_name() const;

  /// Reads the next record batch into `out` (a struct array of the columns,
  /// matching ExportSchema), or sets `*end_of_stream` when there is none left
  /// (then `out` is untouched). Dictionary batches met on the way are applied.
  /// `out` must be uninitialized or released; on success the caller owns it
  /// and releases it with `out->release(out)`. The array keeps alive what it
  /// points to (the mapped input, decompressed buffers, dictionaries), so it
  /// may outlive the reader. On failure `out` is untouched, and the reader
  /// should not be read further.
  Status ReadNext(ArrowArray* out, bool* end_of_stream);

  /// Reads record batch `index` (0-based) of a file-format input, in any
  /// order, into `out`, with the ownership rules of ReadNext. NotSupported for
  /// a stream. Does not move ReadNext's position.
  Status ReadBatch(int64_t index, ArrowArray* out);

  /// The bytes of the message bodies (as stored: compressed when compressed)
  /// of the record batches this reader returned so far.
  int64_t body_bytes_read() const;

  /// The bytes of the buffers this reader allocated for the record batches it
  /// returned so far (decompressed buffers, and copies of misaligned ones):
  /// memory those batches hold for themselves, beyond the input they point
  /// into. Dictionaries are not counted.
  int64_t owned_bytes_read() const;

  /// The file's blocks from its footer. NotSupported for a stream.
  Status Layout(IpcFileLayout* out) const;

  /// The byte ranges of the input that ReadBatch(index) reads for record
  /// batch `index` of a file-format input: its metadata and, of its body,
  /// the buffers of the selected columns (every column without a selection),
  /// sorted, with touching ranges merged. Parses the batch's metadata, so
  /// that much of the input must be present; reads nothing of the body.
  /// Dictionary batches are not included (see Layout).
  Status BatchByteRanges(int64_t index, std::vector<IpcByteRange>* out) const;

  /// Summarises the input (batches, rows, bytes, compression) from message
  /// metadata without decoding bodies. Reads the whole input for a stream;
  /// does not move ReadNext's position.
  Status Inspect(IpcFileInfo* out) const;

 private:
  explicit IpcReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// Exports `reader` as a C stream: get_schema, then get_next until a released
/// (end-of-stream) array. Takes ownership of `reader`; the stream owns it
/// until `out->release(out)`. `out` must be uninitialized or released. Errors
/// of get_next are errno-style codes, described by get_last_error.
ROWBRIDGE_EXPORT Status ExportArrayStream(std::unique_ptr<IpcReader> reader, ArrowArrayStream* out);

}  // namespace rowbridge::ipc
