#include "ipc/ipc_body.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "arrow/value_checks.hpp"

namespace rowbridge::ipc {
namespace {

// Fields of the RecordBatch and BodyCompression tables.
enum BatchField {
  kBatchLength = 0,
  kBatchNodes = 1,
  kBatchBuffers = 2,
  kBatchCompression = 3,
  kBatchVariadicCounts = 4
};

/// What zero-length buffers (and the offsets of an empty array written without
/// any) point to: zeros, aligned for any type.
alignas(16) const uint8_t kEmptyBuffer[16] = {};

struct BufferRef {
  const uint8_t* data = nullptr;
  int64_t size = 0;
};

/// a * b for non-negative a and b, saturated at INT64_MAX.
int64_t SaturatingMultiply(int64_t a, int64_t b) {
  int64_t product = 0;
  return __builtin_mul_overflow(a, b, &product) ? INT64_MAX : product;
}

Status FieldError(const IpcField& field, const std::string& problem) {
  return Status::Invalid("field '" + field.path + "': " + problem);
}

/// Decodes the nodes and buffers of one batch body, in schema pre-order.
class BodyDecoder {
 public:
  BodyDecoder(const BodyContext& context, const BatchHeader& header)
      : context_(context),
        header_(header),
        options_(*context.options),
        body_(context.input.data + context.message->body_offset),
        body_size_(context.message->body_size),
        memory_(std::make_shared<MessageMemory>()) {
    memory_->input = context.input_owner;
  }

  Status DecodeField(const IpcField& field, std::shared_ptr<const ArrayData>* out) {
    auto data = std::make_shared<ArrayData>();
    data->memory = memory_;
    ROWBRIDGE_RETURN_NOT_OK(NextNode(field, data.get()));
    if (field.is_dictionary) {
      ROWBRIDGE_RETURN_NOT_OK(DecodeIndices(field, data.get()));
    } else {
      ROWBRIDGE_RETURN_NOT_OK(DecodeValues(field, data.get()));
    }
    *out = std::move(data);
    return Status::Ok();
  }

  /// Steps over the nodes and buffers of `field` (and its children) without
  /// reading or decompressing them.
  Status SkipField(const IpcField& field) {
    ++next_node_;
    if (field.is_dictionary) {
      next_buffer_ += 2;  // validity, indices
      return Status::Ok();
    }
    switch (field.type.id) {
      case ArrowTypeId::kNull: break;
      case ArrowTypeId::kRunEndEncoded: break;
      case ArrowTypeId::kStruct:
      case ArrowTypeId::kFixedSizeList: next_buffer_ += 1; break;
      case ArrowTypeId::kList:
      case ArrowTypeId::kMap:
      case ArrowTypeId::kLargeList: next_buffer_ += 2; break;
      case ArrowTypeId::kListView:
      case ArrowTypeId::kLargeListView:
      case ArrowTypeId::kUtf8:
      case ArrowTypeId::kBinary:
      case ArrowTypeId::kLargeUtf8:
      case ArrowTypeId::kLargeBinary: next_buffer_ += 3; break;
      case ArrowTypeId::kUtf8View:
      case ArrowTypeId::kBinaryView: {
        if (next_variadic_ >= header_.variadic_counts.size()) {
          return FieldError(field, "the batch has no variadic buffer count for this view field");
        }
        int64_t count = header_.variadic_counts.ScalarAt<int64_t>(next_variadic_++);
        if (count < 0 || count > header_.buffers.size()) {
          return FieldError(field, "variadic buffer count " + std::to_string(count) +
                                       " exceeds the buffers the batch has");
        }
        next_buffer_ += 2 + count;
        break;
      }
      default: next_buffer_ += 2; break;  // validity and values
    }
    for (const IpcField& child : field.children) ROWBRIDGE_RETURN_NOT_OK(SkipField(child));
    return Status::Ok();
  }

