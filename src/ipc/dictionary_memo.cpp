#include "ipc/dictionary_memo.hpp"

#include <cstring>
#include <limits>
#include <string>

#include "arrow/bits.hpp"
#include "arrow/value_checks.hpp"

namespace rowbridge::ipc {
namespace {

/// Writes the bits of `first` then `second` (null bitmaps read as all set).
const void* ConcatenateBits(const void* first, int64_t first_length, const void* second,
                            int64_t second_length, MessageMemory* memory) {
  int64_t length = first_length + second_length;
  OwnedBuffer* out = memory->Allocate((length + 7) / 8);
  std::memset(out->data(), 0, static_cast<size_t>(out->size()));
  for (int64_t i = 0; i < first_length; ++i)
    SetBitTo(out->data(), i, IsValidAt(static_cast<const uint8_t*>(first), i));
  for (int64_t i = 0; i < second_length; ++i) {
    SetBitTo(out->data(), first_length + i, IsValidAt(static_cast<const uint8_t*>(second), i));
  }
  return out->data();
}

const void* ConcatenateBytes(const void* first, int64_t first_size, const void* second,
                             int64_t second_size, MessageMemory* memory) {
  OwnedBuffer* out = memory->Allocate(first_size + second_size);
  if (first_size > 0) std::memcpy(out->data(), first, static_cast<size_t>(first_size));
  if (second_size > 0) {
    std::memcpy(out->data() + first_size, second, static_cast<size_t>(second_size));
  }
  return out->data();
}

/// Concatenates variable-length values with `width`-byte offsets.
Status ConcatenateBinary(const ArrayData& a, const ArrayData& b, int32_t width,
                         MessageMemory* memory, ArrayData* out) {
  const auto* a_offsets = static_cast<const uint8_t*>(a.buffers[1]);
  const auto* b_offsets = static_cast<const uint8_t*>(b.buffers[1]);
  int64_t a_end = LoadInteger(a_offsets, width, true, a.length);
  int64_t b_begin = LoadInteger(b_offsets, width, true, 0);
  int64_t b_end = LoadInteger(b_offsets, width, true, b.length);
  int64_t limit =
      width == 4 ? std::numeric_limits<int32_t>::max() : std::numeric_limits<int64_t>::max();
  if (b_end - b_begin > limit - a_end) {
    return Status::Invalid("the delta dictionary overflows its offsets");
  }
  int64_t length = a.length + b.length;
  OwnedBuffer* offsets = memory->Allocate((length + 1) * width);
  std::memcpy(offsets->data(), a_offsets, static_cast<size_t>((a.length + 1) * width));
  for (int64_t i = 1; i <= b.length; ++i) {
    int64_t value = LoadInteger(b_offsets, width, true, i) - b_begin + a_end;
    uint8_t* slot = offsets->data() + (a.length + i) * width;
    if (width == 4) {
      auto narrow = static_cast<int32_t>(value);
      std::memcpy(slot, &narrow, 4);
    } else {
      std::memcpy(slot, &value, 8);
    }
  }
  out->buffers.push_back(offsets->data());
  out->buffer_sizes.push_back(offsets->size());
  const auto* b_data = static_cast<const uint8_t*>(b.buffers[2]);
  out->buffers.push_back(
      ConcatenateBytes(a.buffers[2], a_end, b_data + b_begin, b_end - b_begin, memory));
  out->buffer_sizes.push_back(a_end + b_end - b_begin);
  return Status::Ok();
}

}  // namespace

std::shared_ptr<const ArrayData> DictionaryMemo::Find(int64_t id) const {
  auto it = dictionaries_.find(id);
  return it == dictionaries_.end() ? nullptr : it->second;
}

Status DictionaryMemo::Add(const IpcField& field, int64_t id,
                           std::shared_ptr<const ArrayData> values, bool is_delta) {
  auto it = dictionaries_.find(id);
  if (!is_delta || it == dictionaries_.end()) {
    dictionaries_[id] = std::move(values);
    return Status::Ok();
  }
  std::shared_ptr<const ArrayData> combined;
  ROWBRIDGE_RETURN_NOT_OK(ConcatenateArrays(field, *it->second, *values, &combined));
  it->second = std::move(combined);
  return Status::Ok();
}

Status ConcatenateArrays(const IpcField& field, const ArrayData& first, const ArrayData& second,
                         std::shared_ptr<const ArrayData>* out) {
  auto memory = std::make_shared<MessageMemory>();
  auto data = std::make_shared<ArrayData>();
  data->length = first.length + second.length;
  data->null_count = first.null_count + second.null_count;
  const ArrowType& type = field.type;
  if (type.id != ArrowTypeId::kNull) {
    data->buffers.push_back(nullptr);
    data->buffer_sizes.push_back(0);
    if (data->null_count > 0) {
      data->buffers[0] = ConcatenateBits(first.buffers[0], first.length, second.buffers[0],
                                         second.length, memory.get());
      data->buffer_sizes[0] = (data->length + 7) / 8;
    }
  }
  int32_t width = PrimitiveByteWidth(type);
  switch (type.id) {
    case ArrowTypeId::kNull: break;
    case ArrowTypeId::kBool:
      data->buffers.push_back(ConcatenateBits(first.buffers[1], first.length, second.buffers[1],
                                              second.length, memory.get()));
      data->buffer_sizes.push_back((data->length + 7) / 8);
      break;
    case ArrowTypeId::kUtf8:
    case ArrowTypeId::kBinary:
      ROWBRIDGE_RETURN_NOT_OK(ConcatenateBinary(first, second, 4, memory.get(), data.get()));
      break;
    case ArrowTypeId::kLargeUtf8:
    case ArrowTypeId::kLargeBinary:
      ROWBRIDGE_RETURN_NOT_OK(ConcatenateBinary(first, second, 8, memory.get(), data.get()));
      break;
    default:
      if (!field.children.empty() || (width == 0 && type.id != ArrowTypeId::kFixedSizeBinary)) {
        return Status::NotSupported("delta dictionaries of type '" + field.format +
                                    "' are not supported (field '" + field.path + "')");
      }
      data->buffers.push_back(ConcatenateBytes(first.buffers[1], first.length * width,
                                               second.buffers[1], second.length * width,
                                               memory.get()));
      data->buffer_sizes.push_back(data->length * width);
      break;
  }
  data->memory = std::move(memory);
  *out = std::move(data);
  return Status::Ok();
}

}  // namespace rowbridge::ipc
