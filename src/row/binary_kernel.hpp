// The string and binary column writers, templates on how bytes are copied
// (`Copier::CopyPadded`, see binary_sources.hpp): instantiated with the
// portable copy in binary_writers.cpp and with per-ISA copies in simd/.
#pragma once

#include "row/binary_sources.hpp"
#include "row/column_access.hpp"
#include "row/writer_families.hpp"

namespace rowbridge::row {

template <typename Source, typename Copier>
struct BinaryKernel {
  template <bool kGathered, bool kAllValid>
  static int64_t Size(const ColumnInput& input_ref, int64_t row_begin, int64_t num_rows,
                      int64_t* sizes) {
    const ColumnInput input = input_ref;
    if constexpr (!kGathered && HasPrefetchData<Source>::value) {
      Source::PrefetchData(input, input.offset + row_begin, num_rows);
    }
    if constexpr (!kGathered && HasPaddedLengths<Copier, Source>::value) {
      // The copier adds the padded lengths of the whole run at once.
      using Offset = typename Source::Offset;
      const uint8_t* offsets =
          input.values + (input.offset + row_begin) * static_cast<int64_t>(sizeof(Offset));
      const uint8_t* validity = kAllValid ? nullptr : input.validity;
      if (Copier::template AddPaddedLengths<Offset>(
              offsets, validity, input.validity_offset + row_begin, num_rows, sizes)) {
        return -1;
      }
      return FirstNegativeLength<false, kAllValid>(input, row_begin, num_rows);
    }
    // A plain column, without a branch on nulls (10 % of them cost more in
    // mispredictions than loading every length): a null value's length,
    // whatever its offsets say, is masked to 0. A gathered one may hold any
    // index under a null.
    int64_t sign_bits = 0;
    for (int64_t k = 0; k < num_rows; ++k) {
      int64_t r = row_begin + k;
      int64_t length = 0;
      if constexpr (kGathered) {
        if (IsValid<kAllValid>(input, r))
          length = Source::Length(input, ValueIndex<true>(input, r));
      } else {
        length = Source::Length(input, ValueIndex<false>(input, r)) &
                 -static_cast<int64_t>(IsValid<kAllValid>(input, r));
      }
      sign_bits |= length;
      sizes[k] += spark::RoundUp8(length);
    }
    if (sign_bits >= 0) return -1;
    return FirstNegativeLength<kGathered, kAllValid>(input, row_begin, num_rows);
  }

  /// The first row of [row_begin, row_begin + num_rows) whose valid value
  /// has a negative length, or -1.
  template <bool kGathered, bool kAllValid>
  static int64_t FirstNegativeLength(const ColumnInput& input, int64_t row_begin,
                                     int64_t num_rows) {
    for (int64_t r = row_begin; r < row_begin + num_rows; ++r) {
      if (IsValid<kAllValid>(input, r) &&
          Source::Length(input, ValueIndex<kGathered>(input, r)) < 0) {
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
    // A plain column without a branch on nulls: a null value is copied with
    // length 0, gets a zero slot (its null bit afterwards) and takes no bytes. A
    // gathered null may hold an index that is not readable (an empty
    // dictionary's).
    ForEachRow<kAllValid>(input, row_begin, num_rows, [&](int64_t k, auto valid) {
      int64_t r = row_begin + k;
      uint8_t* row = sink.base + sink.row_offsets[k];
      if constexpr (kGathered) {
        if (!valid) {
          Store64(row + slot_offset, 0);
          return;
        }
      }
      int64_t index = ValueIndex<kGathered>(input, r);
      int64_t length =
          Source::Length(input, index) & -static_cast<int64_t>(static_cast<bool>(valid));
      int64_t cursor = CursorOf<kAlone>(sink, k);
      uint8_t* dst = row + cursor;
      const uint8_t* src = Source::Data(input, index);
      // The bytes of a plain column's values are read in order, and the copy
      // would otherwise wait for each line of them.
      if constexpr (!kGathered && HasPrefetchData<Source>::value) spark::PrefetchAhead(src, 512);
      Copier::CopyPadded(dst, src, length);
      uint64_t slot = OffsetAndSize(cursor, length);
      // A mask, not a conditional, which the compiler may make a branch.
      if constexpr (!kGathered) slot &= -static_cast<uint64_t>(static_cast<bool>(valid));
      Store64(row + slot_offset, slot);
      AdvanceCursor<kAlone>(sink, k, cursor + spark::RoundUp8(length));
    });
    // The null bits after the values: setting one reads its row's null word,
    // and a read just after a (masked) copy into the row before may wait for
    // that copy's store.
    if constexpr (!kAllValid) SetNullBits(input, row_begin, num_rows, sink, null_bit);
    return Status::Ok();
  }
};

template <typename Source, typename Copier>
WriterSet Binary() {
  return MakeWriterSet<BinaryKernel<Source, Copier>, true>();
}

/// Sets `*out` to the writers of the binary-like type `id` with `Copier`'s
/// copy; false for other types. Builds no string (see simd/kernel_isa.hpp).
template <typename Copier>
bool BinaryWriterSetFor(ArrowTypeId id, WriterSet* out) {
  switch (id) {
    case ArrowTypeId::kUtf8:
    case ArrowTypeId::kBinary: *out = Binary<OffsetSource<int32_t>, Copier>(); return true;
    case ArrowTypeId::kLargeUtf8:
    case ArrowTypeId::kLargeBinary: *out = Binary<OffsetSource<int64_t>, Copier>(); return true;
    case ArrowTypeId::kUtf8View:
    case ArrowTypeId::kBinaryView: *out = Binary<ViewSource, Copier>(); return true;
    case ArrowTypeId::kFixedSizeBinary: *out = Binary<FixedSizeSource, Copier>(); return true;
    default: return false;
  }
}

}  // namespace rowbridge::row