  /// The index of the next buffer the decoder would read.
  int64_t next_buffer() const { return next_buffer_; }

  /// Checks that the body had exactly the nodes and buffers the schema needs.
  Status Finish() const {
    auto mismatch = [](const char* what, int64_t has, int64_t used) {
      return Status::Invalid("the batch has " + std::to_string(has) + " " + what +
                             " but its schema describes " + std::to_string(used));
    };
    if (next_node_ != header_.nodes.size()) {
      return mismatch("field nodes", header_.nodes.size(), next_node_);
    }
    if (next_buffer_ != header_.buffers.size()) {
      return mismatch("buffers", header_.buffers.size(), next_buffer_);
    }
    if (next_variadic_ != header_.variadic_counts.size()) {
      return mismatch("variadic buffer counts", header_.variadic_counts.size(), next_variadic_);
    }
    return Status::Ok();
  }

  std::shared_ptr<const MessageMemory> memory() const { return memory_; }

 private:
  Status NextNode(const IpcField& field, ArrayData* data) {
    if (next_node_ >= header_.nodes.size()) {
      return FieldError(field, "the batch has only " + std::to_string(header_.nodes.size()) +
                                   " field nodes, fewer than its schema needs");
    }
    const uint8_t* node = header_.nodes.Element(next_node_++);
    data->length = LoadLittleEndian<int64_t>(node);
    data->null_count = LoadLittleEndian<int64_t>(node + 8);
    if (data->length < 0 || data->length > options_.max_array_length) {
      return FieldError(field, "length " + std::to_string(data->length) +
                                   " is negative or above the limit of " +
                                   std::to_string(options_.max_array_length) +
                                   " (IpcReadOptions::max_array_length)");
    }
    if (data->null_count < 0 || data->null_count > data->length) {
      return FieldError(field, "null count " + std::to_string(data->null_count) +
                                   " is outside [0, " + std::to_string(data->length) + "]");
    }
    return Status::Ok();
  }

  Status NextBuffer(const IpcField& field, const char* role, int64_t alignment, BufferRef* out) {
    int64_t index = next_buffer_++;
    if (index >= header_.buffers.size()) {
      return FieldError(field, "the batch has only " + std::to_string(header_.buffers.size()) +
                                   " buffers, fewer than its schema needs");
    }
    std::string what = "buffer " + std::to_string(index) + " (" + role + ")";
    const uint8_t* entry = header_.buffers.Element(index);
    int64_t offset = LoadLittleEndian<int64_t>(entry);
    int64_t length = LoadLittleEndian<int64_t>(entry + 8);
    if (offset < 0 || length < 0 || offset > body_size_ || length > body_size_ - offset) {
      return FieldError(field, what + " [" + std::to_string(offset) + ", +" +
                                   std::to_string(length) + ") is outside the " +
                                   std::to_string(body_size_) + "-byte message body");
    }
    const uint8_t* src = body_ + offset;
    *out = BufferRef{kEmptyBuffer, 0};
    if (length == 0) return Status::Ok();
    if (header_.codec != Codec::kNone) {
      if (length < 8) {
        return FieldError(field, what + " of " + std::to_string(length) +
                                     " bytes has no 8-byte uncompressed length prefix");
      }
      int64_t claim = LoadLittleEndian<int64_t>(src);
      src += 8;
      length -= 8;
      if (claim != -1) {
        if (claim < 0 || claim > options_.max_buffer_bytes) {
          return FieldError(field, what + " claims " + std::to_string(claim) +
                                       " uncompressed bytes, outside [0, " +
                                       std::to_string(options_.max_buffer_bytes) +
                                       "] (IpcReadOptions::max_buffer_bytes)");
        }
        const OwnedBuffer* owned = nullptr;
        Status status = context_.decompressor->Decompress(header_.codec, src, length, claim,
                                                          memory_.get(), &owned);
        if (!status.ok()) return status.WithContext("field '" + field.path + "': " + what);
        if (owned->size() > 0) *out = BufferRef{owned->data(), owned->size()};
        return Status::Ok();
      }
      if (length == 0) return Status::Ok();
    }
    if (reinterpret_cast<uintptr_t>(src) % static_cast<uintptr_t>(alignment) != 0) {
      OwnedBuffer* copy = memory_->Allocate(length);
      std::memcpy(copy->data(), src, static_cast<size_t>(length));
      src = copy->data();
    }
    *out = BufferRef{src, length};
    return Status::Ok();
  }

