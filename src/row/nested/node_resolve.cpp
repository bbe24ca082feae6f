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

namespace rowbridge::row {
namespace {

int64_t LogicalIndex(const Candidates& candidates, int64_t c) {
  return candidates.indices == nullptr ? candidates.start + c : candidates.indices[c];
}

/// Prepares the gather and validity scratch of `count` candidates.
void PrepareScratch(NodeState* node, int64_t count) {
  if (node->gather.size() < static_cast<size_t>(count))
    node->gather.resize(static_cast<size_t>(count));
  size_t bytes = static_cast<size_t>((count + 63) / 64 * 8);
  if (node->validity.size() < bytes) node->validity.resize(bytes);
}

/// Collects validity bits in a register and stores them a word at a time
/// (a byte read-modify-write per value would chain every value through
/// memory).
class BitWriter {
 public:
  explicit BitWriter(uint8_t* bitmap) : bitmap_(bitmap) {}
  void Put(int64_t c, bool valid) {
    word_ |= static_cast<uint64_t>(valid) << (c & 63);
    if ((c & 63) == 63) Flush(c);
  }
  /// Stores the bits of a last, partial word ending with value `count - 1`.
  void Finish(int64_t count) {
    if ((count & 63) != 0) Flush(count - 1);
  }

 private:
  void Flush(int64_t c) {
    Store64(bitmap_ + (c >> 6) * 8, word_);
    word_ = 0;
  }
  uint8_t* bitmap_;
  uint64_t word_ = 0;
};

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

template <typename IndexType>
Status GatherDictionary(NodeState* node, const Candidates& candidates,
                        const NestedColumnState& column, bool* any_null) {
  const ArrowArray& indices = *node->array;
  const ArrowArray& dictionary = *node->values;
  const auto* index_values = static_cast<const uint8_t*>(indices.buffers[1]);
  const uint8_t* index_validity =
      MayHaveNulls(indices) ? static_cast<const uint8_t*>(indices.buffers[0]) : nullptr;
  const uint8_t* value_validity = node->value_buffers.validity;
  int64_t* gather = node->gather.data();
  BitWriter validity(node->validity.data());
  bool nulls = false;
  bool out_of_range = false;
  for (int64_t c = 0; c < candidates.count; ++c) {
    int64_t q = indices.offset + LogicalIndex(candidates, c);
    bool valid = index_validity == nullptr || GetBit(index_validity, q);
    int64_t key = LoadElement<IndexType>(index_values, q);
    bool in_range = static_cast<uint64_t>(key) < static_cast<uint64_t>(dictionary.length);
    out_of_range |= valid & !in_range;
    valid &= in_range;
    int64_t physical = dictionary.offset + (valid ? key : 0);
    gather[c] = physical;
    valid = valid && (value_validity == nullptr || GetBit(value_validity, physical));
    nulls |= !valid;
    validity.Put(c, valid);
  }
  validity.Finish(candidates.count);
  if (out_of_range) {
    for (int64_t c = 0; c < candidates.count; ++c) {
      int64_t q = indices.offset + LogicalIndex(candidates, c);
      if (index_validity != nullptr && !GetBit(index_validity, q)) continue;
      int64_t key = LoadElement<IndexType>(index_values, q);
      if (static_cast<uint64_t>(key) >= static_cast<uint64_t>(dictionary.length)) {
        return CandidateError(node, c, column,
                              "dictionary index " + std::to_string(key) +
                                  " is outside the dictionary of " +
                                  std::to_string(dictionary.length) + " values");
      }
    }
  }
  *any_null = nulls;
  return Status::Ok();
}

template <typename RunEndType>
Status GatherRuns(NodeState* node, const Candidates& candidates, const NestedColumnState& column,
                  bool* any_null) {
  const ArrowArray& array = *node->array;
  const ArrowArray& run_ends = *node->run_ends;
  const ArrowArray& values = *node->values;
  const auto* ends =
      static_cast<const uint8_t*>(run_ends.buffers[1]) + run_ends.offset * sizeof(RunEndType);
  auto end_at = [&](int64_t run) { return LoadElement<RunEndType>(ends, run); };
  const int64_t runs = run_ends.length;
  const uint8_t* value_validity = node->value_buffers.validity;
  int64_t* gather = node->gather.data();
  BitWriter validity(node->validity.data());
  bool nulls = false;
  int64_t run = 0;
  for (int64_t c = 0; c < candidates.count; ++c) {
    int64_t q = array.offset + LogicalIndex(candidates, c);
    // Candidates mostly ascend: keep the run while it covers q, else search.
    if (!(run < runs && end_at(run) > q && (run == 0 || end_at(run - 1) <= q))) {
      int64_t low = 0;
      int64_t high = runs;
      while (low < high) {
        int64_t mid = low + (high - low) / 2;
        if (end_at(mid) <= q) low = mid + 1;
        else high = mid;
      }
      run = low;
    }
    if (run >= runs) {
      return CandidateError(node, c, column,
                            "past the last run end (" + std::to_string(runs) + " runs)");
    }
    int64_t physical = values.offset + run;
    gather[c] = physical;
    bool valid = value_validity == nullptr || GetBit(value_validity, physical);
    nulls |= !valid;
    validity.Put(c, valid);
  }
  validity.Finish(candidates.count);
  *any_null = nulls;
  return Status::Ok();
}

Status GatherEncoded(NodeState* node, const Candidates& candidates, const NestedColumnState& column,
                     bool* any_null) {
  const NestedNode& plan = *node->plan;
  if (plan.encoding == Encoding::kRunEnd) {
    switch (plan.index_type.id) {
      case ArrowTypeId::kInt16: return GatherRuns<int16_t>(node, candidates, column, any_null);
      case ArrowTypeId::kInt32: return GatherRuns<int32_t>(node, candidates, column, any_null);
      default: return GatherRuns<int64_t>(node, candidates, column, any_null);
    }
  }
  switch (plan.index_type.id) {
    case ArrowTypeId::kInt8: return GatherDictionary<int8_t>(node, candidates, column, any_null);
    case ArrowTypeId::kUInt8: return GatherDictionary<uint8_t>(node, candidates, column, any_null);
    case ArrowTypeId::kInt16: return GatherDictionary<int16_t>(node, candidates, column, any_null);
    case ArrowTypeId::kUInt16:
      return GatherDictionary<uint16_t>(node, candidates, column, any_null);
    case ArrowTypeId::kInt32: return GatherDictionary<int32_t>(node, candidates, column, any_null);
    case ArrowTypeId::kUInt32:
      return GatherDictionary<uint32_t>(node, candidates, column, any_null);
    case ArrowTypeId::kInt64: return GatherDictionary<int64_t>(node, candidates, column, any_null);
    default: return GatherDictionary<uint64_t>(node, candidates, column, any_null);
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
