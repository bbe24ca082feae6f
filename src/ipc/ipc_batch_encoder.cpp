// IpcBatchEncoder and IpcLayout: record batches as IPC messages, and the
// places of those messages in an IPC file or stream.
#include <lz4frame.h>
#include <zstd.h>

#include <cstring>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "arrow/arrow_type.hpp"
#include "ipc/flatbuffer_builder.hpp"
#include "ipc/ipc_schema_writer.hpp"
#include "rowbridge/ipc_writer.hpp"

namespace rowbridge::ipc {
namespace {

constexpr int16_t kMetadataV5 = 4;
constexpr uint8_t kSchemaHeader = 1;
constexpr uint8_t kRecordBatchHeader = 3;
const uint8_t kMagic[8] = {'A', 'R', 'R', 'O', 'W', '1', 0, 0};

struct FieldNode {
  int64_t length;
  int64_t null_count;
};
struct BufferEntry {
  int64_t offset;
  int64_t length;
};

int64_t Padded(int64_t size) { return (size + 7) / 8 * 8; }

int64_t CountNulls(const uint8_t* validity, int64_t length) {
  if (validity == nullptr) return 0;
  int64_t valid = 0;
  for (int64_t i = 0; i < length; ++i) valid += (validity[i >> 3] >> (i & 7)) & 1;
  return length - valid;
}

/// The Message flatbuffer of `header`, framed: marker, length, flatbuffer.
void FrameMessage(FlatBuilder* builder, uint8_t header_type, FlatBuilder::Ref header,
                  int64_t body_length, std::vector<uint8_t>* out) {
  FlatBuilder::TableFields message;
  message.Scalar<int16_t>(0, kMetadataV5);
  message.Scalar<uint8_t>(1, header_type);
  message.Object(2, header);
  message.Scalar<int64_t>(3, body_length);
  std::vector<uint8_t> metadata = builder->Finish(builder->Table(std::move(message)));
  const uint32_t prefix[2] = {0xFFFFFFFFu, static_cast<uint32_t>(metadata.size())};
  out->resize(8 + metadata.size());
  std::memcpy(out->data(), prefix, 8);
  std::memcpy(out->data() + 8, metadata.data(), metadata.size());
}

}  // namespace

struct IpcBatchEncoder::Impl {
  IpcWriteOptions options;
  std::vector<WriterField> columns;

  // The body being assembled, reused batch after batch.
  std::vector<FieldNode> nodes;
  std::vector<BufferEntry> buffers;
  std::vector<uint8_t> body;
  std::vector<uint8_t> scratch;

  /// Appends one buffer of the body (compressed when asked), 8-byte aligned.
  Status AddBuffer(const void* data, int64_t size, const std::string& path) {
    if (size > 0 && data == nullptr) {
      return Status::Invalid("field '" + path + "': a buffer of " + std::to_string(size) +
                             " bytes is null");
    }
    int64_t start = static_cast<int64_t>(body.size());
    if (size == 0) {
      buffers.push_back({start, 0});
      return Status::Ok();
    }
    const auto* bytes = static_cast<const uint8_t*>(data);
    if (options.codec == IpcCodec::kNone) {
      body.insert(body.end(), bytes, bytes + size);
    } else {
      size_t bound = options.codec == IpcCodec::kLz4Frame
                         ? LZ4F_compressFrameBound(static_cast<size_t>(size), nullptr)
                         : ZSTD_compressBound(static_cast<size_t>(size));
      scratch.resize(bound);
      size_t written = 0;
      if (options.codec == IpcCodec::kLz4Frame) {
        written =
            LZ4F_compressFrame(scratch.data(), bound, bytes, static_cast<size_t>(size), nullptr);
        if (LZ4F_isError(written)) {
          return Status::Invalid("field '" + path +
                                 "': LZ4 compression failed: " + LZ4F_getErrorName(written));
        }
      } else {
        written = ZSTD_compress(scratch.data(), bound, bytes, static_cast<size_t>(size),
                                options.zstd_level);
        if (ZSTD_isError(written)) {
          return Status::Invalid("field '" + path +
                                 "': ZSTD compression failed: " + ZSTD_getErrorName(written));
        }
      }
      bool smaller = static_cast<int64_t>(written) < size;
      int64_t prefix = smaller ? size : -1;  // -1: stored uncompressed
      const auto* p = reinterpret_cast<const uint8_t*>(&prefix);
      body.insert(body.end(), p, p + 8);
      if (smaller) {
        body.insert(body.end(), scratch.begin(), scratch.begin() + static_cast<int64_t>(written));
      } else {
        body.insert(body.end(), bytes, bytes + size);
      }
    }
    buffers.push_back({start, static_cast<int64_t>(body.size()) - start});
    body.resize(static_cast<size_t>(Padded(static_cast<int64_t>(body.size()))), 0);
    return Status::Ok();
  }