  /// Reads a buffer that must hold at least `required` bytes.
  Status Sized(const IpcField& field, const char* role, int64_t alignment, int64_t required,
               ArrayData* data) {
    BufferRef buffer;
    ROWBRIDGE_RETURN_NOT_OK(NextBuffer(field, role, alignment, &buffer));
    if (buffer.size < required) {
      return FieldError(field, std::string(role) + " buffer of " + std::to_string(buffer.size) +
                                   " bytes is too short for " + std::to_string(data->length) +
                                   " values (" + std::to_string(required) + " bytes)");
    }
    data->buffers.push_back(buffer.data);
    data->buffer_sizes.push_back(buffer.size);
    return Status::Ok();
  }

  Status Validity(const IpcField& field, ArrayData* data) {
    BufferRef buffer;
    ROWBRIDGE_RETURN_NOT_OK(NextBuffer(field, "validity", 1, &buffer));
    if (data->null_count == 0) {
      data->buffers.push_back(nullptr);
      data->buffer_sizes.push_back(0);
      return Status::Ok();
    }
    int64_t required = (data->length + 7) / 8;
    if (buffer.size < required) {
      return FieldError(field, "null count " + std::to_string(data->null_count) +
                                   " with a validity bitmap of " + std::to_string(buffer.size) +
                                   " bytes (" + std::to_string(data->length) + " values need " +
                                   std::to_string(required) + ")");
    }
    data->buffers.push_back(buffer.data);
    data->buffer_sizes.push_back(buffer.size);
    return Status::Ok();
  }

  /// Reads an offsets buffer of `width` bytes; `*last` is its last offset.
  Status Offsets(const IpcField& field, int32_t width, ArrayData* data, int64_t* last) {
    BufferRef buffer;
    ROWBRIDGE_RETURN_NOT_OK(NextBuffer(field, "offsets", width, &buffer));
    int64_t required = (data->length + 1) * width;
    if (data->length == 0 && buffer.size < width) buffer = BufferRef{kEmptyBuffer, 16};
    if (buffer.size < required) {
      return FieldError(field, "offsets buffer of " + std::to_string(buffer.size) +
                                   " bytes is too short for " + std::to_string(data->length) +
                                   " values (" + std::to_string(required) + " bytes)");
    }
    int64_t first = LoadInteger(buffer.data, width, true, 0);
    *last = LoadInteger(buffer.data, width, true, data->length);
    if (first < 0 || *last < first) {
      return FieldError(
          field, "offsets run from " + std::to_string(first) + " to " + std::to_string(*last));
    }
    data->buffers.push_back(buffer.data);
    data->buffer_sizes.push_back(buffer.size);
    return Status::Ok();
  }

  Status Child(const IpcField& field, size_t index, int64_t min_length, ArrayData* data) {
    std::shared_ptr<const ArrayData> child;
    ROWBRIDGE_RETURN_NOT_OK(DecodeField(field.children[index], &child));
    if (child->length < min_length) {
      return FieldError(field.children[index],
                        "length " + std::to_string(child->length) + " is shorter than the " +
                            std::to_string(min_length) + " elements its parent refers to");
    }
    data->children.push_back(std::move(child));
    return Status::Ok();
  }

