// Writers for decimals of precision 19..38 (and uint64 as decimal(20,0)):
// Spark reserves 16 variable-region bytes for every such value, null or not,
// and stores the minimal big-endian two's complement of the unscaled value.
#include "row/column_access.hpp"
#include "row/large_decimal_sources.hpp"
#include "row/writer_families.hpp"
#include "spark/decimal_math.hpp"

namespace rowbridge::row {
namespace {

template <typename Source>
struct LargeDecimalKernel {
  template <bool kGathered, bool kAllValid, bool kAlone = false>
  static Status Write(const ColumnTarget& target, const ColumnInput& input_ref, int64_t row_begin,
                      int64_t num_rows, const RowSink& sink_ref) {
    const ColumnInput input = input_ref;
    const RowSink sink = sink_ref;
    const int64_t slot_offset = target.slot_offset;
    const NullBit null_bit = NullBitOf(target);
    const int32_t precision = target.precision;
    bool ok = true;
    for (int64_t k = 0; k < num_rows; ++k) {
      int64_t r = row_begin + k;
      uint8_t* row = sink.base + sink.row_offsets[k];
      int64_t cursor = CursorOf<kAlone>(sink, k);
      uint8_t* dst = row + cursor;
      uint64_t length = 0;
      if (IsValid<kAllValid>(input, r)) {
        spark::Int128 v;
        ok &= Source::Read(input.values, ValueIndex<kGathered>(input, r), &v);
        ok &= spark::FitsPrecision128(v, precision);
        length = static_cast<uint64_t>(spark::MinimalBigEndian(v, dst));
      } else {
        SetNull(row, null_bit);
        Store64(dst, 0);
        Store64(dst + 8, 0);
      }
      Store64(row + slot_offset, (static_cast<uint64_t>(cursor) << 32) | length);
      AdvanceCursor<kAlone>(sink, k, cursor + 16);
    }
    if (ok) return Status::Ok();
    for (int64_t k = 0; k < num_rows; ++k) {
      int64_t r = row_begin + k;
      if (!IsValid<kAllValid>(input, r)) continue;
      spark::Int128 v;
      int64_t index = ValueIndex<kGathered>(input, r);
      if (!Source::Read(input.values, index, &v) || !spark::FitsPrecision128(v, target.precision)) {
        return Status::Overflow(
            ColumnRowError(target, ReportedRow(sink, k, r),
                           "unscaled value " + Source::Describe(input.values, index) +
                               " does not fit precision " + std::to_string(target.precision)));
      }
    }
    return Status::Internal(ColumnRowError(target, row_begin, "value check failed without a row"));
  }
};

}  // namespace

Status LargeDecimalWriters(const ArrowType& type, WriterSet* out) {
  constexpr int32_t kReserved = 16;
  if (type.id == ArrowTypeId::kUInt64) {
    *out = MakeWriterSet<LargeDecimalKernel<UInt64Source>, false, true>(kReserved);
    return Status::Ok();
  }
  if (type.id == ArrowTypeId::kDecimal && type.precision > spark::kMaxSmallDecimalDigits) {
    if (type.bit_width == 128) {
      *out = MakeWriterSet<LargeDecimalKernel<SignedSource<16>>, false, true>(kReserved);
      return Status::Ok();
    }
    if (type.bit_width == 256) {
      *out = MakeWriterSet<LargeDecimalKernel<SignedSource<32>>, false, true>(kReserved);
      return Status::Ok();
    }
  }
  return Status::NotSupported("no large decimal writer for " + ArrowTypeName(type));
}

}  // namespace rowbridge::row
