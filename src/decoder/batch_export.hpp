// Export of a decoded batch (the row decoder's filled buffers) as a C Data
// Interface ArrowArray tree whose nodes all live in one allocation: a batch
// costs a few allocations whatever its column count, where one ArrayData
// and one exported node per array cost several each (docs/BENCHMARKS.md).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "decoder/decode_passes.hpp"
#include "rowbridge/arrow_c_data.h"

namespace rowbridge::decoder {

/// Whether a node of this kind has a values (or offsets) buffer, and a
/// string data buffer; the values buffer's bytes for `values` values.
inline bool HasValuesBuffer(const DecodeNode& node) {
  return node.kind != DecodeKind::kNull && node.kind != DecodeKind::kStruct &&
         node.kind != DecodeKind::kVariant;
}
inline bool HasDataBuffer(const DecodeNode& node) {
  return node.kind == DecodeKind::kString32 || node.kind == DecodeKind::kString64;
}
int64_t ValuesBytes(const DecodeNode& node, int64_t values);

/// Exports rows' worth of `outputs` (one per node of `plan`, filled; their
/// buffers in `block`) into `out`: a struct of `num_rows` rows, one child
/// per column, a map's entries struct between it and its key and value.
/// Every node shares the batch: it is freed (and `block` given back) when
/// the last node is released; any child may be moved out and released on
/// its own, on any thread. Throws std::bad_alloc (nothing exported then).
void ExportDecodedBatch(const DecodePlan& plan, const std::vector<DecodeOutput>& outputs,
                        std::shared_ptr<uint8_t> block, int64_t num_rows, ArrowArray* out);

}  // namespace rowbridge::decoder