  Status DecodeIndices(const IpcField& field, ArrayData* data) {
    ROWBRIDGE_RETURN_NOT_OK(Validity(field, data));
    int32_t width = PrimitiveByteWidth(field.index_type);
    ROWBRIDGE_RETURN_NOT_OK(
        Sized(field, "indices", width, SaturatingMultiply(data->length, width), data));
    data->dictionary = context_.dictionaries != nullptr
                           ? context_.dictionaries->Find(field.dictionary_id)
                           : nullptr;
    if (data->dictionary == nullptr) {
      return FieldError(field, "dictionary id " + std::to_string(field.dictionary_id) +
                                   " has not been defined by a dictionary batch");
    }
    if (!options_.validate_values) return Status::Ok();
    bool is_signed = field.index_format == "c" || field.index_format == "s" ||
                     field.index_format == "i" || field.index_format == "l";
    Status status = CheckIndices(static_cast<const uint8_t*>(data->buffers[0]),
                                 static_cast<const uint8_t*>(data->buffers[1]), width, is_signed,
                                 data->length, data->dictionary->length);
    return status.ok() ? status : status.WithContext("field '" + field.path + "'");
  }

  Status DecodeValues(const IpcField& field, ArrayData* data) {
    const ArrowType& type = field.type;
    int64_t length = data->length;
    int64_t last = 0;
    Status values;
    switch (type.id) {
      case ArrowTypeId::kNull: return Status::Ok();
      case ArrowTypeId::kRunEndEncoded: return DecodeRunEnds(field, data);
      case ArrowTypeId::kStruct:
        ROWBRIDGE_RETURN_NOT_OK(Validity(field, data));
        for (size_t i = 0; i < field.children.size(); ++i) {
          ROWBRIDGE_RETURN_NOT_OK(Child(field, i, length, data));
        }
        return Status::Ok();
      case ArrowTypeId::kFixedSizeList:
        ROWBRIDGE_RETURN_NOT_OK(Validity(field, data));
        return Child(field, 0, SaturatingMultiply(length, type.fixed_size), data);
      case ArrowTypeId::kList:
      case ArrowTypeId::kMap:
      case ArrowTypeId::kLargeList: {
        int32_t width = type.id == ArrowTypeId::kLargeList ? 8 : 4;
        ROWBRIDGE_RETURN_NOT_OK(Validity(field, data));
        ROWBRIDGE_RETURN_NOT_OK(Offsets(field, width, data, &last));
        ROWBRIDGE_RETURN_NOT_OK(Child(field, 0, last, data));
        if (options_.validate_values) {
          values = CheckOffsetsOfWidth(static_cast<const uint8_t*>(data->buffers[1]), width, length,
                                       last);
        }
        break;
      }
      case ArrowTypeId::kListView:
      case ArrowTypeId::kLargeListView: {
        int32_t width = type.id == ArrowTypeId::kLargeListView ? 8 : 4;
        ROWBRIDGE_RETURN_NOT_OK(Validity(field, data));
        ROWBRIDGE_RETURN_NOT_OK(
            Sized(field, "offsets", width, SaturatingMultiply(length, width), data));
        ROWBRIDGE_RETURN_NOT_OK(
            Sized(field, "sizes", width, SaturatingMultiply(length, width), data));
        ROWBRIDGE_RETURN_NOT_OK(Child(field, 0, 0, data));
        if (options_.validate_values) {
          values = CheckListViewsOfWidth(static_cast<const uint8_t*>(data->buffers[0]),
                                         static_cast<const uint8_t*>(data->buffers[1]),
                                         static_cast<const uint8_t*>(data->buffers[2]), width,
                                         length, data->children[0]->length);
        }
        break;
      }
      case ArrowTypeId::kUtf8:
      case ArrowTypeId::kBinary:
      case ArrowTypeId::kLargeUtf8:
      case ArrowTypeId::kLargeBinary: {
        bool large = type.id == ArrowTypeId::kLargeUtf8 || type.id == ArrowTypeId::kLargeBinary;
        int32_t width = large ? 8 : 4;
        ROWBRIDGE_RETURN_NOT_OK(Validity(field, data));
        ROWBRIDGE_RETURN_NOT_OK(Offsets(field, width, data, &last));
        ROWBRIDGE_RETURN_NOT_OK(Sized(field, "data", 1, last, data));
        if (options_.validate_values) {
          values = CheckOffsetsOfWidth(static_cast<const uint8_t*>(data->buffers[1]), width, length,
                                       last);
        }
        break;
      }
      case ArrowTypeId::kUtf8View:
      case ArrowTypeId::kBinaryView: return DecodeViews(field, data);
      case ArrowTypeId::kBool:
        ROWBRIDGE_RETURN_NOT_OK(Validity(field, data));
        return Sized(field, "values", 1, (length + 7) / 8, data);
      case ArrowTypeId::kDenseUnion:
      case ArrowTypeId::kSparseUnion:
        return Status::NotSupported("field '" + field.path + "': unions are not supported");
      default: {
        int32_t width = PrimitiveByteWidth(type);
        if (width <= 0 && type.id != ArrowTypeId::kFixedSizeBinary) {
          return Status::NotSupported("field '" + field.path + "': type '" + field.format +
                                      "' is not supported");
        }
        int64_t alignment = type.id == ArrowTypeId::kFixedSizeBinary ? 1 : width >= 8 ? 8 : width;
        ROWBRIDGE_RETURN_NOT_OK(Validity(field, data));
        return Sized(field, "values", alignment, SaturatingMultiply(length, width), data);
      }
    }
    return values.ok() ? values : values.WithContext("field '" + field.path + "'");
  }

