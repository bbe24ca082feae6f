// Element writers whose values live in the array's variable region: strings
// and binaries, large decimals and calendar intervals; and the null type.
// Each array's variable region starts after its fixed part and holds the
// valid elements' bytes in element order; the element's 8-byte slot is
// (offset from the array start << 32) | size.
#include "row/column_access.hpp"
#include "row/kernel_isa.hpp"
#include "row/large_decimal_sources.hpp"
#include "row/nested/binary_element_kernel.hpp"
#include "row/nested/element_writer.hpp"
#include "row/writer_families.hpp"
#include "spark/decimal_math.hpp"

namespace rowbridge::row {
namespace {

/// Inside an array a large decimal takes round8(len) bytes for its minimal
/// big-endian bytes, and a null element takes none.
template <typename Source>
struct LargeDecimalElementKernel {
  template <bool kGathered, bool kAllValid>
  static int64_t Size(const ColumnInput& input, int64_t row_begin, int64_t num_rows,
                      int64_t* sizes) {
    for (int64_t k = 0; k < num_rows; ++k) {
      int64_t c = row_begin + k;
      if (!IsValid<kAllValid>(input, c)) continue;
      spark::Int128 v;
      Source::Read(input.values, ValueIndex<kGathered>(input, c), &v);
      sizes[k] += spark::RoundUp8(spark::MinimalBigEndianLength(v));
    }
    return -1;
  }

  template <bool kGathered, bool kAllValid>
  static Status Write(const ColumnTarget& target, const ColumnInput& input_ref,
                      const ArraySink& sink_ref) {
    const ColumnInput input = input_ref;
    const ArraySink& sink = sink_ref;
    const int32_t precision = target.precision;
    bool ok = true;
    ForEachVariableElement<kAllValid>(input, sink, [&](int64_t c, uint8_t* dst) {
      spark::Int128 v;
      ok &= Source::Read(input.values, ValueIndex<kGathered>(input, c), &v);
      ok &= spark::FitsPrecision128(v, precision);
      uint8_t bytes[16];
      const int64_t length = spark::MinimalBigEndian(v, bytes);
      Store64(dst, Load<uint64_t>(bytes));
      if (length > 8) Store64(dst + 8, Load<uint64_t>(bytes + 8));
      return length;
    });
    if (ok) return Status::Ok();
    for (int64_t k = 0; k < sink.count; ++k) {
      for (int64_t c = sink.first[k]; c < sink.first[k + 1]; ++c) {
        if (!IsValid<kAllValid>(input, c)) continue;
        spark::Int128 v;
        int64_t index = ValueIndex<kGathered>(input, c);
        if (!Source::Read(input.values, index, &v) || !spark::FitsPrecision128(v, precision)) {
          return Status::Overflow(
              ColumnRowError(target, ArrayRow(sink, k),
                             "unscaled value " + Source::Describe(input.values, index) +
                                 " does not fit precision " + std::to_string(precision)));
        }
      }
    }
    return Status::Internal(
        ColumnRowError(target, ArrayRow(sink, 0), "value check failed without an element"));
  }
};

/// A calendar interval element: 16 bytes (int months, int days, long
/// microseconds, nanoseconds truncated toward zero); a null element takes none.
struct CalendarIntervalElementKernel {
  template <bool kGathered, bool kAllValid>
  static int64_t Size(const ColumnInput& input, int64_t row_begin, int64_t num_rows,
                      int64_t* sizes) {
    for (int64_t k = 0; k < num_rows; ++k)
      sizes[k] += IsValid<kAllValid>(input, row_begin + k) ? 16 : 0;
    return -1;
  }

  template <bool kGathered, bool kAllValid>
  static Status Write(const ColumnTarget&, const ColumnInput& input_ref,
                      const ArraySink& sink_ref) {
    const ColumnInput input = input_ref;
    ForEachVariableElement<kAllValid>(input, sink_ref, [&](int64_t c, uint8_t* dst) {
      const uint8_t* value = input.values + ValueIndex<kGathered>(input, c) * 16;
      const int64_t nanos = Load<int64_t>(value + 8);
      const int64_t micros = nanos / 1000;  // toward zero
      std::memcpy(dst, value, 8);           // months and days, both int32
      Store64(dst + 8, static_cast<uint64_t>(micros));
      return int64_t{16};
    });
    return Status::Ok();
  }
};

/// Every element of the null type is null.
struct NullElementKernel {
  template <bool kGathered, bool kAllValid>
  static Status Write(const ColumnTarget&, const ColumnInput&, const ArraySink& sink) {
    for (int64_t k = 0; k < sink.count; ++k) {
      uint8_t* array = sink.base + sink.positions[k];
      int64_t n = sink.first[k + 1] - sink.first[k];
      for (int64_t e = 0; e < n; ++e) SetBit(array + 8, e);
    }
    return Status::Ok();
  }
};

}  // namespace

Status VariableElementWriters(const ArrowType& type, KernelIsa isa, ElementWriterSet* out) {
  switch (type.id) {
    case ArrowTypeId::kUtf8:
    case ArrowTypeId::kBinary:
    case ArrowTypeId::kLargeUtf8:
    case ArrowTypeId::kLargeBinary:
    case ArrowTypeId::kUtf8View:
    case ArrowTypeId::kBinaryView:
    case ArrowTypeId::kFixedSizeBinary:
      if (const IsaEntryPoints& entry_points = EntryPointsFor(isa);
          entry_points.binary_element_writer_set != nullptr &&
          entry_points.binary_element_writer_set(type.id, out)) {
        return Status::Ok();
      }
      BinaryElementWriterSetFor<PortableCopy>(type.id, out);
      return Status::Ok();
    case ArrowTypeId::kUInt64:
      *out = MakeElementWriterSet<LargeDecimalElementKernel<UInt64Source>, true>();
      return Status::Ok();
    case ArrowTypeId::kDecimal:
      if (type.precision > spark::kMaxSmallDecimalDigits && type.bit_width == 128) {
        *out = MakeElementWriterSet<LargeDecimalElementKernel<SignedSource<16>>, true>();
        return Status::Ok();
      }
      if (type.precision > spark::kMaxSmallDecimalDigits && type.bit_width == 256) {
        *out = MakeElementWriterSet<LargeDecimalElementKernel<SignedSource<32>>, true>();
        return Status::Ok();
      }
      break;
    case ArrowTypeId::kIntervalMonthDayNano:
      *out = MakeElementWriterSet<CalendarIntervalElementKernel, true>();
      return Status::Ok();
    case ArrowTypeId::kNull:
      *out = MakeElementWriterSet<NullElementKernel, false>();
      return Status::Ok();
    default: break;
  }
  return Status::NotSupported("no array element writer for " + ArrowTypeName(type));
}

}  // namespace rowbridge::row
