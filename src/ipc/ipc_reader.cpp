// IpcReader: file and stream framing, dictionaries, and batch export.
#include "rowbridge/ipc_reader.hpp"

#include <algorithm>
#include <new>
#include <set>

#include "ipc/array_export.hpp"
#include "ipc/input_file.hpp"
#include "ipc/ipc_body.hpp"

namespace rowbridge::ipc {
namespace {

// Fields of the DictionaryBatch table.
enum DictionaryBatchField {
  kDictionaryBatchId = 0,
  kDictionaryBatchData = 1,
  kDictionaryBatchIsDelta = 2
};

/// Hard ceilings on the options, so that size arithmetic cannot overflow and
/// recursion stays shallow whatever the caller asks for.
constexpr int64_t kMaxArrayLengthCeiling = int64_t{1} << 48;
constexpr int32_t kMaxDepthCeiling = 1000;

/// The error for an exception nothing in the reader should throw.
Status Unexpected(const std::string& name, const std::exception& e) {
  return Status::Internal(name + ": unexpected exception: " + e.what());
}

std::string Where(int64_t offset) { return "at offset " + std::to_string(offset); }

}  // namespace

struct IpcReader::Impl {
  std::string name;
  IpcReadOptions options;
  std::shared_ptr<const void> owner;
  InputView input;
  IpcFormat format = IpcFormat::kStream;
  IpcSchema schema;
  /// With a column selection: the selected fields (what ExportSchema
  /// exports), and the dictionary ids they use.
  IpcSchema projected;
  std::set<int64_t> needed_dictionaries;
  Footer footer;
  Decompressor decompressor;
  DictionaryMemo dictionaries;
  bool file_dictionaries_loaded = false;
  Status file_dictionaries_status;  // why loading the footer's dictionaries failed
  int64_t position = 0;             // stream: the next message
  int64_t message_index = 0;        // stream: messages read so far (the schema is 0)
  int64_t batches_read = 0;         // stream: record batches read so far
  int64_t next_file_batch = 0;      // file: ReadNext's next batch
  bool finished = false;
  int64_t body_bytes_read = 0;
  int64_t owned_bytes_read = 0;
  Status failure;  // once a read failed, every later read fails
  std::string compression;

  /// Prefixes errors with the input's name.
  Status Fail(const Status& status, const std::string& where) const {
    return status.WithContext(name + ": " + where);
  }

  void NoteCompression(Codec codec) {
    const char* codec_name = CodecName(codec);
    if (compression.empty()) compression = codec_name;
    else if (compression != codec_name) compression = "mixed";
  }

  BodyContext Context(const Message& message) {
    BodyContext context;
    context.input = input;
    context.input_owner = owner;
    context.message = &message;
    context.options = &options;
    context.decompressor = &decompressor;
    context.dictionaries = &dictionaries;
    return context;
  }

  Status ParseSchemaTable(const FlatTable& table, int16_t version) {
    SchemaLimits limits;
    limits.max_depth = options.max_nesting_depth;
    limits.max_fields = options.max_fields;
    ROWBRIDGE_RETURN_NOT_OK(ParseSchema(table, limits, &schema));
    schema.metadata_version = version;
    return SelectColumns();
  }

  /// Checks the column selection of the options against the schema.
  Status SelectColumns() {
    if (!options.select_columns) return Status::Ok();
    std::vector<bool> seen(schema.fields.size(), false);
    projected.metadata = schema.metadata;
    projected.metadata_version = schema.metadata_version;
    for (int32_t column : options.columns) {
      if (column < 0 || static_cast<size_t>(column) >= schema.fields.size()) {
        return Status::Invalid("column " + std::to_string(column) +
                               " is not in the schema (it has " +
                               std::to_string(schema.fields.size()) + " columns)");
      }
      if (seen[static_cast<size_t>(column)]) {
        return Status::Invalid("column " + std::to_string(column) + " is selected twice");
      }
      seen[static_cast<size_t>(column)] = true;
      const IpcField& field = schema.fields[static_cast<size_t>(column)];
      projected.fields.push_back(field);
      NoteDictionaries(field);
    }
    return Status::Ok();
  }

