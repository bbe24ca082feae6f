// The string and binary array element writers, templates on how bytes are
// copied (see binary_kernel.hpp): each array's variable region holds its
// valid elements' bytes in element order, each element's slot is
// (offset from the array start << 32) | size.
#pragma once

#include "row/binary_kernel.hpp"
#include "row/nested/element_writer.hpp"

namespace rowbridge::row {

template <typename Source, typename Copier>
struct BinaryElementKernel {
  template <bool kGathered, bool kAllValid>
  static Status Write(const ColumnTarget&, const ColumnInput& input_ref,
                      const ArraySink& sink_ref) {
    const ColumnInput input = input_ref;
    ForEachVariableElement<kAllValid>(input, sink_ref, [&](int64_t c, uint8_t* dst) {
      const int64_t index = ValueIndex<kGathered>(input, c);
      const int64_t length = Source::Length(input, index);
      Copier::CopyPadded(dst, Source::Data(input, index), length);
      return length;
    });
    return Status::Ok();
  }
};

template <typename Source, typename Copier>
ElementWriterSet BinaryElements(const WriterSet& slot_writers) {
  ElementWriterSet set = MakeElementWriterSet<BinaryElementKernel<Source, Copier>, false>();
  for (int g = 0; g < 2; ++g) {
    for (int v = 0; v < 2; ++v) set.size[g][v] = slot_writers.size[g][v];
  }
  return set;
}

/// Sets `*out` to the element writers of the binary-like type `id` with
/// `Copier`'s copy (their sizes are the slot writers'); false for other
/// types. Builds no string (see simd/kernel_isa.hpp).
template <typename Copier>
bool BinaryElementWriterSetFor(ArrowTypeId id, ElementWriterSet* out) {
  WriterSet slot_writers;
  if (!BinaryWriterSetFor<Copier>(id, &slot_writers)) return false;
  switch (id) {
    case ArrowTypeId::kUtf8:
    case ArrowTypeId::kBinary:
      *out = BinaryElements<OffsetSource<int32_t>, Copier>(slot_writers);
      break;
    case ArrowTypeId::kLargeUtf8:
    case ArrowTypeId::kLargeBinary:
      *out = BinaryElements<OffsetSource<int64_t>, Copier>(slot_writers);
      break;
    case ArrowTypeId::kUtf8View:
    case ArrowTypeId::kBinaryView: *out = BinaryElements<ViewSource, Copier>(slot_writers); break;
    default: *out = BinaryElements<FixedSizeSource, Copier>(slot_writers); break;
  }
  return true;
}

}  // namespace rowbridge::row