  Status DecodeRunEnds(const IpcField& field, ArrayData* data) {
    if (data->null_count != 0) {
      return FieldError(field, "a run-end encoded array has no validity, but its null count is " +
                                   std::to_string(data->null_count));
    }
    ROWBRIDGE_RETURN_NOT_OK(Child(field, 0, 0, data));
    const ArrayData& run_ends = *data->children[0];
    ROWBRIDGE_RETURN_NOT_OK(Child(field, 1, run_ends.length, data));
    const IpcField& run_ends_field = field.children[0];
    if (run_ends.null_count != 0) return FieldError(run_ends_field, "run ends contain nulls");
    int32_t width = PrimitiveByteWidth(run_ends_field.type);
    const auto* ends = static_cast<const uint8_t*>(run_ends.buffers[1]);
    int64_t last = run_ends.length == 0 ? 0 : LoadInteger(ends, width, true, run_ends.length - 1);
    if (last < data->length) {
      return FieldError(field, "the runs cover " + std::to_string(last) + " of " +
                                   std::to_string(data->length) + " values");
    }
    if (!options_.validate_values) return Status::Ok();
    Status status = CheckRunEndsOfWidth(ends, width, run_ends.length);
    return status.ok() ? status : status.WithContext("field '" + run_ends_field.path + "'");
  }

  Status DecodeViews(const IpcField& field, ArrayData* data) {
    ROWBRIDGE_RETURN_NOT_OK(Validity(field, data));
    ROWBRIDGE_RETURN_NOT_OK(Sized(field, "views", 8, SaturatingMultiply(data->length, 16), data));
    if (next_variadic_ >= header_.variadic_counts.size()) {
      return FieldError(field, "the batch has no variadic buffer count for this view field");
    }
    int64_t count = header_.variadic_counts.ScalarAt<int64_t>(next_variadic_++);
    if (count < 0 || count > header_.buffers.size() - next_buffer_) {
      return FieldError(field, "variadic buffer count " + std::to_string(count) +
                                   " exceeds the buffers the batch has");
    }
    OwnedBuffer* sizes = memory_->Allocate(count * 8);
    for (int64_t i = 0; i < count; ++i) {
      BufferRef buffer;
      ROWBRIDGE_RETURN_NOT_OK(NextBuffer(field, "view data", 1, &buffer));
      data->buffers.push_back(buffer.data);
      data->buffer_sizes.push_back(buffer.size);
      std::memcpy(sizes->data() + i * 8, &buffer.size, 8);
    }
    data->buffers.push_back(sizes->data());
    data->buffer_sizes.push_back(count * 8);
    if (!options_.validate_values) return Status::Ok();
    // The data buffers follow the validity and the views.
    Status status = CheckViews(static_cast<const uint8_t*>(data->buffers[0]),
                               static_cast<const uint8_t*>(data->buffers[1]), 0, data->length,
                               sizes->data(), data->buffers.data() + 2, count);
    return status.ok() ? status : status.WithContext("field '" + field.path + "'");
  }

