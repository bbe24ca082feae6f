// Writers for strings and binaries: bytes appended to the variable region,
// zero-padded to 8, with (offset << 32) | size in the slot.
#include "row/binary_kernel.hpp"
#include "row/kernel_isa.hpp"

namespace rowbridge::row {

namespace {

/// Adds the portable writers of an offset-based type to the branch-free
/// `set`, for batches whose lengths the portable copy predicts.
template <typename Source>
void AddPredictableWriters(ArrowTypeId id, WriterSet* set) {
  WriterSet portable;
  BinaryWriterSetFor<PortableCopy>(id, &portable);
  for (int v = 0; v < 2; ++v) {
    set->predictable_write[v] = portable.write[0][v];
    set->predictable_write_alone[v] = portable.write_alone[0][v];
  }
  set->lengths_predictable = &Source::LengthsPredictable;
}

}  // namespace

Status BinaryWriters(const ArrowType& type, KernelIsa isa, WriterSet* out) {
  const IsaEntryPoints& entry_points = EntryPointsFor(isa);
  if (entry_points.binary_writer_set != nullptr && entry_points.binary_writer_set(type.id, out)) {
    if (type.id == ArrowTypeId::kUtf8 || type.id == ArrowTypeId::kBinary) {
      AddPredictableWriters<OffsetSource<int32_t>>(type.id, out);
    } else if (type.id == ArrowTypeId::kLargeUtf8 || type.id == ArrowTypeId::kLargeBinary) {
      AddPredictableWriters<OffsetSource<int64_t>>(type.id, out);
    }
    return Status::Ok();
  }
  if (BinaryWriterSetFor<PortableCopy>(type.id, out)) return Status::Ok();
  return Status::NotSupported("no binary writer for " + ArrowTypeName(type));
}

}  // namespace rowbridge::row
