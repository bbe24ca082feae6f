// Internals of the reference row writer (reference_row_writer.hpp), shared
// by its flat part (reference_row_writer.cpp) and its nested part
// (reference_nested.cpp). One value at a time, favouring obviousness.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "support/test_arrow.hpp"

namespace rowbridge::testing::reference_detail {

/// The value node, element index and validity that logical element
/// `logical` of `column` resolves to through its encoding (the column's own
/// offset is added here).
struct Located {
  const TestArray* node = nullptr;
  int64_t index = 0;
  bool valid = false;
};
Located Locate(const TestArray& column, int64_t logical);

/// The format of the values a column holds (after its encoding).
const std::string& ValueFormat(const TestArray& column);

/// True for struct, list and map formats.
bool IsNestedFormat(const std::string& format);

uint64_t OffsetAndSize(int64_t offset, int64_t size);

/// Where values are written: the fields of an UnsafeRow or the elements of
/// an UnsafeArrayData.
class ValueSink {
 public:
  virtual ~ValueSink() = default;
  virtual void SetNull(int64_t i) = 0;
  /// Stores the low `width` bytes of `value`, little-endian, in value i's slot.
  virtual void SetSlot(int64_t i, uint64_t value, int width = 8) = 0;
  /// Appends `size` bytes (zeros when `data` is null) padded with zeros to a
  /// multiple of 8, at least `reserve` bytes, and returns their offset from
  /// the start of the row or array.
  virtual int64_t Append(const uint8_t* data, int64_t size, int64_t reserve = 0) = 0;
  virtual bool in_array() const = 0;
};

/// Appends to `bytes` as ValueSink::Append does.
inline int64_t AppendPadded(Bytes* bytes, const uint8_t* data, int64_t size, int64_t reserve) {
  int64_t offset = static_cast<int64_t>(bytes->size());
  int64_t padded = (size + 7) / 8 * 8;
  if (padded < reserve) padded = reserve;
  bytes->resize(static_cast<size_t>(offset + padded), 0);
  if (size > 0 && data != nullptr)
    std::memcpy(bytes->data() + offset, data, static_cast<size_t>(size));
  return offset;
}

class RowWriter : public ValueSink {
 public:
  explicit RowWriter(int64_t fields)
      : bitset_bytes_(((fields + 63) / 64) * 8),
        bytes_(static_cast<size_t>(bitset_bytes_ + 8 * fields), 0) {}

  void SetNull(int64_t field) override {
    bytes_[static_cast<size_t>(field / 8)] |= static_cast<uint8_t>(1u << (field % 8));
  }
  void SetSlot(int64_t field, uint64_t value, int width = 8) override {
    for (int b = 0; b < width; ++b) {
      bytes_[static_cast<size_t>(bitset_bytes_ + 8 * field + b)] =
          static_cast<uint8_t>(value >> (8 * b));
    }
  }
  int64_t Append(const uint8_t* data, int64_t size, int64_t reserve = 0) override {
    return AppendPadded(&bytes_, data, size, reserve);
  }
  bool in_array() const override { return false; }
  Bytes Finish() { return std::move(bytes_); }

 private:
  int64_t bitset_bytes_;
  Bytes bytes_;
};

/// Writes value i of `sink` of Spark's form of `format` from `at`. Returns
/// false when the value, or any value nested in it, overflows its Spark type.
bool WriteValue(ValueSink& sink, int64_t i, const std::string& format, const Located& at);

/// Returns the bytes of value `index` (physical) of `node`, a struct, list,
/// large list, fixed-size list, list view or map array; sets `*overflow`
/// when a value inside overflows its Spark type.
Bytes EncodeNested(const TestArray& node, int64_t index, bool* overflow);

}  // namespace rowbridge::testing::reference_detail