  const BodyContext& context_;
  const BatchHeader& header_;
  const IpcReadOptions& options_;
  const uint8_t* body_;
  int64_t body_size_;
  std::shared_ptr<MessageMemory> memory_;
  int64_t next_node_ = 0;
  int64_t next_buffer_ = 0;
  int64_t next_variadic_ = 0;
};

}  // namespace

Status ReadBatchHeader(const FlatTable& record_batch, BatchHeader* out) {
  ROWBRIDGE_RETURN_NOT_OK(record_batch.Scalar<int64_t>(kBatchLength, 0, &out->length));
  ROWBRIDGE_RETURN_NOT_OK(record_batch.Vector(kBatchNodes, 16, &out->nodes));
  ROWBRIDGE_RETURN_NOT_OK(record_batch.Vector(kBatchBuffers, 16, &out->buffers));
  ROWBRIDGE_RETURN_NOT_OK(record_batch.Vector(kBatchVariadicCounts, 8, &out->variadic_counts));
  FlatTable compression;
  bool present = false;
  ROWBRIDGE_RETURN_NOT_OK(
      record_batch.Table(kBatchCompression, "BodyCompression", &compression, &present));
  out->codec = Codec::kNone;
  if (!present) return Status::Ok();
  int8_t codec = 0, method = 0;
  ROWBRIDGE_RETURN_NOT_OK(compression.Scalar<int8_t>(0, 0, &codec));
  ROWBRIDGE_RETURN_NOT_OK(compression.Scalar<int8_t>(1, 0, &method));
  if (codec != 0 && codec != 1) {
    return Status::NotSupported("unknown body compression codec " + std::to_string(codec));
  }
  if (method != 0) {
    return Status::NotSupported("unknown body compression method " + std::to_string(method));
  }
  out->codec = static_cast<Codec>(codec);
  return Status::Ok();
}

Status DecodeBatch(const BodyContext& context, const BatchHeader& header,
                   const std::vector<IpcField>& fields, std::shared_ptr<const ArrayData>* out,
                   const std::vector<int32_t>* selected) {
  if (header.length < 0 || header.length > context.options->max_array_length) {
    return Status::Invalid("the batch claims " + std::to_string(header.length) +
                           " rows, negative or above the limit of " +
                           std::to_string(context.options->max_array_length) +
                           " (IpcReadOptions::max_array_length)");
  }
  BodyDecoder decoder(context, header);
  auto root = std::make_shared<ArrayData>();
  root->length = header.length;
  root->buffers.push_back(nullptr);
  root->buffer_sizes.push_back(0);
  // Where each field goes among the children (-1: skipped).
  std::vector<int32_t> position(fields.size(), selected == nullptr ? 0 : -1);
  if (selected != nullptr) {
    for (size_t i = 0; i < selected->size(); ++i) {
      position[static_cast<size_t>((*selected)[i])] = static_cast<int32_t>(i);
    }
  }
  root->children.resize(selected == nullptr ? fields.size() : selected->size());
  for (size_t i = 0; i < fields.size(); ++i) {
    const IpcField& field = fields[i];
    if (position[i] < 0) {
      ROWBRIDGE_RETURN_NOT_OK(decoder.SkipField(field));
      continue;
    }
    std::shared_ptr<const ArrayData> column;
    ROWBRIDGE_RETURN_NOT_OK(decoder.DecodeField(field, &column));
    if (column->length < header.length) {
      return FieldError(field, "length " + std::to_string(column->length) +
                                   " is shorter than the batch's " + std::to_string(header.length) +
                                   " rows");
    }
    root->children[selected == nullptr ? i : static_cast<size_t>(position[i])] = std::move(column);
  }
  ROWBRIDGE_RETURN_NOT_OK(decoder.Finish());
  root->memory = decoder.memory();
  *out = std::move(root);
  return Status::Ok();
}

Status SelectedBodyRanges(const BatchHeader& header, int64_t body_size,
                          const std::vector<IpcField>& fields, const IpcReadOptions& options,
                          const std::vector<int32_t>* selected,
                          std::vector<std::pair<int64_t, int64_t>>* out) {
  Message message;  // only its body size is read
  message.body_size = body_size;
  BodyContext context;
  context.message = &message;
  context.options = &options;
  BodyDecoder decoder(context, header);
  std::vector<bool> wanted(fields.size(), selected == nullptr);
  if (selected != nullptr) {
    for (int32_t index : *selected) {
      if (index < 0 || static_cast<size_t>(index) >= fields.size()) {
        return Status::Invalid("column " + std::to_string(index) + " does not exist");
      }
      wanted[static_cast<size_t>(index)] = true;
    }
  }
  out->clear();
  for (size_t i = 0; i < fields.size(); ++i) {
    int64_t first = decoder.next_buffer();
    ROWBRIDGE_RETURN_NOT_OK(decoder.SkipField(fields[i]));
    if (!wanted[i]) continue;
    for (int64_t b = first; b < decoder.next_buffer(); ++b) {
      if (b >= header.buffers.size()) {
        return FieldError(fields[i], "the batch has only " + std::to_string(header.buffers.size()) +
                                         " buffers, fewer than its schema needs");
      }
      const uint8_t* entry = header.buffers.Element(b);
      int64_t offset = LoadLittleEndian<int64_t>(entry);
      int64_t length = LoadLittleEndian<int64_t>(entry + 8);
      if (offset < 0 || length < 0 || offset > body_size || length > body_size - offset) {
        return FieldError(fields[i], "buffer " + std::to_string(b) + " [" + std::to_string(offset) +
                                         ", +" + std::to_string(length) + ") is outside the " +
                                         std::to_string(body_size) + "-byte message body");
      }
      if (length > 0) out->emplace_back(offset, length);
    }
  }
  std::sort(out->begin(), out->end());
  return Status::Ok();
}

Status UncompressedBodyBytes(InputView input, const Message& message, const BatchHeader& header,
                             int64_t* out) {
  *out = 0;
  for (int64_t i = 0; i < header.buffers.size(); ++i) {
    const uint8_t* entry = header.buffers.Element(i);
    int64_t offset = LoadLittleEndian<int64_t>(entry);
    int64_t length = LoadLittleEndian<int64_t>(entry + 8);
    if (offset < 0 || length < 0 || offset > message.body_size ||
        length > message.body_size - offset) {
      return Status::Invalid("buffer " + std::to_string(i) + " is outside the message body");
    }
    int64_t size = length;
    if (header.codec != Codec::kNone && length > 0) {
      if (length < 8) return Status::Invalid("compressed buffer without a length prefix");
      int64_t claim = LoadLittleEndian<int64_t>(input.data + message.body_offset + offset);
      if (claim < -1) return Status::Invalid("negative uncompressed buffer length");
      size = claim == -1 ? length - 8 : claim;
    }
    if (size > INT64_MAX - *out) return Status::Invalid("uncompressed body size overflows");
    *out += size;
  }
  return Status::Ok();
}

}  // namespace rowbridge::ipc
