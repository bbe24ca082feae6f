// A bounds-checked reader of Flatbuffers binary data, written from the
// Flatbuffers binary format: a root uoffset, tables located through a signed
// offset to their vtable (uint16 vtable size, uint16 table size, uint16 field
// offsets, 0 = absent), and forward uoffsets to tables, strings and vectors.
//
// Every position is checked against the buffer before it is read, and every
// read goes through memcpy, so any byte string is safe to read: a malformed
// one yields an Invalid status naming the table and field. The reader never
// recurses; callers that follow nested tables bound their own depth and count.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "rowbridge/status.hpp"

namespace rowbridge::ipc {

/// A byte range holding one flatbuffer. Borrowed: the bytes must outlive
/// every FlatTable and FlatVector read from it.
struct FlatBuffer {
  const uint8_t* data = nullptr;
  int64_t size = 0;
};

class FlatVector;

/// A table of a flatbuffer, located and checked: its vtable and its inline
/// part lie inside the buffer. Cheap to copy; borrows the buffer.
class FlatTable {
 public:
  FlatTable() = default;

  /// Reads the root table of `buffer`; `name` names its type in errors.
  static Status Root(FlatBuffer buffer, const char* name, FlatTable* out);

  /// True when field `field` (0-based, in schema order) is present.
  bool Has(int field) const { return FieldOffset(field) != 0; }

  /// Reads scalar field `field` of type T (an integer type; bools as uint8_t),
  /// or `default_value` when absent.
  template <typename T>
  Status Scalar(int field, T default_value, T* out) const {
    uint32_t offset = FieldOffset(field);
    if (offset == 0) {
      *out = default_value;
      return Status::Ok();
    }
    if (offset + sizeof(T) > table_size_) return FieldError(field, "scalar runs past its table");
    std::memcpy(out, buffer_.data + position_ + offset, sizeof(T));
    return Status::Ok();
  }

  /// Reads table field `field` into `out`; `*present` is false when absent.
  Status Table(int field, const char* name, FlatTable* out, bool* present) const;

  /// Reads string field `field` into `out` (a view into the buffer); an
  /// absent string reads as empty with `*present` false.
  Status String(int field, std::string_view* out, bool* present) const;

  /// Reads vector field `field` of `element_size`-byte elements (structs or
  /// scalars inline; 4 for a vector of tables or strings); absent reads as
  /// empty.
  Status Vector(int field, int64_t element_size, FlatVector* out) const;

  /// Reads the inline struct of `struct_size` bytes at field `field`;
  /// `*data` is null when absent.
  Status Struct(int field, int64_t struct_size, const uint8_t** data) const;

  const char* name() const { return name_; }
  FlatBuffer buffer() const { return buffer_; }

  /// Reads a table whose position is given by the uoffset at `at`.
  static Status AtOffset(FlatBuffer buffer, int64_t at, const char* name, FlatTable* out);

 private:
  uint32_t FieldOffset(int field) const;
  Status FieldError(int field, const char* problem) const;
  static Status Locate(FlatBuffer buffer, int64_t position, const char* name, FlatTable* out);

  FlatBuffer buffer_;
  const char* name_ = "";
  int64_t position_ = 0;
  int64_t vtable_ = 0;
  uint32_t vtable_size_ = 0;
  uint32_t table_size_ = 0;
};

/// A vector of a flatbuffer whose elements all lie inside the buffer.
class FlatVector {
 public:
  int64_t size() const { return size_; }

  /// The bytes of element `index` (inline struct or scalar). Requires
  /// 0 <= index < size().
  const uint8_t* Element(int64_t index) const { return data_ + index * element_size_; }

  /// Reads scalar element `index`. Requires 0 <= index < size() and
  /// sizeof(T) <= the element size.
  template <typename T>
  T ScalarAt(int64_t index) const {
    T value;
    std::memcpy(&value, Element(index), sizeof(T));
    return value;
  }

  /// Reads table element `index` of a vector of tables.
  Status TableAt(int64_t index, const char* name, FlatTable* out) const;

  /// Reads string element `index` of a vector of strings.
  Status StringAt(int64_t index, std::string_view* out) const;

 private:
  friend class FlatTable;
  FlatBuffer buffer_;
  const char* name_ = "";
  const uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  int64_t element_size_ = 0;
};

/// Reads a 4-byte length-prefixed string at `position` of `buffer`.
Status ReadFlatString(FlatBuffer buffer, int64_t position, const char* name, std::string_view* out);

/// Loads a little-endian scalar from possibly unaligned memory.
template <typename T>
T LoadLittleEndian(const uint8_t* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

}  // namespace rowbridge::ipc
