// Message framing of the IPC formats: encapsulated messages (continuation
// marker, metadata length, Message flatbuffer, body) and the file footer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ipc/flatbuffer_reader.hpp"
#include "rowbridge/status.hpp"

namespace rowbridge::ipc {

/// The input bytes, borrowed.
struct InputView {
  const uint8_t* data = nullptr;
  int64_t size = 0;
};

/// Members of the MessageHeader union.
enum class MessageType : uint8_t {
  kNone = 0,
  kSchema = 1,
  kDictionaryBatch = 2,
  kRecordBatch = 3,
  kTensor = 4,
  kSparseTensor = 5,
};

const char* MessageTypeName(MessageType type);

/// One message located in the input, its metadata parsed to the header.
struct Message {
  int64_t offset = 0;           // the first byte of the message (its prefix)
  int64_t metadata_offset = 0;  // the Message flatbuffer
  int64_t metadata_size = 0;
  int64_t body_offset = 0;
  int64_t body_size = 0;
  int64_t end = 0;  // where the next message starts
  int16_t version = 0;
  MessageType type = MessageType::kNone;
  FlatTable header;  // the Schema, DictionaryBatch or RecordBatch table
};

/// Reads the message at `position`. Sets `*end_of_stream` (and leaves `out`
/// unspecified) at an end-of-stream marker or when `position` is the end of
/// the input. `limit` bounds the message (the input size, or the start of a
/// file's footer). Errors name the problem and the offset.
Status ReadMessage(InputView input, int64_t position, int64_t limit, Message* out,
                   bool* end_of_stream);

/// A Block of the file footer.
struct FileBlock {
  int64_t offset = 0;
  int32_t metadata_length = 0;
  int64_t body_length = 0;
};

/// The footer of a file-format input.
struct Footer {
  int16_t version = 0;
  FlatTable schema;
  std::vector<FileBlock> dictionaries;
  std::vector<FileBlock> record_batches;
  int64_t footer_offset = 0;  // where the footer flatbuffer starts
};

/// The leading and trailing magic of the file format.
constexpr char kFileMagic[] = "ARROW1";
constexpr int64_t kFileMagicSize = 6;

/// True when `input` starts with the file magic.
bool HasFileMagic(InputView input);

/// Reads the footer of a file-format input (checks both magics and the
/// footer length).
Status ReadFooter(InputView input, Footer* out);

/// Reads the message a file block points to, checking that the block and the
/// message agree and lie before the footer.
Status ReadBlockMessage(InputView input, const Footer& footer, const FileBlock& block,
                        Message* out);

}  // namespace rowbridge::ipc
