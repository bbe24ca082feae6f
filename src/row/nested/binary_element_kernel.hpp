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
Status BinaryElements(const ArrowType& type, ElementWriterSet* out) {
  WriterSet slot_writers;
  ROWBRIDGE_RETURN_NOT_OK(MakeBinaryWriters<Copier>(type, &slot_writers));
  *out = MakeElementWriterSet<BinaryElementKernel<Source, Copier>, false>();
  for (int g = 0; g < 2; ++g) {
    for (int v = 0; v < 2; ++v) out->size[g][v] = slot_writers.size[g][v];
  }
  return Status::Ok();
}

/// The element writers of the binary-like `type` with `Copier`'s copy.
template <typename Copier>
Status MakeBinaryElementWriters(const ArrowType& type, ElementWriterSet* out) {
  switch (type.id) {
    case ArrowTypeId::kUtf8:
    case ArrowTypeId::kBinary: return BinaryElements<OffsetSource<int32_t>, Copier>(type, out);
    case ArrowTypeId::kLargeUtf8:
    case ArrowTypeId::kLargeBinary: return BinaryElements<OffsetSource<int64_t>, Copier>(type, out);
    case ArrowTypeId::kUtf8View:
    case ArrowTypeId::kBinaryView: return BinaryElements<ViewSource, Copier>(type, out);
    case ArrowTypeId::kFixedSizeBinary: return BinaryElements<FixedSizeSource, Copier>(type, out);
    default: return Status::NotSupported("no binary element writer for " + ArrowTypeName(type));
  }
}

}  // namespace rowbridge::row
