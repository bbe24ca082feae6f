// Element writers for values of 1, 2, 4 or 8 bytes in the array's fixed part.
#include <algorithm>
#include <cstring>

#include "row/binary_sources.hpp"
#include "row/column_access.hpp"
#include "row/kernel_isa.hpp"
#include "row/nested/element_writer.hpp"
#include "row/value_ops.hpp"

namespace rowbridge::row {
namespace {

template <typename Op, int kSize>
struct FixedElementKernel {
  /// Arrays of a plain child whose Arrow values are the Spark element bytes
  /// are copied with one move per array (the values under nulls zeroed after).
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
      if constexpr (!kGathered) {
        if constexpr (kBulk) {
          CopyBytes(elements, input.values + (input.offset + begin) * kSize, n * kSize);
        } else {
          // A plain child has a value (maybe garbage) under every null: load
          // it unconditionally and keep zero for nulls, without a branch.
          for (int64_t e = 0; e < n; ++e) {
            int64_t c = begin + e;
            bool valid = IsValid<kAllValid>(input, c);
            uint64_t value = 0;
            bool fits = Op::Load(input, input.offset + c, precision, &value);
            ok &= fits | !valid;
            StoreLow<kSize>(elements + e * kSize, valid ? value : 0);
          }
        }
        if constexpr (!kAllValid) {
          // The null bits come from the child's bitmap a word at a time; the
          // bulk copy's bytes under them are zeroed one null at a time.
          for (int64_t word = 0; word * 64 < n; ++word) {
            int64_t bits = std::min<int64_t>(64, n - word * 64);
            uint64_t nulls = ~ReadBits(input.validity, input.validity_offset + begin + word * 64,
                                       bits, sink.validity_bytes) &
                             (bits < 64 ? (uint64_t{1} << bits) - 1 : ~uint64_t{0});
            if (nulls == 0) continue;
            Store64(array + 8 + word * 8, nulls);
            if constexpr (kBulk) {
              for (; nulls != 0; nulls &= nulls - 1) {
                StoreLow<kSize>(elements + (word * 64 + __builtin_ctzll(nulls)) * kSize, 0);
              }
            }
          }
        }
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
          return Status::Overflow(
              ColumnRowError(target, ArrayRow(sink, k),
                             Op::Describe(input, ValueIndex<kGathered>(input, c), precision)));
        }
      }
    }
    return Status::Internal(
        ColumnRowError(target, ArrayRow(sink, 0), "value check failed without an element"));
  }
};

template <typename Op, int kSize>
ElementWriterSet Sized(KernelIsa isa) {
  ElementWriterSet set = MakeElementWriterSet<FixedElementKernel<Op, kSize>, false>();
  const IsaEntryPoints& entry_points = EntryPointsFor(isa);
  if (FixedElementKernel<Op, kSize>::kBulk && entry_points.bulk_element_writer != nullptr) {
    set.write[0][0] = entry_points.bulk_element_writer(kSize, false);
    set.write[0][1] = entry_points.bulk_element_writer(kSize, true);
  }
  return set;
}

template <typename Op>
bool MakeSized(int32_t element_size, KernelIsa isa, ElementWriterSet* out) {
  switch (element_size) {
    case 1: *out = Sized<Op, 1>(isa); return true;
    case 2: *out = Sized<Op, 2>(isa); return true;
    case 4: *out = Sized<Op, 4>(isa); return true;
    case 8: *out = Sized<Op, 8>(isa); return true;
    default: return false;
  }
}

}  // namespace

Status FixedWidthElementWriters(const ArrowType& type, int32_t element_size, KernelIsa isa,
                                ElementWriterSet* out) {
  bool sized = false;
  bool found = VisitValueOp(type, [&](auto tag) {
    sized = MakeSized<typename decltype(tag)::type>(element_size, isa, out);
  });
  if (found && sized) return Status::Ok();
  return Status::NotSupported("no array element writer for " + ArrowTypeName(type) + " of " +
                              std::to_string(element_size) + " bytes");
}

}  // namespace rowbridge::row