  void NoteDictionaries(const IpcField& field) {
    if (field.is_dictionary) needed_dictionaries.insert(field.dictionary_id);
    for (const IpcField& child : field.children) NoteDictionaries(child);
  }

  const std::vector<int32_t>* Selection() const {
    return options.select_columns ? &options.columns : nullptr;
  }

  Status OpenFile() {
    format = IpcFormat::kFile;
    ROWBRIDGE_RETURN_NOT_OK(Fail(ReadFooter(input, &footer), "file footer"));
    ROWBRIDGE_RETURN_NOT_OK(Fail(ParseSchemaTable(footer.schema, footer.version), "schema"));
    if (!footer.record_batches.empty()) {
      // The compression of the first batch, for compression_name(); errors
      // are left for ReadBatch to report.
      Message message;
      BatchHeader header;
      if (ReadBlockMessage(input, footer, footer.record_batches[0], &message).ok() &&
          message.type == MessageType::kRecordBatch &&
          ReadBatchHeader(message.header, &header).ok()) {
        NoteCompression(header.codec);
      }
    }
    return Status::Ok();
  }

  /// True when the input starts like an encapsulated message: a continuation
  /// marker, or a legacy metadata length that fits the input.
  bool LooksLikeMessage() const {
    if (input.size < 4) return true;  // reported as truncated
    uint32_t word = LoadLittleEndian<uint32_t>(input.data);
    return word == 0xFFFFFFFFu || int64_t{word} <= input.size - 4;
  }

  Status OpenStream() {
    format = IpcFormat::kStream;
    Message message;
    bool end = false;
    std::string where = "message 0 " + Where(0);
    Status status = ReadMessage(input, 0, input.size, &message, &end);
    if (!status.ok() && !LooksLikeMessage()) {
      return Fail(Status::Invalid("not an Arrow IPC file or stream: it starts with neither the "
                                  "ARROW1 magic nor a message"),
                  where);
    }
    ROWBRIDGE_RETURN_NOT_OK(Fail(status, where));
    if (end) return Fail(Status::Invalid("the stream ends before its schema"), where);
    if (message.type != MessageType::kSchema) {
      return Fail(Status::Invalid(std::string("the stream starts with a ") +
                                  MessageTypeName(message.type) + " message, not a Schema"),
                  where);
    }
    ROWBRIDGE_RETURN_NOT_OK(Fail(ParseSchemaTable(message.header, message.version), where));
    position = message.end;
    message_index = 1;
    return Status::Ok();
  }

  /// Applies a DictionaryBatch message.
  Status ApplyDictionary(const Message& message) {
    int64_t id = 0;
    uint8_t is_delta = 0;
    ROWBRIDGE_RETURN_NOT_OK(message.header.Scalar<int64_t>(kDictionaryBatchId, 0, &id));
    ROWBRIDGE_RETURN_NOT_OK(message.header.Scalar<uint8_t>(kDictionaryBatchIsDelta, 0, &is_delta));
    auto it = schema.dictionaries.find(id);
    if (it == schema.dictionaries.end()) {
      return Status::Invalid("dictionary batch for id " + std::to_string(id) +
                             ", which no field of the schema uses");
    }
    if (options.select_columns && needed_dictionaries.count(id) == 0) {
      return Status::Ok();  // only unselected columns use it
    }
    if (format == IpcFormat::kFile && is_delta == 0 && dictionaries.Contains(id)) {
      return Status::Invalid("dictionary id " + std::to_string(id) +
                             " is defined twice (the file format allows no replacement)");
    }
    FlatTable data;
    bool present = false;
    ROWBRIDGE_RETURN_NOT_OK(
        message.header.Table(kDictionaryBatchData, "RecordBatch", &data, &present));
    if (!present) return Status::Invalid("dictionary batch without data");
    BatchHeader header;
    ROWBRIDGE_RETURN_NOT_OK(ReadBatchHeader(data, &header));
    IpcField value = *it->second;
    value.is_dictionary = false;
    std::shared_ptr<const ArrayData> batch;
    Status status = DecodeBatch(Context(message), header, {value}, &batch);
    if (!status.ok()) return status.WithContext("dictionary id " + std::to_string(id));
    return dictionaries.Add(*it->second, id, batch->children[0], is_delta != 0);
  }

