// Record batch bodies: field nodes and buffers matched against the schema,
// decompressed, aligned and checked, into ArrayData trees.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "ipc/array_data.hpp"
#include "ipc/decompressor.hpp"
#include "ipc/dictionary_memo.hpp"
#include "ipc/flatbuffer_reader.hpp"
#include "ipc/ipc_message.hpp"
#include "ipc/ipc_schema.hpp"
#include "rowbridge/ipc_reader.hpp"
#include "rowbridge/status.hpp"

namespace rowbridge::ipc {

/// The parsed RecordBatch table.
struct BatchHeader {
  int64_t length = 0;
  Codec codec = Codec::kNone;
  FlatVector nodes;            // struct FieldNode { length: long; null_count: long; }
  FlatVector buffers;          // struct Buffer { offset: long; length: long; }
  FlatVector variadic_counts;  // [long]
};

/// Reads a RecordBatch table (checking its compression method).
Status ReadBatchHeader(const FlatTable& record_batch, BatchHeader* out);

/// What decoding a body needs. Borrowed for the duration of one call.
struct BodyContext {
  InputView input;
  std::shared_ptr<const void> input_owner;
  const Message* message = nullptr;
  const IpcReadOptions* options = nullptr;
  Decompressor* decompressor = nullptr;
  /// The dictionaries that dictionary-encoded fields refer to.
  const DictionaryMemo* dictionaries = nullptr;
};

/// Decodes the body of `message` (described by `header`) as a batch of
/// `fields` into a struct ArrayData with one child per field. Uncompressed
/// buffers are referenced in place (copied only when misaligned for their
/// type); compressed ones are decompressed. Checks everything: node and
/// buffer counts, lengths, buffer bounds and sizes, and (when
/// options->validate_values) every offset, view, run end and dictionary
/// index. Throws std::bad_alloc.
/// With `selected` (indices into `fields`, each at most once), only those
/// fields are decoded, as the struct's children in that order; the nodes and
/// buffers of the others are skipped unread.
Status DecodeBatch(const BodyContext& context, const BatchHeader& header,
                   const std::vector<IpcField>& fields, std::shared_ptr<const ArrayData>* out,
                   const std::vector<int32_t>* selected = nullptr);

/// The byte ranges of a body, relative to its start, that decoding the
/// `selected` fields (every field when null) reads: their buffers, in body
/// order, as {offset, length} pairs (empty buffers left out). Checks each
/// buffer against `body_size`.
Status SelectedBodyRanges(const BatchHeader& header, int64_t body_size,
                          const std::vector<IpcField>& fields, const IpcReadOptions& options,
                          const std::vector<int32_t>* selected,
                          std::vector<std::pair<int64_t, int64_t>>* out);

/// Sums the sizes of the body's buffers once decompressed (from the length
/// prefixes, without decompressing).
Status UncompressedBodyBytes(InputView input, const Message& message, const BatchHeader& header,
                             int64_t* out);

}  // namespace rowbridge::ipc