  Status AddNode(const WriterField& column, const ArrowArray& array, int depth) {
    const std::string& path = column.path;
    if (depth > 64) return Status::NotSupported("field '" + path + "': nested deeper than 64");
    if (array.release == nullptr) return Status::Invalid("field '" + path + "': released");
    if (array.offset != 0) {
      return Status::NotSupported("field '" + path + "': arrays with a non-zero offset");
    }
    if (array.length < 0) return Status::Invalid("field '" + path + "': negative length");
    if (array.n_children != static_cast<int64_t>(column.children.size())) {
      return Status::Invalid("field '" + path + "': " + std::to_string(array.n_children) +
                             " children, the schema has " + std::to_string(column.children.size()));
    }
    const ArrowType& type = column.type;
    int64_t length = array.length;
    auto buffer = [&](int64_t i) -> const void* {
      return i < array.n_buffers && array.buffers != nullptr ? array.buffers[i] : nullptr;
    };
    const auto* validity = static_cast<const uint8_t*>(buffer(0));
    if (type.id == ArrowTypeId::kNull) {
      nodes.push_back({length, length});
      return Status::Ok();
    }
    int64_t nulls = array.null_count >= 0 ? array.null_count : CountNulls(validity, length);
    if (validity == nullptr && nulls != 0) {
      return Status::Invalid("field '" + path + "': " + std::to_string(nulls) +
                             " nulls without a validity buffer");
    }
    nodes.push_back({length, nulls});
    ROWBRIDGE_RETURN_NOT_OK(AddBuffer(validity, nulls == 0 ? 0 : (length + 7) / 8, path));
    auto offsets_end = [&](int width) -> int64_t {
      const void* offsets = buffer(1);
      if (length == 0 || offsets == nullptr) return 0;
      if (width == 4) {
        int32_t end = 0;
        std::memcpy(&end, static_cast<const uint8_t*>(offsets) + 4 * length, 4);
        return end;
      }
      int64_t end = 0;
      std::memcpy(&end, static_cast<const uint8_t*>(offsets) + 8 * length, 8);
      return end;
    };
    auto children = [&]() -> Status {
      for (size_t i = 0; i < column.children.size(); ++i) {
        if (array.children == nullptr || array.children[i] == nullptr) {
          return Status::Invalid("field '" + path + "': child " + std::to_string(i) + " is null");
        }
        ROWBRIDGE_RETURN_NOT_OK(AddNode(column.children[i], *array.children[i], depth + 1));
      }
      return Status::Ok();
    };
    switch (type.id) {
      case ArrowTypeId::kBool: return AddBuffer(buffer(1), (length + 7) / 8, path);
      case ArrowTypeId::kUtf8:
      case ArrowTypeId::kBinary:
      case ArrowTypeId::kLargeUtf8:
      case ArrowTypeId::kLargeBinary: {
        int width = type.id == ArrowTypeId::kUtf8 || type.id == ArrowTypeId::kBinary ? 4 : 8;
        int64_t end = offsets_end(width);
        if (end < 0) return Status::Invalid("field '" + path + "': negative last offset");
        ROWBRIDGE_RETURN_NOT_OK(AddBuffer(buffer(1), length == 0 ? 0 : width * (length + 1), path));
        return AddBuffer(buffer(2), end, path);
      }
      case ArrowTypeId::kStruct:
      case ArrowTypeId::kFixedSizeList: return children();
      case ArrowTypeId::kList:
      case ArrowTypeId::kMap:
      case ArrowTypeId::kLargeList: {
        int width = type.id == ArrowTypeId::kLargeList ? 8 : 4;
        ROWBRIDGE_RETURN_NOT_OK(AddBuffer(buffer(1), length == 0 ? 0 : width * (length + 1), path));
        return children();
      }
      default: {
        int64_t width =
            type.id == ArrowTypeId::kFixedSizeBinary ? type.fixed_size : PrimitiveByteWidth(type);
        if (width <= 0) {
          return Status::NotSupported("field '" + path + "': the IPC writer does not write " +
                                      ArrowTypeName(type));
        }
        return AddBuffer(buffer(1), width * length, path);
      }
    }
  }
};

IpcBatchEncoder::IpcBatchEncoder(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
IpcBatchEncoder::~IpcBatchEncoder() = default;

Status IpcBatchEncoder::Make(const ArrowSchema& schema, const IpcWriteOptions& options,
                             std::unique_ptr<IpcBatchEncoder>* out) {
  try {
    if (options.codec != IpcCodec::kNone && options.codec != IpcCodec::kLz4Frame &&
        options.codec != IpcCodec::kZstd) {
      return Status::Invalid("IPC writer: unknown codec " +
                             std::to_string(static_cast<int32_t>(options.codec)));
    }
    auto impl = std::make_unique<Impl>();
    impl->options = options;
    ROWBRIDGE_RETURN_NOT_OK(DescribeSchema(schema, &impl->columns));
    out->reset(new IpcBatchEncoder(std::move(impl)));
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("IPC writer: out of memory reading the schema");
  }
}

Status IpcBatchEncoder::Clone(std::unique_ptr<IpcBatchEncoder>* out) const {
  try {
    auto impl = std::make_unique<Impl>();
    impl->options = impl_->options;
    impl->columns = impl_->columns;
    out->reset(new IpcBatchEncoder(std::move(impl)));
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("IPC writer: out of memory copying an encoder");
  }
}

Status IpcBatchEncoder::EncodeSchema(IpcMessage* out) const {
  try {
    FlatBuilder builder;
    FlatBuilder::Ref schema_table = BuildSchema(impl_->columns, &builder);
    FrameMessage(&builder, kSchemaHeader, schema_table, 0, &out->metadata);
    out->body.clear();
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("IPC writer: out of memory encoding the schema");
  }
}

Status IpcBatchEncoder::EncodeBatch(const ArrowArray& batch, IpcMessage* out) {
  Impl& impl = *impl_;
  try {
    if (batch.release == nullptr) return Status::Invalid("IPC writer: the batch is released");
    if (batch.offset != 0) return Status::NotSupported("IPC writer: a batch with an offset");
    if (batch.length < 0) return Status::Invalid("IPC writer: a batch of negative length");
    if (batch.n_children != static_cast<int64_t>(impl.columns.size())) {
      return Status::Invalid("IPC writer: the batch has " + std::to_string(batch.n_children) +
                             " columns, the schema " + std::to_string(impl.columns.size()));
    }
    impl.nodes.clear();
    impl.buffers.clear();
    impl.body.clear();
    for (size_t i = 0; i < impl.columns.size(); ++i) {
      if (batch.children == nullptr || batch.children[i] == nullptr) {
        return Status::Invalid("IPC writer: column " + std::to_string(i) + " is null");
      }
      if (batch.children[i]->length < batch.length) {
        return Status::Invalid("field '" + impl.columns[i].path + "': shorter than the batch");
      }
      ROWBRIDGE_RETURN_NOT_OK(impl.AddNode(impl.columns[i], *batch.children[i], 1));
    }
    FlatBuilder builder;
    FlatBuilder::TableFields record;
    record.Scalar<int64_t>(0, batch.length);
    record.Object(1, builder.Vector(impl.nodes.data(), static_cast<int64_t>(impl.nodes.size()),
                                    sizeof(FieldNode), 8));
    record.Object(2, builder.Vector(impl.buffers.data(), static_cast<int64_t>(impl.buffers.size()),
                                    sizeof(BufferEntry), 8));
    if (impl.options.codec != IpcCodec::kNone) {
      FlatBuilder::TableFields compression;  // codec LZ4_FRAME=0, ZSTD=1; method BUFFER=0
      compression.Scalar<int8_t>(0, impl.options.codec == IpcCodec::kLz4Frame ? 0 : 1);
      compression.Scalar<int8_t>(1, 0);
      record.Object(3, builder.Table(std::move(compression)));
    }
    FrameMessage(&builder, kRecordBatchHeader, builder.Table(std::move(record)),
                 static_cast<int64_t>(impl.body.size()), &out->metadata);
    out->body.swap(impl.body);  // no copy of the body
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("IPC writer: out of memory encoding a batch");
  }
}

Status IpcLayout::Start(const IpcBatchEncoder& encoder, std::vector<uint8_t>* out) {
  try {
    IpcMessage schema;
    ROWBRIDGE_RETURN_NOT_OK(encoder.EncodeSchema(&schema));
    const size_t magic = format_ == IpcFormat::kFile ? 8 : 0;
    out->resize(magic + schema.metadata.size());
    std::memcpy(out->data(), kMagic, magic);
    std::memcpy(out->data() + magic, schema.metadata.data(), schema.metadata.size());
    position_ += static_cast<int64_t>(out->size());
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("IPC writer: out of memory encoding the schema");
  }
}

Status IpcLayout::Add(const IpcMessage& message) {
  try {
    if (format_ == IpcFormat::kFile) {
      blocks_.push_back({position_, static_cast<int32_t>(message.metadata.size()), 0,
                         static_cast<int64_t>(message.body.size())});
    }
    position_ += message.size();
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("IPC writer: out of memory placing a batch");
  }
}

Status IpcLayout::Finish(const IpcBatchEncoder& encoder, std::vector<uint8_t>* out) {
  try {
    out->clear();
    if (format_ == IpcFormat::kStream) {
      const uint32_t end[2] = {0xFFFFFFFFu, 0};
      out->resize(8);
      std::memcpy(out->data(), end, 8);
    } else {
      FlatBuilder builder;
      FlatBuilder::TableFields footer;
      footer.Scalar<int16_t>(0, kMetadataV5);
      footer.Object(1, BuildSchema(encoder.impl_->columns, &builder));
      footer.Object(2, builder.Vector(nullptr, 0, sizeof(Block), 8));
      footer.Object(3, builder.Vector(blocks_.data(), static_cast<int64_t>(blocks_.size()),
                                      sizeof(Block), 8));
      *out = builder.Finish(builder.Table(std::move(footer)));
      const size_t size = out->size();
      const int32_t footer_size = static_cast<int32_t>(size);
      out->resize(size + 10);
      std::memcpy(out->data() + size, &footer_size, 4);
      std::memcpy(out->data() + size + 4, kMagic, 6);
    }
    position_ += static_cast<int64_t>(out->size());
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("IPC writer: out of memory writing the footer");
  }
}

}  // namespace rowbridge::ipc
