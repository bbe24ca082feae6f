// Writers for values that live in the 8-byte slot.
#include <type_traits>

#include "row/column_access.hpp"
#include "row/value_ops.hpp"
#include "row/writer_families.hpp"

namespace rowbridge::row {
namespace {

template <typename Op>
struct FixedKernel {
  template <bool kGathered, bool kAllValid>
  static Status Write(const ColumnTarget& target, const ColumnInput& input_ref, int64_t row_begin,
                      int64_t num_rows, const RowSink& sink_ref) {
    const ColumnInput input = input_ref;
    const RowSink sink = sink_ref;
    const int64_t slot_offset = target.slot_offset;
    const NullBit null_bit = NullBitOf(target);
    const int32_t precision = target.precision;
    bool ok = true;
    ForEachRow<kAllValid>(input, row_begin, num_rows, [&](int64_t k, auto valid) {
      int64_t r = row_begin + k;
      uint8_t* row = sink.base + sink.row_offsets[k];
      // A plain column without a branch on nulls: every value is loaded (a
      // null one may hold anything), and a null one's slot and check result
      // are masked. A gathered null may hold an unreadable index.
      uint64_t slot = 0;
      if constexpr (std::is_same_v<decltype(valid), std::true_type>) {
        ok &= Op::Load(input, ValueIndex<kGathered>(input, r), precision, &slot);
      } else if constexpr (kGathered) {
        if (valid) {
          ok &= Op::Load(input, ValueIndex<kGathered>(input, r), precision, &slot);
        } else {
          SetNull(row, null_bit);
        }
      } else {
        const bool loaded = Op::Load(input, ValueIndex<kGathered>(input, r), precision, &slot);
        ok &= loaded | !valid;
        slot &= -static_cast<uint64_t>(static_cast<bool>(valid));
        SetNullIf(row, null_bit, !valid);
      }
      Store64(row + slot_offset, slot);
    });
    if (ok) return Status::Ok();
    for (int64_t k = 0; k < num_rows; ++k) {
      int64_t r = row_begin + k;
      uint64_t slot;
      if (IsValid<kAllValid>(input, r) &&
          !Op::Load(input, ValueIndex<kGathered>(input, r), target.precision, &slot)) {
        return Status::Overflow(
            ColumnRowError(target, ReportedRow(sink, k, r),
                           Op::Describe(input, ValueIndex<kGathered>(input, r), target.precision)));
      }
    }
    return Status::Internal(ColumnRowError(target, row_begin, "value check failed without a row"));
  }
};

template <typename Op>
WriterSet Fixed() {
  return MakeWriterSet<FixedKernel<Op>, false>();
}

}  // namespace

Status FixedWidthWriters(const ArrowType& type, WriterSet* out) {
  bool found = VisitValueOp(type, [&](auto tag) { *out = Fixed<typename decltype(tag)::type>(); });
  if (found) return Status::Ok();
  return Status::NotSupported("no slot writer for " + ArrowTypeName(type));
}

}  // namespace rowbridge::row