  /// Decodes and exports the RecordBatch `message`.
  Status ExportBatch(const Message& message, ArrowArray* out) {
    BatchHeader header;
    ROWBRIDGE_RETURN_NOT_OK(ReadBatchHeader(message.header, &header));
    std::shared_ptr<const ArrayData> batch;
    ROWBRIDGE_RETURN_NOT_OK(
        DecodeBatch(Context(message), header, schema.fields, &batch, Selection()));
    NoteCompression(header.codec);
    body_bytes_read += message.body_size;
    if (batch->memory != nullptr) {
      for (const auto& owned : batch->memory->owned) owned_bytes_read += owned->size();
    }
    return ExportArrayData(std::move(batch), out);
  }

  Status LoadFileDictionaries() {
    if (file_dictionaries_loaded) return file_dictionaries_status;
    file_dictionaries_loaded = true;
    file_dictionaries_status = ApplyFileDictionaries();
    return file_dictionaries_status;
  }

  Status ApplyFileDictionaries() {
    for (size_t i = 0; i < footer.dictionaries.size(); ++i) {
      const FileBlock& block = footer.dictionaries[i];
      std::string where = "dictionary batch " + std::to_string(i) + " " + Where(block.offset);
      Message message;
      ROWBRIDGE_RETURN_NOT_OK(Fail(ReadBlockMessage(input, footer, block, &message), where));
      if (message.type != MessageType::kDictionaryBatch) {
        return Fail(Status::Invalid(std::string("the block holds a ") +
                                    MessageTypeName(message.type) + " message"),
                    where);
      }
      ROWBRIDGE_RETURN_NOT_OK(Fail(ApplyDictionary(message), where));
    }
    return Status::Ok();
  }

  Status ReadFileBatch(int64_t index, ArrowArray* out) {
    int64_t count = static_cast<int64_t>(footer.record_batches.size());
    if (index < 0 || index >= count) {
      return Status::Invalid(name + ": record batch " + std::to_string(index) +
                             " does not exist (the file has " + std::to_string(count) + ")");
    }
    ROWBRIDGE_RETURN_NOT_OK(LoadFileDictionaries());
    const FileBlock& block = footer.record_batches[static_cast<size_t>(index)];
    std::string where = "record batch " + std::to_string(index) + " " + Where(block.offset);
    Message message;
    ROWBRIDGE_RETURN_NOT_OK(Fail(ReadBlockMessage(input, footer, block, &message), where));
    if (message.type != MessageType::kRecordBatch) {
      return Fail(Status::Invalid(std::string("the block holds a ") +
                                  MessageTypeName(message.type) + " message"),
                  where);
    }
    return Fail(ExportBatch(message, out), where);
  }

