// Writers for strings and binaries: bytes appended to the variable region,
// zero-padded to 8, with (offset << 32) | size in the slot.
#include <algorithm>
#include <type_traits>

#include "row/column_access.hpp"
#include "row/writer_families.hpp"

namespace rowbridge::row {
namespace {

/// Copies 16 bytes.
inline void Copy16(uint8_t* dst, const uint8_t* src) { std::memcpy(dst, src, 16); }

/// Copies `length` bytes with a few possibly overlapping wide moves, calling
/// memcpy only for values longer than 64 bytes.
inline void CopyBytes(uint8_t* dst, const uint8_t* src, int64_t length) {
  if (length > 16) {
    if (length > 64) {
      std::memcpy(dst, src, static_cast<size_t>(length));
      return;
    }
    Copy16(dst, src);
    if (length > 32) {
      Copy16(dst + 16, src + 16);
      Copy16(dst + length - 32, src + length - 32);
    }
    Copy16(dst + length - 16, src + length - 16);
  } else if (length >= 8) {
    uint64_t head = Load<uint64_t>(src);
    uint64_t tail = Load<uint64_t>(src + length - 8);
    Store64(dst, head);
    Store64(dst + length - 8, tail);
  } else if (length >= 4) {
    uint32_t head = Load<uint32_t>(src);
    uint32_t tail = Load<uint32_t>(src + length - 4);
    std::memcpy(dst, &head, 4);
    std::memcpy(dst + length - 4, &tail, 4);
  } else if (length > 0) {
    dst[0] = src[0];
    dst[length >> 1] = src[length >> 1];
    dst[length - 1] = src[length - 1];
  }
}

template <typename OffsetType>
struct OffsetSource {
  static int64_t Length(const ColumnInput& input, int64_t index) {
    const uint8_t* offsets = input.values + index * sizeof(OffsetType);
    return static_cast<int64_t>(Load<OffsetType>(offsets + sizeof(OffsetType))) -
           static_cast<int64_t>(Load<OffsetType>(offsets));
  }
  static const uint8_t* Data(const ColumnInput& input, int64_t index) {
    return input.data + Load<OffsetType>(input.values + index * sizeof(OffsetType));
  }
  /// Starts loading the bytes of the `num_rows` values from value `index` on
  /// (their first kMaxLines cache lines).
  static void PrefetchData(const ColumnInput& input, int64_t index, int64_t num_rows) {
    constexpr int64_t kMaxLines = 16;
    const uint8_t* begin = Data(input, index);
    int64_t bytes = num_rows > 0 ? Data(input, index + num_rows) - begin : 0;
    int64_t lines = std::min(kMaxLines, bytes / 64 + 1);
    for (int64_t line = 0; line < lines; ++line) __builtin_prefetch(begin + line * 64);
  }
};

/// Arrow's 16-byte views: int32 length, then up to 12 inline bytes, or a
/// 4-byte prefix, an int32 buffer index and an int32 offset.
struct ViewSource {
  static constexpr int64_t kInlineBytes = 12;
  static int64_t Length(const ColumnInput& input, int64_t index) {
    return Load<int32_t>(input.values + index * 16);
  }
  static const uint8_t* Data(const ColumnInput& input, int64_t index) {
    const uint8_t* view = input.values + index * 16;
    if (Load<int32_t>(view) <= kInlineBytes) return view + 4;
    int32_t buffer = Load<int32_t>(view + 8);
    int32_t offset = Load<int32_t>(view + 12);
    return input.variadic[buffer] + offset;
  }
};

struct FixedSizeSource {
  static int64_t Length(const ColumnInput& input, int64_t) { return input.fixed_size; }
  static const uint8_t* Data(const ColumnInput& input, int64_t index) {
    return input.values + index * input.fixed_size;
  }
};

template <typename Source, typename = void>
struct HasPrefetchData : std::false_type {};
template <typename Source>
struct HasPrefetchData<Source, std::void_t<decltype(&Source::PrefetchData)>> : std::true_type {};

template <typename Source>
struct BinaryKernel {
  template <bool kGathered, bool kAllValid>
  static int64_t Size(const ColumnInput& input_ref, int64_t row_begin, int64_t num_rows,
                      int64_t* sizes) {
    const ColumnInput input = input_ref;
    if constexpr (!kGathered && HasPrefetchData<Source>::value) {
      Source::PrefetchData(input, input.offset + row_begin, num_rows);
    }
    int64_t sign_bits = 0;
    for (int64_t k = 0; k < num_rows; ++k) {
      int64_t r = row_begin + k;
      int64_t length = 0;
      if (IsValid<kAllValid>(input, r)) length = Source::Length(input, ValueIndex<kGathered>(input, r));
      sign_bits |= length;
      sizes[k] += RoundUp8(length);
    }
    if (sign_bits >= 0) return -1;
    for (int64_t r = row_begin; r < row_begin + num_rows; ++r) {
      if (IsValid<kAllValid>(input, r) && Source::Length(input, ValueIndex<kGathered>(input, r)) < 0) {
        return r;
      }
    }
    return -1;
  }

  template <bool kGathered, bool kAllValid, bool kAlone = false>
  static Status Write(const ColumnTarget& target, const ColumnInput& input_ref, int64_t row_begin,
                      int64_t num_rows, const RowSink& sink_ref) {
    const ColumnInput input = input_ref;
    const RowSink sink = sink_ref;
    const int64_t slot_offset = target.slot_offset;
    const NullBit null_bit = NullBitOf(target);
    for (int64_t k = 0; k < num_rows; ++k) {
      int64_t r = row_begin + k;
      uint8_t* row = sink.base + sink.row_offsets[k];
      if (!IsValid<kAllValid>(input, r)) {
        SetNull(row, null_bit);
        Store64(row + slot_offset, 0);
        continue;
      }
      int64_t index = ValueIndex<kGathered>(input, r);
      int64_t length = Source::Length(input, index);
      int64_t cursor = CursorOf<kAlone>(sink, k);
      uint8_t* dst = row + cursor;
      if (length & 7) Store64(dst + (length & ~int64_t{7}), 0);
      CopyBytes(dst, Source::Data(input, index), length);
      Store64(row + slot_offset, (static_cast<uint64_t>(cursor) << 32) | static_cast<uint64_t>(length));
      AdvanceCursor<kAlone>(sink, k, cursor + RoundUp8(length));
    }
    return Status::Ok();
  }
};

template <typename Source>
WriterSet Binary() {
  return MakeWriterSet<BinaryKernel<Source>, true>();
}

}  // namespace

Status BinaryWriters(const ArrowType& type, WriterSet* out) {
  switch (type.id) {
    case ArrowTypeId::kUtf8:
    case ArrowTypeId::kBinary: *out = Binary<OffsetSource<int32_t>>(); return Status::Ok();
    case ArrowTypeId::kLargeUtf8:
    case ArrowTypeId::kLargeBinary: *out = Binary<OffsetSource<int64_t>>(); return Status::Ok();
    case ArrowTypeId::kUtf8View:
    case ArrowTypeId::kBinaryView: *out = Binary<ViewSource>(); return Status::Ok();
    case ArrowTypeId::kFixedSizeBinary: *out = Binary<FixedSizeSource>(); return Status::Ok();
    default: return Status::NotSupported("no binary writer for " + ArrowTypeName(type));
  }
}

}  // namespace rowbridge::row
