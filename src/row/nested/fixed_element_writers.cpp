// Element writers for values of 1, 2, 4 or 8 bytes in the array's fixed part.
#include <cstring>

#include "row/column_access.hpp"
#include "row/nested/element_writer.hpp"
#include "row/value_ops.hpp"

namespace rowbridge::row {
namespace {

/// Copies `length` bytes with at most a few wide moves for short arrays.
inline void CopyElements(uint8_t* dst, const uint8_t* src, int64_t length) {
  if (length > 16 || length == 0) {
    if (length > 0) std::memcpy(dst, src, static_cast<size_t>(length));
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
  } else {
    dst[0] = src[0];
    dst[length >> 1] = src[length >> 1];
    dst[length - 1] = src[length - 1];
  }
}

template <typename Op, int kSize>
struct FixedElementKernel {
  /// Arrays of a plain child without nulls whose Arrow values are the Spark
  /// element bytes are copied with one move per array.
  static constexpr bool kBulk = Op::kRawBytes == kSize;

  template <bool kGathered, bool kAllValid>
  static Status Write(const ColumnTarget& target, const ColumnInput& input_ref,
                      const ArraySink& sink_ref) {
    const ColumnInput input = input_ref;
    const ArraySink sink = sink_ref;
    const int32_t precision = target.precision;
    bool ok = true;
    for (int64_t k = 0; k < sink.count; ++k) {
      const int64_t begin = sink.first[k];
      const int64_t n = sink.first[k + 1] - begin;
      uint8_t* array = sink.base + sink.positions[k];
      uint8_t* elements = array + ArrayHeaderBytes(n);
      if constexpr (kBulk && !kGathered && kAllValid) {
        CopyElements(elements, input.values + (input.offset + begin) * kSize, n * kSize);
      } else {
        for (int64_t e = 0; e < n; ++e) {
          int64_t c = begin + e;
          if (IsValid<kAllValid>(input, c)) {
            uint64_t value = 0;
            ok &= Op::Load(input, ValueIndex<kGathered>(input, c), precision, &value);
            StoreLow<kSize>(elements + e * kSize, value);
          } else {
            SetBit(array + 8, e);
          }
        }
      }
    }
    if (ok) return Status::Ok();
    for (int64_t k = 0; k < sink.count; ++k) {
      for (int64_t c = sink.first[k]; c < sink.first[k + 1]; ++c) {
        uint64_t value;
        if (IsValid<kAllValid>(input, c) &&
            !Op::Load(input, ValueIndex<kGathered>(input, c), precision, &value)) {
          return Status::Overflow(ColumnRowError(
              target, ArrayRow(sink, k), Op::Describe(input, ValueIndex<kGathered>(input, c), precision)));
        }
      }
    }
    return Status::Internal(ColumnRowError(target, ArrayRow(sink, 0), "value check failed without an element"));
  }
};

template <typename Op>
bool MakeSized(int32_t element_size, ElementWriterSet* out) {
  switch (element_size) {
    case 1: *out = MakeElementWriterSet<FixedElementKernel<Op, 1>, false>(); return true;
    case 2: *out = MakeElementWriterSet<FixedElementKernel<Op, 2>, false>(); return true;
    case 4: *out = MakeElementWriterSet<FixedElementKernel<Op, 4>, false>(); return true;
    case 8: *out = MakeElementWriterSet<FixedElementKernel<Op, 8>, false>(); return true;
    default: return false;
  }
}

}  // namespace

Status FixedWidthElementWriters(const ArrowType& type, int32_t element_size, ElementWriterSet* out) {
  bool sized = false;
  bool found = VisitValueOp(type, [&](auto tag) { sized = MakeSized<typename decltype(tag)::type>(element_size, out); });
  if (found && sized) return Status::Ok();
  return Status::NotSupported("no array element writer for " + ArrowTypeName(type) + " of " +
                              std::to_string(element_size) + " bytes");
}

}  // namespace rowbridge::row