  Status ReadStreamBatch(ArrowArray* out, bool* end_of_stream) {
    for (;;) {
      std::string where = "message " + std::to_string(message_index) + " " + Where(position);
      Message message;
      bool end = false;
      ROWBRIDGE_RETURN_NOT_OK(
          Fail(ReadMessage(input, position, input.size, &message, &end), where));
      if (end) {
        finished = true;
        *end_of_stream = true;
        return Status::Ok();
      }
      switch (message.type) {
        case MessageType::kSchema: return Fail(Status::Invalid("a second Schema message"), where);
        case MessageType::kDictionaryBatch:
          ROWBRIDGE_RETURN_NOT_OK(Fail(ApplyDictionary(message), where + " (dictionary batch)"));
          break;
        case MessageType::kRecordBatch:
          ROWBRIDGE_RETURN_NOT_OK(
              Fail(ExportBatch(message, out),
                   where + " (record batch " + std::to_string(batches_read) + ")"));
          ++batches_read;
          position = message.end;
          ++message_index;
          return Status::Ok();
        default:
          return Fail(
              Status::NotSupported(std::string("a ") + MessageTypeName(message.type) + " message"),
              where);
      }
      position = message.end;
      ++message_index;
    }
  }

  Status InspectBatch(const Message& message, int64_t index, IpcBatchInfo* info) const {
    BatchHeader header;
    ROWBRIDGE_RETURN_NOT_OK(ReadBatchHeader(message.header, &header));
    info->index = index;
    info->offset = message.offset;
    info->metadata_bytes = message.body_offset - message.offset;
    info->body_bytes = message.body_size;
    info->num_rows = header.length;
    info->compression = CodecName(header.codec);
    return UncompressedBodyBytes(input, message, header, &info->uncompressed_body_bytes);
  }

