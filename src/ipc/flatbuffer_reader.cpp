#include "ipc/flatbuffer_reader.hpp"

namespace rowbridge::ipc {
namespace {

/// Flatbuffers are at most 2 GiB: every offset is a 32-bit quantity.
constexpr int64_t kMaxFlatBufferSize = (int64_t{1} << 31) - 1;

Status Malformed(const char* name, const std::string& problem) {
  return Status::Invalid(std::string("malformed flatbuffer metadata: ") + name + ": " + problem);
}

/// Follows the uoffset stored at `at`: returns the absolute target position,
/// or -1 when `at` or the target is outside the buffer.
int64_t FollowOffset(FlatBuffer buffer, int64_t at) {
  if (at < 0 || at + 4 > buffer.size) return -1;
  uint32_t offset = LoadLittleEndian<uint32_t>(buffer.data + at);
  int64_t target = at + int64_t{offset};
  if (offset == 0 || target >= buffer.size) return -1;
  return target;
}

}  // namespace

Status FlatTable::Locate(FlatBuffer buffer, int64_t position, const char* name, FlatTable* out) {
  if (buffer.size > kMaxFlatBufferSize) return Malformed(name, "buffer larger than 2 GiB");
  if (position < 0 || position + 4 > buffer.size) {
    return Malformed(name, "table at " + std::to_string(position) + " is outside the " +
                               std::to_string(buffer.size) + "-byte buffer");
  }
  int32_t vtable_distance = LoadLittleEndian<int32_t>(buffer.data + position);
  int64_t vtable = position - int64_t{vtable_distance};
  if (vtable < 0 || vtable + 4 > buffer.size) {
    return Malformed(
        name, "vtable of the table at " + std::to_string(position) + " is outside the buffer");
  }
  uint16_t vtable_size = LoadLittleEndian<uint16_t>(buffer.data + vtable);
  uint16_t table_size = LoadLittleEndian<uint16_t>(buffer.data + vtable + 2);
  if (vtable_size < 4 || (vtable_size & 1) != 0 || vtable + vtable_size > buffer.size) {
    return Malformed(name, "vtable at " + std::to_string(vtable) + " has an invalid size " +
                               std::to_string(vtable_size));
  }
  if (table_size < 4 || position + table_size > buffer.size) {
    return Malformed(name, "table at " + std::to_string(position) + " of " +
                               std::to_string(table_size) + " bytes runs past the buffer");
  }
  out->buffer_ = buffer;
  out->name_ = name;
  out->position_ = position;
  out->vtable_ = vtable;
  out->vtable_size_ = vtable_size;
  out->table_size_ = table_size;
  return Status::Ok();
}

Status FlatTable::Root(FlatBuffer buffer, const char* name, FlatTable* out) {
  if (buffer.size < 8) {
    return Malformed(name, "buffer of " + std::to_string(buffer.size) + " bytes is too short");
  }
  return AtOffset(buffer, 0, name, out);
}

Status FlatTable::AtOffset(FlatBuffer buffer, int64_t at, const char* name, FlatTable* out) {
  int64_t target = FollowOffset(buffer, at);
  if (target < 0) {
    return Malformed(name, "offset at " + std::to_string(at) + " points outside the buffer");
  }
  return Locate(buffer, target, name, out);
}

uint32_t FlatTable::FieldOffset(int field) const {
  if (field < 0) return 0;
  int64_t entry = 4 + 2 * int64_t{field};
  if (entry + 2 > vtable_size_) return 0;
  return LoadLittleEndian<uint16_t>(buffer_.data + vtable_ + entry);
}

Status FlatTable::FieldError(int field, const char* problem) const {
  return Malformed(name_, "field " + std::to_string(field) + " of the table at " +
                              std::to_string(position_) + ": " + problem);
}

Status FlatTable::Table(int field, const char* name, FlatTable* out, bool* present) const {
  *present = false;
  uint32_t offset = FieldOffset(field);
  if (offset == 0) return Status::Ok();
  if (offset + 4 > table_size_) return FieldError(field, "offset runs past its table");
  int64_t target = FollowOffset(buffer_, position_ + offset);
  if (target < 0) return FieldError(field, "offset points outside the buffer");
  ROWBRIDGE_RETURN_NOT_OK(Locate(buffer_, target, name, out));
  *present = true;
  return Status::Ok();
}

Status ReadFlatString(FlatBuffer buffer, int64_t position, const char* name,
                      std::string_view* out) {
  if (position < 0 || position + 4 > buffer.size) {
    return Malformed(name, "string at " + std::to_string(position) + " is outside the buffer");
  }
  uint32_t length = LoadLittleEndian<uint32_t>(buffer.data + position);
  // The string is followed by a terminating zero byte.
  if (int64_t{length} + 1 > buffer.size - position - 4) {
    return Malformed(name, "string of " + std::to_string(length) + " bytes at " +
                               std::to_string(position) + " runs past the buffer");
  }
  *out = std::string_view(reinterpret_cast<const char*>(buffer.data + position + 4), length);
  return Status::Ok();
}

Status FlatTable::String(int field, std::string_view* out, bool* present) const {
  *present = false;
  *out = std::string_view();
  uint32_t offset = FieldOffset(field);
  if (offset == 0) return Status::Ok();
  if (offset + 4 > table_size_) return FieldError(field, "offset runs past its table");
  int64_t target = FollowOffset(buffer_, position_ + offset);
  if (target < 0) return FieldError(field, "string offset points outside the buffer");
  ROWBRIDGE_RETURN_NOT_OK(ReadFlatString(buffer_, target, name_, out));
  *present = true;
  return Status::Ok();
}

Status FlatTable::Vector(int field, int64_t element_size, FlatVector* out) const {
  *out = FlatVector();
  out->buffer_ = buffer_;
  out->name_ = name_;
  out->element_size_ = element_size;
  uint32_t offset = FieldOffset(field);
  if (offset == 0) return Status::Ok();
  if (offset + 4 > table_size_) return FieldError(field, "offset runs past its table");
  int64_t target = FollowOffset(buffer_, position_ + offset);
  if (target < 0 || target + 4 > buffer_.size) {
    return FieldError(field, "vector offset points outside the buffer");
  }
  uint32_t count = LoadLittleEndian<uint32_t>(buffer_.data + target);
  int64_t available = buffer_.size - target - 4;
  if (element_size <= 0 || int64_t{count} > available / element_size) {
    return FieldError(field, ("vector of " + std::to_string(count) + " elements runs past the " +
                              std::to_string(buffer_.size) + "-byte buffer")
                                 .c_str());
  }
  out->data_ = buffer_.data + target + 4;
  out->size_ = count;
  return Status::Ok();
}

Status FlatTable::Struct(int field, int64_t struct_size, const uint8_t** data) const {
  *data = nullptr;
  uint32_t offset = FieldOffset(field);
  if (offset == 0) return Status::Ok();
  if (offset + struct_size > table_size_) return FieldError(field, "struct runs past its table");
  *data = buffer_.data + position_ + offset;
  return Status::Ok();
}

Status FlatVector::TableAt(int64_t index, const char* name, FlatTable* out) const {
  int64_t at = (data_ - buffer_.data) + index * element_size_;
  return FlatTable::AtOffset(buffer_, at, name, out);
}

Status FlatVector::StringAt(int64_t index, std::string_view* out) const {
  int64_t at = (data_ - buffer_.data) + index * element_size_;
  if (at < 0 || at + 4 > buffer_.size) return Malformed(name_, "string element outside the buffer");
  uint32_t offset = LoadLittleEndian<uint32_t>(buffer_.data + at);
  if (offset == 0) return Malformed(name_, "null string element");
  return ReadFlatString(buffer_, at + int64_t{offset}, name_, out);
}

}  // namespace rowbridge::ipc
