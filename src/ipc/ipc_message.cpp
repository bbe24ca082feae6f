#include "ipc/ipc_message.hpp"

#include <cstring>

namespace rowbridge::ipc {
namespace {

constexpr uint32_t kContinuation = 0xFFFFFFFFu;

// Field numbers of the Message and Footer tables.
enum MessageField {
  kMessageVersion = 0,
  kMessageHeaderType = 1,
  kMessageHeader = 2,
  kMessageBodyLength = 3
};
enum FooterField {
  kFooterVersion = 0,
  kFooterSchema = 1,
  kFooterDictionaries = 2,
  kFooterRecordBatches = 3
};

constexpr int16_t kMetadataV4 = 3;  // MetadataVersion enum: V1 = 0 ... V5 = 4
constexpr int16_t kMetadataV5 = 4;

std::string At(int64_t offset) { return "at offset " + std::to_string(offset); }

Status Truncated(int64_t offset, const std::string& what, int64_t needed, int64_t available) {
  return Status::Invalid("truncated input " + At(offset) + ": " + what + " needs " +
                         std::to_string(needed) + " bytes, " + std::to_string(available) +
                         " remain");
}

Status CheckVersion(int16_t version, const std::string& where) {
  if (version == kMetadataV4 || version == kMetadataV5) return Status::Ok();
  if (version >= 0 && version < kMetadataV4) {
    return Status::NotSupported(where + ": metadata version V" + std::to_string(version + 1) +
                                " (before Arrow 0.8) is not supported");
  }
  return Status::Invalid(where + ": unknown metadata version " + std::to_string(version));
}

Status ParseMessage(InputView input, int64_t metadata_offset, int64_t metadata_size, int64_t limit,
                    Message* out) {
  FlatBuffer buffer{input.data + metadata_offset, metadata_size};
  FlatTable message;
  ROWBRIDGE_RETURN_NOT_OK(FlatTable::Root(buffer, "Message", &message));
  ROWBRIDGE_RETURN_NOT_OK(message.Scalar<int16_t>(kMessageVersion, 0, &out->version));
  ROWBRIDGE_RETURN_NOT_OK(CheckVersion(out->version, "the message"));
  uint8_t type = 0;
  ROWBRIDGE_RETURN_NOT_OK(message.Scalar<uint8_t>(kMessageHeaderType, 0, &type));
  out->type = static_cast<MessageType>(type);
  if (type == 0 || type > 5) {
    return Status::Invalid("the message has unknown header type " + std::to_string(type));
  }
  if (out->type == MessageType::kTensor || out->type == MessageType::kSparseTensor) {
    return Status::NotSupported(std::string(MessageTypeName(out->type)) +
                                " messages are not supported");
  }
  bool present = false;
  ROWBRIDGE_RETURN_NOT_OK(
      message.Table(kMessageHeader, MessageTypeName(out->type), &out->header, &present));
  if (!present) return Status::Invalid("the message has no header");
  int64_t body_length = 0;
  ROWBRIDGE_RETURN_NOT_OK(message.Scalar<int64_t>(kMessageBodyLength, 0, &body_length));
  out->metadata_offset = metadata_offset;
  out->metadata_size = metadata_size;
  out->body_offset = metadata_offset + metadata_size;
  if (body_length < 0) {
    return Status::Invalid("the message has a negative body length " + std::to_string(body_length));
  }
  if (body_length > limit - out->body_offset) {
    return Truncated(out->body_offset, "the message body", body_length, limit - out->body_offset);
  }
  out->body_size = body_length;
  out->end = out->body_offset + body_length;
  return Status::Ok();
}

}  // namespace

const char* MessageTypeName(MessageType type) {
  switch (type) {
    case MessageType::kSchema: return "Schema";
    case MessageType::kDictionaryBatch: return "DictionaryBatch";
    case MessageType::kRecordBatch: return "RecordBatch";
    case MessageType::kTensor: return "Tensor";
    case MessageType::kSparseTensor: return "SparseTensor";
    default: return "unknown";
  }
}

Status ReadMessage(InputView input, int64_t position, int64_t limit, Message* out,
                   bool* end_of_stream) {
  *end_of_stream = false;
  if (position == limit) {
    *end_of_stream = true;
    return Status::Ok();
  }
  if (position < 0 || position > limit || limit > input.size) {
    return Status::Invalid("message offset " + std::to_string(position) + " is outside the input");
  }
  int64_t remaining = limit - position;
  if (remaining < 4) return Truncated(position, "a message length", 4, remaining);
  uint32_t word = LoadLittleEndian<uint32_t>(input.data + position);
  int64_t prefix = 4;
  int32_t length = static_cast<int32_t>(word);
  if (word == kContinuation) {
    if (remaining < 8) return Truncated(position, "a message length", 8, remaining);
    length = LoadLittleEndian<int32_t>(input.data + position + 4);
    prefix = 8;
  }
  if (length == 0) {
    *end_of_stream = true;
    return Status::Ok();
  }
  if (length < 0) {
    return Status::Invalid("the message has a negative metadata length " + std::to_string(length));
  }
  if (length > remaining - prefix) {
    return Truncated(position + prefix, "the message metadata", length, remaining - prefix);
  }
  out->offset = position;
  return ParseMessage(input, position + prefix, length, limit, out);
}

bool HasFileMagic(InputView input) {
  return input.size >= kFileMagicSize && std::memcmp(input.data, kFileMagic, kFileMagicSize) == 0;
}

Status ReadFooter(InputView input, Footer* out) {
  // "ARROW1" + 2 padding bytes ... footer, int32 footer length, "ARROW1".
  constexpr int64_t kTrailer = 4 + kFileMagicSize;
  if (input.size < 8 + kTrailer) {
    return Status::Invalid("truncated file: " + std::to_string(input.size) +
                           " bytes cannot hold the file format's magic and footer");
  }
  if (std::memcmp(input.data + input.size - kFileMagicSize, kFileMagic, kFileMagicSize) != 0) {
    return Status::Invalid(
        "truncated or corrupt file: it starts with the ARROW1 magic but does "
        "not end with it");
  }
  int32_t footer_length = LoadLittleEndian<int32_t>(input.data + input.size - kTrailer);
  int64_t footer_offset = input.size - kTrailer - int64_t{footer_length};
  if (footer_length <= 0 || footer_offset < 8) {
    return Status::Invalid("corrupt file: footer length " + std::to_string(footer_length) +
                           " does not fit the " + std::to_string(input.size) + "-byte file");
  }
  FlatBuffer buffer{input.data + footer_offset, footer_length};
  FlatTable footer;
  ROWBRIDGE_RETURN_NOT_OK(FlatTable::Root(buffer, "Footer", &footer));
  ROWBRIDGE_RETURN_NOT_OK(footer.Scalar<int16_t>(kFooterVersion, 0, &out->version));
  ROWBRIDGE_RETURN_NOT_OK(CheckVersion(out->version, "file footer"));
  bool present = false;
  ROWBRIDGE_RETURN_NOT_OK(footer.Table(kFooterSchema, "Schema", &out->schema, &present));
  if (!present) return Status::Invalid("file footer has no schema");
  out->footer_offset = footer_offset;
  for (int field : {kFooterDictionaries, kFooterRecordBatches}) {
    FlatVector blocks;
    // struct Block { offset: long; metaDataLength: int; (4 padding) bodyLength: long; }
    ROWBRIDGE_RETURN_NOT_OK(footer.Vector(field, 24, &blocks));
    std::vector<FileBlock>& list =
        field == kFooterDictionaries ? out->dictionaries : out->record_batches;
    list.resize(static_cast<size_t>(blocks.size()));
    for (int64_t i = 0; i < blocks.size(); ++i) {
      const uint8_t* element = blocks.Element(i);
      FileBlock& block = list[static_cast<size_t>(i)];
      block.offset = LoadLittleEndian<int64_t>(element);
      block.metadata_length = LoadLittleEndian<int32_t>(element + 8);
      block.body_length = LoadLittleEndian<int64_t>(element + 16);
    }
  }
  return Status::Ok();
}

Status ReadBlockMessage(InputView input, const Footer& footer, const FileBlock& block,
                        Message* out) {
  int64_t limit = footer.footer_offset;
  std::string where = "block " + At(block.offset);
  if (block.offset < 8 || block.offset >= limit || block.metadata_length <= 0 ||
      block.body_length < 0 || block.metadata_length > limit - block.offset ||
      block.body_length > limit - block.offset - block.metadata_length) {
    return Status::Invalid(where + " (metadata " + std::to_string(block.metadata_length) +
                           " bytes, body " + std::to_string(block.body_length) +
                           " bytes) does not lie between the file's magic and its footer");
  }
  bool end_of_stream = false;
  ROWBRIDGE_RETURN_NOT_OK(ReadMessage(input, block.offset, limit, out, &end_of_stream));
  if (end_of_stream) return Status::Invalid(where + " points to an end-of-stream marker");
  if (out->body_offset != block.offset + block.metadata_length ||
      out->body_size != block.body_length) {
    return Status::Invalid(where + ": the block's lengths (metadata " +
                           std::to_string(block.metadata_length) + ", body " +
                           std::to_string(block.body_length) + ") disagree with the message's (" +
                           std::to_string(out->body_offset - block.offset) + ", " +
                           std::to_string(out->body_size) + ")");
  }
  return Status::Ok();
}

}  // namespace rowbridge::ipc
