// The row decoder's fill pass for values below the top level: each node of
// the plan gets one fill function, resolved once with the plan, that writes
// a tile of up to 64 of its values at a time (DuckDB's per-type functions,
// run per tile rather than per value). A struct's function builds its
// fields' tiles and calls their functions; a list's or map's gathers its
// elements into tiles. So the kind of a node is looked at once per tile, not
// once per value.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "decoder/decode_passes.hpp"
#include "spark/memory_access.hpp"

namespace rowbridge::decoder {

/// Up to kMaxValues consecutive values of one node: where each one's slot
/// (or array element) is, and the region its offsets count from. A null
/// value's pointers point at zero bytes (FillContext::zeros), so that a
/// kernel may read it as it reads the others and mask the result.
struct ValueTile {
  static constexpr int64_t kMaxValues = 64;
  const uint8_t* base[kMaxValues];
  const uint8_t* at[kMaxValues];
  uint64_t valid = 0;  // bit i: value i is not null
  int64_t count = 0;
};

struct FillContext;
/// Appends the values of `tile` to node `index`'s output.
using NodeFillFn = void (*)(const FillContext& context, int32_t index, const ValueTile& tile);

/// The fill functions of every node of a plan, and the zero bytes null
/// values point at. Made once per plan (ResolveNodeFills).
struct NodeFills {
  std::vector<NodeFillFn> functions;
  std::vector<uint8_t> zeros;
};

/// What the fill functions of one batch share. Borrows everything.
struct FillContext {
  const DecodePlan* plan = nullptr;
  DecodeOutput* outputs = nullptr;
  const NodeFillFn* functions = nullptr;
  /// Zero bytes, at least a struct's bitset and slots plus kShortCopy.
  const uint8_t* zeros = nullptr;
  /// ShortCopyEnd of the batch's rows (decode_values.hpp).
  uintptr_t short_end = 0;

  const DecodeNode& Node(int32_t index) const { return plan->nodes[static_cast<size_t>(index)]; }
  DecodeOutput& Output(int32_t index) const { return outputs[static_cast<size_t>(index)]; }
  void Fill(int32_t index, const ValueTile& tile) const {
    functions[static_cast<size_t>(index)](*this, index, tile);
  }
};

/// The fill functions of `plan`'s nodes.
NodeFills ResolveNodeFills(const DecodePlan& plan);

/// The fill functions of leaf nodes (fill_leaves.cpp): the function of a
/// boolean, fixed-width, decimal, string, interval or null node; null for
/// the others.
NodeFillFn LeafFillFunction(const DecodeNode& node);

// ---- bits shared by the fill functions ----

/// All ones in the low `n` (<= 64) bits.
inline __attribute__((always_inline)) uint64_t LowBits(int64_t n) {
  return n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
}

/// ORs the low `n` (<= 64) bits of `word` into `bitmap` from bit `at` on
/// (the bitmap has 16 bytes of slack past its bits).
inline __attribute__((always_inline)) void OrBits(uint8_t* bitmap, int64_t at, uint64_t word,
                                                  int64_t n) {
  word &= LowBits(n);
  uint8_t* p = bitmap + (at >> 3);
  const unsigned shift = static_cast<unsigned>(at & 7);
  Store64(p, Load<uint64_t>(p) | (word << shift));
  if (shift != 0) p[8] = static_cast<uint8_t>(p[8] | (word >> (64 - shift)));
}

/// The set bits of `word` (without POPCNT, which baseline x86-64 lacks).
inline __attribute__((always_inline)) int64_t PopCount(uint64_t word) {
  word = word - ((word >> 1) & 0x5555555555555555ull);
  word = (word & 0x3333333333333333ull) + ((word >> 2) & 0x3333333333333333ull);
  word = (word + (word >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return static_cast<int64_t>((word * 0x0101010101010101ull) >> 56);
}

/// Appends `count` values whose validity is `valid` to `out`'s validity bits
/// and counts; the values themselves are the caller's.
inline __attribute__((always_inline)) void AppendValidity(DecodeOutput* out, uint64_t valid,
                                                          int64_t count) {
  OrBits(out->validity, out->length, valid, count);
  out->null_count += count - PopCount(valid & LowBits(count));
  out->length += count;
}

/// 0 or all ones: whether bit i of `valid` is set.
inline __attribute__((always_inline)) uint64_t ValidMask(uint64_t valid, int64_t i) {
  return 0 - ((valid >> i) & 1);
}

}  // namespace rowbridge::decoder
