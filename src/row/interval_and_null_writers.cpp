// Writers for CalendarInterval (from interval[month_day_nano]) and NullType.
#include "row/column_access.hpp"
#include "row/writer_families.hpp"

namespace rowbridge::row {
namespace {

/// 16 variable-region bytes: int months, int days, long microseconds (the
/// nanoseconds divided by 1000, truncated toward zero); a null interval keeps
/// its 16 bytes, zeroed, and the same slot.
struct CalendarIntervalKernel {
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
      int64_t cursor = CursorOf<kAlone>(sink, k);
      uint8_t* dst = row + cursor;
      if (IsValid<kAllValid>(input, r)) {
        const uint8_t* value = input.values + ValueIndex<kGathered>(input, r) * 16;
        int64_t nanos = Load<int64_t>(value + 8);
        int64_t micros = nanos / 1000;  // toward zero, as Spark's Arrow reader
        std::memcpy(dst, value, 8);     // months and days, both int32
        Store64(dst + 8, static_cast<uint64_t>(micros));
      } else {
        SetNull(row, null_bit);
        Store64(dst, 0);
        Store64(dst + 8, 0);
      }
      Store64(row + slot_offset, (static_cast<uint64_t>(cursor) << 32) | 16);
      AdvanceCursor<kAlone>(sink, k, cursor + 16);
    }
    return Status::Ok();
  }
};

/// Every value is null: null bit set, slot zero.
struct NullKernel {
  template <bool kGathered, bool kAllValid>
  static Status Write(const ColumnTarget& target, const ColumnInput&, int64_t, int64_t num_rows,
                      const RowSink& sink_ref) {
    const RowSink sink = sink_ref;
    const int64_t slot_offset = target.slot_offset;
    const NullBit null_bit = NullBitOf(target);
    for (int64_t k = 0; k < num_rows; ++k) {
      uint8_t* row = sink.base + sink.row_offsets[k];
      SetNull(row, null_bit);
      Store64(row + slot_offset, 0);
    }
    return Status::Ok();
  }
};

}  // namespace

Status IntervalAndNullWriters(const ArrowType& type, WriterSet* out) {
  if (type.id == ArrowTypeId::kIntervalMonthDayNano) {
    *out = MakeWriterSet<CalendarIntervalKernel, false, true>(16);
    return Status::Ok();
  }
  if (type.id == ArrowTypeId::kNull) {
    *out = MakeWriterSet<NullKernel, false>();
    return Status::Ok();
  }
  return Status::NotSupported("no writer for " + ArrowTypeName(type));
}

}  // namespace rowbridge::row