  Status Inspect(IpcFileInfo* out) const {
    out->format = format;
    out->input_bytes = input.size;
    out->metadata_version = schema.metadata_version + 1;
    out->schema_metadata = schema.metadata;
    if (format == IpcFormat::kFile) {
      out->num_dictionary_batches = static_cast<int64_t>(footer.dictionaries.size());
      for (size_t i = 0; i < footer.record_batches.size(); ++i) {
        const FileBlock& block = footer.record_batches[i];
        std::string where = "record batch " + std::to_string(i) + " " + Where(block.offset);
        Message message;
        ROWBRIDGE_RETURN_NOT_OK(Fail(ReadBlockMessage(input, footer, block, &message), where));
        if (message.type != MessageType::kRecordBatch) {
          return Fail(Status::Invalid("the block does not hold a record batch"), where);
        }
        IpcBatchInfo info;
        ROWBRIDGE_RETURN_NOT_OK(Fail(InspectBatch(message, static_cast<int64_t>(i), &info), where));
        out->batches.push_back(std::move(info));
      }
    } else {
      Message message;
      bool end = false;
      ROWBRIDGE_RETURN_NOT_OK(ReadMessage(input, 0, input.size, &message, &end));
      for (int64_t index = 1, at = message.end;; ++index) {
        std::string where = "message " + std::to_string(index) + " " + Where(at);
        ROWBRIDGE_RETURN_NOT_OK(Fail(ReadMessage(input, at, input.size, &message, &end), where));
        if (end) break;
        if (message.type == MessageType::kDictionaryBatch) {
          ++out->num_dictionary_batches;
        } else if (message.type == MessageType::kRecordBatch) {
          IpcBatchInfo info;
          ROWBRIDGE_RETURN_NOT_OK(
              Fail(InspectBatch(message, static_cast<int64_t>(out->batches.size()), &info), where));
          out->batches.push_back(std::move(info));
        } else {
          return Fail(Status::Invalid(std::string("unexpected ") + MessageTypeName(message.type) +
                                      " message"),
                      where);
        }
        at = message.end;
      }
    }
    out->num_record_batches = static_cast<int64_t>(out->batches.size());
    out->num_rows = 0;
    out->compression.clear();
    for (const IpcBatchInfo& info : out->batches) {
      out->num_rows += info.num_rows;
      if (out->compression.empty()) out->compression = info.compression;
      else if (out->compression != info.compression) out->compression = "mixed";
    }
    if (out->compression.empty()) out->compression = "none";
    return Status::Ok();
  }
};

IpcReader::IpcReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
IpcReader::~IpcReader() = default;

Status IpcReader::Open(const std::string& path, const IpcReadOptions& options,
                       std::unique_ptr<IpcReader>* out) {
  try {
    InputBytes bytes;
    ROWBRIDGE_RETURN_NOT_OK(LoadInputFile(path, options.memory_map, &bytes));
    return OpenBuffer(std::move(bytes.owner), bytes.data, bytes.size, path, options, out);
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory(path + ": out of memory reading the input");
  } catch (const std::exception& e) {
    return Unexpected(path, e);
  }
}

Status IpcReader::OpenBytes(std::shared_ptr<const std::vector<uint8_t>> bytes,
                            const std::string& name, const IpcReadOptions& options,
                            std::unique_ptr<IpcReader>* out) {
  if (bytes == nullptr) return Status::Invalid(name + ": no input bytes (null)");
  const uint8_t* data = bytes->data();
  auto size = static_cast<int64_t>(bytes->size());
  return OpenBuffer(std::move(bytes), data, size, name, options, out);
}

Status IpcReader::OpenBuffer(std::shared_ptr<const void> owner, const uint8_t* data, int64_t size,
                             const std::string& name, const IpcReadOptions& options,
                             std::unique_ptr<IpcReader>* out) {
  try {
    if (size < 0 || (data == nullptr && size != 0)) {
      return Status::Invalid(name + ": invalid input buffer");
    }
    if (size == 0) return Status::Invalid(name + ": empty input, not an Arrow IPC file or stream");
    auto impl = std::make_unique<Impl>();
    impl->name = name;
    impl->options = options;
    impl->options.max_array_length =
        std::clamp<int64_t>(options.max_array_length, 0, kMaxArrayLengthCeiling);
    impl->options.max_nesting_depth = std::clamp(options.max_nesting_depth, 1, kMaxDepthCeiling);
    impl->options.max_buffer_bytes = std::max<int64_t>(options.max_buffer_bytes, 0);
    impl->owner = std::move(owner);
    impl->input = InputView{data, size};
    ROWBRIDGE_RETURN_NOT_OK(HasFileMagic(impl->input) ? impl->OpenFile() : impl->OpenStream());
    out->reset(new IpcReader(std::move(impl)));
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory(name + ": out of memory opening the input");
  } catch (const std::exception& e) {
    return Unexpected(name, e);
  }
}

Status IpcReader::Layout(IpcFileLayout* out) const {
  if (impl_->format != IpcFormat::kFile) {
    return Status::NotSupported(impl_->name + ": a stream has no footer to lay out");
  }
  try {
    auto convert = [](const std::vector<FileBlock>& blocks,
                      std::vector<IpcFileLayout::Block>* into) {
      into->clear();
      for (const FileBlock& block : blocks) {
        into->push_back({block.offset, block.metadata_length, block.body_length});
      }
    };
    convert(impl_->footer.dictionaries, &out->dictionaries);
    convert(impl_->footer.record_batches, &out->record_batches);
    out->footer_offset = impl_->footer.footer_offset;
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory(impl_->name + ": out of memory listing the footer's blocks");
  }
}

Status IpcReader::BatchByteRanges(int64_t index, std::vector<IpcByteRange>* out) const {
  const Impl& impl = *impl_;
  if (impl.format != IpcFormat::kFile) {
    return Status::NotSupported(impl.name + ": a stream cannot be read by byte ranges");
  }
  int64_t count = static_cast<int64_t>(impl.footer.record_batches.size());
  if (index < 0 || index >= count) {
    return Status::Invalid(impl.name + ": record batch " + std::to_string(index) +
                           " does not exist (the file has " + std::to_string(count) + ")");
  }
  try {
    const FileBlock& block = impl.footer.record_batches[static_cast<size_t>(index)];
    std::string where = "record batch " + std::to_string(index) + " " + Where(block.offset);
    Message message;
    ROWBRIDGE_RETURN_NOT_OK(
        impl.Fail(ReadBlockMessage(impl.input, impl.footer, block, &message), where));
    if (message.type != MessageType::kRecordBatch) {
      return impl.Fail(Status::Invalid("the block does not hold a record batch"), where);
    }
    BatchHeader header;
    ROWBRIDGE_RETURN_NOT_OK(impl.Fail(ReadBatchHeader(message.header, &header), where));
    std::vector<std::pair<int64_t, int64_t>> body;
    ROWBRIDGE_RETURN_NOT_OK(
        impl.Fail(SelectedBodyRanges(header, message.body_size, impl.schema.fields, impl.options,
                                     impl.Selection(), &body),
                  where));
    out->clear();
    out->push_back({message.offset, message.body_offset - message.offset});
    for (const auto& [offset, length] : body) {
      int64_t start = message.body_offset + offset;
      IpcByteRange& last = out->back();
      if (start <= last.offset + last.length) {
        last.length = std::max(last.length, start + length - last.offset);
      } else {
        out->push_back({start, length});
      }
    }
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory(impl.name + ": out of memory listing a batch's byte ranges");
  }
}

Status IpcReader::ExportSchema(ArrowSchema* out) const {
  return ExportIpcSchema(impl_->options.select_columns ? impl_->projected : impl_->schema, out);
}

Status IpcReader::Clone(std::unique_ptr<IpcReader>* out) const {
  return OpenBuffer(impl_->owner, impl_->input.data, impl_->input.size, impl_->name, impl_->options,
                    out);
}

int64_t IpcReader::body_bytes_read() const { return impl_->body_bytes_read; }

int64_t IpcReader::owned_bytes_read() const { return impl_->owned_bytes_read; }

IpcFormat IpcReader::format() const { return impl_->format; }

const std::string& IpcReader::name() const { return impl_->name; }

int64_t IpcReader::num_batches() const {
  if (impl_->format == IpcFormat::kFile) {
    return static_cast<int64_t>(impl_->footer.record_batches.size());
  }
  return impl_->finished ? impl_->batches_read : -1;
}

const std::string& IpcReader::compression_name() const {
  static const std::string kNone = "none";
  return impl_->compression.empty() ? kNone : impl_->compression;
}

Status IpcReader::ReadNext(ArrowArray* out, bool* end_of_stream) {
  *end_of_stream = false;
  if (!impl_->failure.ok()) return impl_->failure;
  try {
    Status status;
    if (impl_->format == IpcFormat::kFile) {
      if (impl_->next_file_batch >= num_batches()) {
        *end_of_stream = true;
        return Status::Ok();
      }
      status = impl_->ReadFileBatch(impl_->next_file_batch, out);
      if (status.ok()) ++impl_->next_file_batch;
    } else if (impl_->finished) {
      *end_of_stream = true;
      return Status::Ok();
    } else {
      status = impl_->ReadStreamBatch(out, end_of_stream);
    }
    if (!status.ok()) impl_->failure = status;
    return status;
  } catch (const std::bad_alloc&) {
    impl_->failure = Status::OutOfMemory(impl_->name + ": out of memory reading a batch");
    return impl_->failure;
  } catch (const std::exception& e) {
    return Unexpected(impl_->name, e);
  }
}

Status IpcReader::ReadBatch(int64_t index, ArrowArray* out) {
  if (impl_->format != IpcFormat::kFile) {
    return Status::NotSupported(impl_->name +
                                ": random access needs the file format, not a stream");
  }
  try {
    return impl_->ReadFileBatch(index, out);
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory(impl_->name + ": out of memory reading record batch " +
                               std::to_string(index));
  } catch (const std::exception& e) {
    return Unexpected(impl_->name, e);
  }
}

Status IpcReader::Inspect(IpcFileInfo* out) const {
  try {
    *out = IpcFileInfo();
    return impl_->Inspect(out);
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory(impl_->name + ": out of memory inspecting the input");
  } catch (const std::exception& e) {
    return Unexpected(impl_->name, e);
  }
}

}  // namespace rowbridge::ipc
