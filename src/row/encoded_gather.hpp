// Gathering the values of dictionary and run-end encoded arrays: each
// position asked for becomes a value index into the dictionary or the run
// values, plus a validity bit. That is the shape every writer reads in its
// gathered mode. Top-level columns ask for a contiguous range of rows;
// nested nodes ask for the candidates their parents reach.
#pragma once

#include <cstdint>
#include <type_traits>

#include "arrow/bits.hpp"
#include "row/column_access.hpp"

namespace rowbridge::row {

/// Position c is element `start + c` of the encoded array.
struct ContiguousPositions {
  int64_t start = 0;
  int64_t operator[](int64_t c) const { return start + c; }
};

/// Position c is element `start + indices[c]` of the encoded array.
struct ListedPositions {
  int64_t start = 0;
  const int64_t* indices = nullptr;
  int64_t operator[](int64_t c) const { return start + indices[c]; }
};

/// Collects validity bits in a register and stores them a word at a time
/// (a byte read-modify-write per value would chain every value through
/// memory). The bitmap must hold whole 8-byte words.
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

/// Bytes of a validity bitmap of `count` bits that BitWriter may store.
constexpr int64_t GatherValidityBytes(int64_t count) { return (count + 63) / 64 * 8; }

/// Where a gather writes: one value index per position, and a bitmap of
/// GatherValidityBytes(count) bytes.
struct GatherOutput {
  int64_t* gather = nullptr;
  uint8_t* validity = nullptr;
};

/// The dictionary an encoded array's indices point into.
struct DictionaryValues {
  int64_t offset = 0;
  int64_t length = 0;
  const uint8_t* validity = nullptr;  // null when no value is null
};

/// Gathers `count` positions of dictionary indices of `IndexType` (`indices`,
/// with `index_validity` null when no index is null). A null index, or a
/// valid one whose value is null, is a null position. Returns the first
/// position whose valid index is outside the dictionary, or -1; sets
/// `*any_null`.
template <typename IndexType, typename Positions>
int64_t GatherDictionary(const uint8_t* indices, const uint8_t* index_validity, Positions positions,
                         int64_t count, const DictionaryValues& dictionary, GatherOutput out,
                         bool* any_null) {
  // Locals: the stores below may alias anything in memory.
  const auto dictionary_length = static_cast<uint64_t>(dictionary.length);
  const int64_t dictionary_offset = dictionary.offset;
  const uint8_t* value_validity = dictionary.validity;
  int64_t* gather = out.gather;
  BitWriter validity(out.validity);
  bool out_of_range = false;
  bool nulls = false;
  // No branch on validity: nulls are as random as the data and mispredict.
  for (int64_t c = 0; c < count; ++c) {
    const int64_t q = positions[c];
    bool valid = index_validity == nullptr || GetBit(index_validity, q);
    const int64_t index = LoadElement<IndexType>(indices, q);
    const bool in_range = static_cast<uint64_t>(index) < dictionary_length;
    out_of_range |= valid & !in_range;
    valid &= in_range;
    const int64_t physical = dictionary_offset + (index & -static_cast<int64_t>(valid));
    gather[c] = physical;
    if (value_validity != nullptr) valid &= GetBit(value_validity, physical);
    nulls |= !valid;
    validity.Put(c, valid);
  }
  validity.Finish(count);
  *any_null = nulls;
  if (!out_of_range) return -1;
  for (int64_t c = 0; c < count; ++c) {
    const int64_t q = positions[c];
    if (index_validity != nullptr && !GetBit(index_validity, q)) continue;
    if (static_cast<uint64_t>(LoadElement<IndexType>(indices, q)) >= dictionary_length) return c;
  }
  return -1;
}

/// The run values of a run-end encoded array.
struct RunValues {
  const uint8_t* ends = nullptr;  // the run ends of `RunEndType`, from the array's first run
  int64_t runs = 0;
  int64_t offset = 0;                 // of the values array
  const uint8_t* validity = nullptr;  // of the values; null when no value is null
};

/// Gathers `count` positions of a run-end encoded array: each becomes the
/// index of the run value covering it. Contiguous positions step from run
/// to run after one binary search; listed ones keep the run while it covers
/// them and search otherwise. Returns
/// the first position past the last run end, or -1; sets `*any_null`.
template <typename RunEndType, typename Positions>
int64_t GatherRuns(const RunValues& values, Positions positions, int64_t count, GatherOutput out,
                   bool* any_null) {
  const uint8_t* ends = values.ends;
  const int64_t runs = values.runs;
  const uint8_t* value_validity = values.validity;
  auto end_at = [ends](int64_t run) { return LoadElement<RunEndType>(ends, run); };
  int64_t* gather = out.gather;
  BitWriter validity(out.validity);
  bool nulls = false;
  auto first_run_past = [&](int64_t q) {  // binary search: the first run ending after q
    int64_t low = 0;
    int64_t high = runs;
    while (low < high) {
      const int64_t mid = low + (high - low) / 2;
      if (end_at(mid) <= q) low = mid + 1;
      else high = mid;
    }
    return low;
  };
  int64_t run = 0;
  if constexpr (std::is_same_v<Positions, ContiguousPositions>) {
    if (count > 0) run = first_run_past(positions[0]);
  }
  for (int64_t c = 0; c < count; ++c) {
    const int64_t q = positions[c];
    if constexpr (std::is_same_v<Positions, ContiguousPositions>) {
      while (run < runs && end_at(run) <= q) ++run;
    } else if (!(run < runs && end_at(run) > q && (run == 0 || end_at(run - 1) <= q))) {
      run = first_run_past(q);
    }
    if (run >= runs) {
      validity.Finish(c);
      *any_null = nulls;
      return c;
    }
    const int64_t physical = values.offset + run;
    gather[c] = physical;
    const bool valid = value_validity == nullptr || GetBit(value_validity, physical);
    nulls |= !valid;
    validity.Put(c, valid);
  }
  validity.Finish(count);
  *any_null = nulls;
  return -1;
}

}  // namespace rowbridge::row
