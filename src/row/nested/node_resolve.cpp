// Resolving a node's candidates through its encoding: candidate c becomes a
// value index of the node's value array and a validity bit. A plain node
// whose candidates are contiguous keeps the array's own bitmap and an
// offset; anything else becomes a gather (index per candidate) plus a bitmap,
// the shape every writer reads in its gathered mode.
#include "row/nested/node_resolve.hpp"

#include <algorithm>
#include <cstring>

#include "arrow/array_checks.hpp"
#include "arrow/bits.hpp"
#include "row/column_access.hpp"
#include "row/encoded_gather.hpp"

namespace rowbridge::row {
namespace {

/// Prepares the gather and validity scratch of `count` candidates.
void PrepareScratch(NodeState* node, int64_t count) {
  if (node->gather.size() < static_cast<size_t>(count))
    node->gather.resize(static_cast<size_t>(count));
  const auto bytes = static_cast<size_t>(GatherValidityBytes(count));
  if (node->validity.size() < bytes) node->validity.resize(bytes);
}

/// Plain values at explicit logical indices. The gather is the indices
/// themselves when the array has no offset.
bool GatherPlain(NodeState* node, const Candidates& candidates) {
  const ArrowArray& values = *node->values;
  const uint8_t* value_validity = node->value_buffers.validity;
  const int64_t* indices = candidates.indices;
  const int64_t offset = values.offset;
  const int64_t count = candidates.count;
  const int64_t* gather = indices;
  if (offset != 0) {
    int64_t* own = node->gather.data();
    for (int64_t c = 0; c < count; ++c) own[c] = offset + indices[c];
    gather = own;
  }
  node->input.gather = gather;
  if (value_validity == nullptr) return false;
  BitWriter validity(node->validity.data());
  bool any_null = false;
  for (int64_t c = 0; c < count; ++c) {
    bool valid = GetBit(value_validity, gather[c]);
    any_null |= !valid;
    validity.Put(c, valid);
  }
  validity.Finish(count);
  return any_null;
}

template <typename IndexType, typename Positions>
Status GatherDictionaryNode(NodeState* node, Positions positions, int64_t count,
                            const NestedColumnState& column, bool* any_null) {
  const ArrowArray& indices = *node->array;
  const ArrowArray& dictionary = *node->values;
  const uint8_t* index_validity =
      MayHaveNulls(indices) ? static_cast<const uint8_t*>(indices.buffers[0]) : nullptr;
  const DictionaryValues values{dictionary.offset, dictionary.length, node->value_buffers.validity};
  const int64_t bad = GatherDictionary<IndexType>(
      static_cast<const uint8_t*>(indices.buffers[1]), index_validity, positions, count, values,
      GatherOutput{node->gather.data(), node->validity.data()}, any_null);
  if (bad < 0) return Status::Ok();
  const int64_t key =
      LoadElement<IndexType>(static_cast<const uint8_t*>(indices.buffers[1]), positions[bad]);
  return CandidateError(node, bad, column,
                        "dictionary index " + std::to_string(key) +
                            " is outside the dictionary of " + std::to_string(dictionary.length) +
                            " values");
}

template <typename RunEndType, typename Positions>
Status GatherRunsNode(NodeState* node, Positions positions, int64_t count,
                      const NestedColumnState& column, bool* any_null) {
  const ArrowArray& run_ends = *node->run_ends;
  const RunValues values{
      static_cast<const uint8_t*>(run_ends.buffers[1]) + run_ends.offset * sizeof(RunEndType),
      run_ends.length, node->values->offset, node->value_buffers.validity};
  const int64_t bad = GatherRuns<RunEndType>(
      values, positions, count, GatherOutput{node->gather.data(), node->validity.data()}, any_null);
  if (bad < 0) return Status::Ok();
  return CandidateError(node, bad, column,
                        "past the last run end (" + std::to_string(run_ends.length) + " runs)");
}

/// The gather of an encoded node, by index type and by how its candidates
/// are given.
template <typename IndexType>
Status GatherEncodedAs(NodeState* node, const Candidates& candidates,
                       const NestedColumnState& column, bool* any_null) {
  const int64_t start = node->array->offset;
  const bool run_end = node->plan->encoding == Encoding::kRunEnd;
  if (candidates.indices == nullptr) {
    const ContiguousPositions positions{start + candidates.start};
    return run_end ? GatherRunsNode<IndexType>(node, positions, candidates.count, column, any_null)
                   : GatherDictionaryNode<IndexType>(node, positions, candidates.count, column,
                                                     any_null);
  }
  const ListedPositions positions{start, candidates.indices};
  return run_end
             ? GatherRunsNode<IndexType>(node, positions, candidates.count, column, any_null)
             : GatherDictionaryNode<IndexType>(node, positions, candidates.count, column, any_null);
}

Status GatherEncoded(NodeState* node, const Candidates& candidates, const NestedColumnState& column,
                     bool* any_null) {
  const NestedNode& plan = *node->plan;
  if (plan.encoding == Encoding::kRunEnd) {
    switch (plan.index_type.id) {
      case ArrowTypeId::kInt16: return GatherEncodedAs<int16_t>(node, candidates, column, any_null);
      case ArrowTypeId::kInt32: return GatherEncodedAs<int32_t>(node, candidates, column, any_null);
      default: return GatherEncodedAs<int64_t>(node, candidates, column, any_null);
    }
  }
  switch (plan.index_type.id) {
    case ArrowTypeId::kInt8: return GatherEncodedAs<int8_t>(node, candidates, column, any_null);
    case ArrowTypeId::kUInt8: return GatherEncodedAs<uint8_t>(node, candidates, column, any_null);
    case ArrowTypeId::kInt16: return GatherEncodedAs<int16_t>(node, candidates, column, any_null);
    case ArrowTypeId::kUInt16: return GatherEncodedAs<uint16_t>(node, candidates, column, any_null);
    case ArrowTypeId::kInt32: return GatherEncodedAs<int32_t>(node, candidates, column, any_null);
    case ArrowTypeId::kUInt32: return GatherEncodedAs<uint32_t>(node, candidates, column, any_null);
    case ArrowTypeId::kInt64: return GatherEncodedAs<int64_t>(node, candidates, column, any_null);
    default: return GatherEncodedAs<uint64_t>(node, candidates, column, any_null);
  }
}

/// Full validation: a null where the schema forbids one, among the
/// candidates `mask` leaves live.
Status CheckNulls(NodeState* node, const CandidateMask& mask, const NestedColumnState& column) {
  const NestedNode& plan = *node->plan;
  if (node->all_valid || !plan.rejects_nulls || column.validation != Validation::kFull ||
      plan.value_type.id == ArrowTypeId::kNull) {
    return Status::Ok();
  }
  const ColumnInput& input = node->input;
  for (int64_t c = 0; c < node->count; ++c) {
    if (!GetBit(input.validity, input.validity_offset + c) &&
        (mask.bits == nullptr || GetBit(mask.bits, mask.offset + c))) {
      return CandidateError(node, c, column,
                            plan.is_map_key ? "null map key" : "null in a non-nullable field");
    }
  }
  return Status::Ok();
}

/// ANDs `mask` into the node's validity: a field of a dead struct is null.
void ApplyMask(NodeState* node, const CandidateMask& mask) {
  if (mask.bits == nullptr || node->plan->value_type.id == ArrowTypeId::kNull) return;
  ColumnInput& input = node->input;
  if (node->all_valid) {
    input.validity = mask.bits;
    input.validity_offset = mask.offset;
    node->input_validity_bytes = mask.readable;
    node->all_valid = false;
    return;
  }
  const int64_t count = node->count;
  PrepareScratch(node, count);
  // In place when the validity is the node's scratch already (word k is read
  // before it is written).
  uint8_t* out = node->validity.data();
  bool any_null = false;
  for (int64_t word = 0; word * 64 < count; ++word) {
    const int64_t bits = std::min<int64_t>(64, count - word * 64);
    const uint64_t own = LoadBits(input.validity, input.validity_offset + word * 64, bits);
    const uint64_t live = LoadBits(mask.bits, mask.offset + word * 64, bits);
    const uint64_t valid = own & live;
    any_null |= valid != (bits < 64 ? (uint64_t{1} << bits) - 1 : ~uint64_t{0});
    Store64(out + word * 8, valid);
  }
  input.validity = out;
  input.validity_offset = 0;
  node->input_validity_bytes = static_cast<int64_t>(node->validity.size());
  node->all_valid = !any_null;
  if (!any_null) input.validity = nullptr;
}

}  // namespace

Status ResolveCandidates(NodeState* node, const Candidates& candidates, const CandidateMask& mask,
                         const NestedColumnState& column) {
  const NestedNode& plan = *node->plan;
  node->count = candidates.count;
  ColumnInput& input = node->input;
  input = node->value_buffers;
  const bool value_nulls = input.validity != nullptr;
  if (plan.encoding == Encoding::kPlain && candidates.indices == nullptr) {
    input.offset = node->values->offset + candidates.start;
    input.validity_offset = input.offset;
    input.gather = nullptr;
    node->input_validity_bytes = node->validity_bytes;
    node->all_valid = !value_nulls || plan.value_type.id == ArrowTypeId::kNull;
  } else {
    PrepareScratch(node, candidates.count);
    bool any_null = false;
    if (plan.encoding == Encoding::kPlain) {
      any_null = GatherPlain(node, candidates);
    } else {
      ROWBRIDGE_RETURN_NOT_OK(GatherEncoded(node, candidates, column, &any_null));
      input.gather = node->gather.data();
    }
    input.validity = any_null ? node->validity.data() : nullptr;
    input.validity_offset = 0;
    node->input_validity_bytes = static_cast<int64_t>(node->validity.size());
    node->all_valid = !any_null || plan.value_type.id == ArrowTypeId::kNull;
  }
  ROWBRIDGE_RETURN_NOT_OK(CheckNulls(node, mask, column));
  ApplyMask(node, mask);
  return Status::Ok();
}

}  // namespace rowbridge::row
