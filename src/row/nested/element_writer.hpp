// The interface of the array element writers: they fill the elements of a
// set of UnsafeArrayData values whose headers are already written.
//
// An UnsafeArrayData of n elements of size es is
//   [n: 8 bytes][null bits: ceil(n/64) words][n * es bytes, padded to 8][variable region]
// and the array writer (nested_write.cpp) stores n and zeroes everything up to
// the variable region before an element writer runs, so an element writer
// stores the valid values (and their variable bytes) and sets the null bits.
#pragma once

#include <cstdint>
#include <cstring>

#include "arrow/arrow_type.hpp"
#include "row/column_access.hpp"
#include "row/column_writer.hpp"
#include "row/memory_access.hpp"

namespace rowbridge::row {

/// The arrays an element writer fills: array k starts at base + positions[k]
/// and holds the element values [first[k], first[k + 1]) of the input.
struct ArraySink {
  uint8_t* base = nullptr;
  const int64_t* positions = nullptr;
  const int64_t* first = nullptr;  // count + 1 entries
  int64_t count = 0;
  const RowLocator* locator = nullptr;  // names the batch row of an error
  /// Bytes of the input's validity bitmap that may be read (its array's
  /// offset + length bits, rounded up); 0 when unknown.
  int64_t validity_bytes = 0;
};

/// Writes the elements of every array of `sink`. Value c of `input` is
/// element c of the concatenated arrays. Returns an error naming the column
/// (`target.name`) and the batch row for a value its Spark type cannot hold.
using ElementWriteFn = Status (*)(const ColumnTarget& target, const ColumnInput& input,
                                  const ArraySink& sink);

/// The element writers of one array element type, indexed by
/// [gathered][all_valid]. `size` adds each element's variable-region bytes
/// (SizeFn's contract, with elements for rows); null when there are none.
struct ElementWriterSet {
  ElementWriteFn write[2][2] = {};
  SizeFn size[2][2] = {};
};

/// Bytes of an array's numElements word and null bits.
inline int64_t ArrayHeaderBytes(int64_t num_elements) { return 8 + BitsetBytes(num_elements); }

/// Bytes of an array's header and fixed-size element part (padded to 8).
inline int64_t ArrayFixedBytes(int64_t num_elements, int64_t element_size) {
  return ArrayHeaderBytes(num_elements) + RoundUp8(num_elements * element_size);
}

/// Stores the low kSize bytes of `value` (little-endian) at `p`.
template <int kSize>
inline void StoreLow(uint8_t* p, uint64_t value) {
  if constexpr (kSize == 1) {
    *p = static_cast<uint8_t>(value);
  } else if constexpr (kSize == 2) {
    uint16_t v = static_cast<uint16_t>(value);
    std::memcpy(p, &v, 2);
  } else if constexpr (kSize == 4) {
    uint32_t v = static_cast<uint32_t>(value);
    std::memcpy(p, &v, 4);
  } else {
    Store64(p, value);
  }
}

/// Returns `count` (at most 64) bits of `bitmap` from bit `bit` on, as the
/// low bits of a word: with two wide loads when the `readable` bytes of the
/// bitmap allow, else byte by byte.
inline uint64_t ReadBits(const uint8_t* bitmap, int64_t bit, int64_t count, int64_t readable) {
  uint64_t mask = count < 64 ? (uint64_t{1} << count) - 1 : ~uint64_t{0};
  int64_t byte = bit >> 3;
  if (byte + 16 <= readable) {
    __extension__ unsigned __int128 wide;
    std::memcpy(&wide, bitmap + byte, 16);
    return static_cast<uint64_t>(wide >> (bit & 7)) & mask;
  }
  uint64_t word = 0;
  for (int64_t i = 0; i < count; ++i) word |= static_cast<uint64_t>(GetBit(bitmap, bit + i)) << i;
  return word;
}

/// The walk every writer of variable-region elements shares: for each valid
/// element c (of `input`) of every array of `sink`, `write_value(c, dst)`
/// writes the value at `dst`, its place in the array's variable region, and
/// returns its size; the element's slot becomes (offset << 32) | size and
/// the next value goes round8(size) bytes further. Null elements get their
/// null bit and take no bytes.
template <bool kAllValid, typename WriteValue>
inline void ForEachVariableElement(const ColumnInput& input, const ArraySink& sink_ref,
                                   WriteValue&& write_value) {
  const ArraySink sink = sink_ref;  // a local: stores into arrays may alias anything
  for (int64_t k = 0; k < sink.count; ++k) {
    const int64_t begin = sink.first[k];
    const int64_t n = sink.first[k + 1] - begin;
    uint8_t* array = sink.base + sink.positions[k];
    uint8_t* slots = array + ArrayHeaderBytes(n);
    int64_t cursor = ArrayFixedBytes(n, 8);
    for (int64_t e = 0; e < n; ++e) {
      const int64_t c = begin + e;
      if (!IsValid<kAllValid>(input, c)) {
        SetBit(array + 8, e);
        continue;
      }
      const int64_t size = write_value(c, array + cursor);
      Store64(slots + 8 * e, OffsetAndSize(cursor, size));
      cursor += RoundUp8(size);
    }
  }
}

/// Returns the batch row of array k of `sink`, for errors.
inline int64_t ArrayRow(const ArraySink& sink, int64_t k) {
  return sink.locator == nullptr ? k : sink.locator->RowOf(sink.positions[k]);
}

/// Builds an ElementWriterSet from a kernel with static member templates
/// `Write<kGathered, kAllValid>` and, when kHasSize, `Size<kGathered, kAllValid>`.
template <typename Kernel, bool kHasSize>
ElementWriterSet MakeElementWriterSet() {
  ElementWriterSet set;
  set.write[0][0] = &Kernel::template Write<false, false>;
  set.write[0][1] = &Kernel::template Write<false, true>;
  set.write[1][0] = &Kernel::template Write<true, false>;
  set.write[1][1] = &Kernel::template Write<true, true>;
  if constexpr (kHasSize) {
    set.size[0][0] = &Kernel::template Size<false, false>;
    set.size[0][1] = &Kernel::template Size<false, true>;
    set.size[1][0] = &Kernel::template Size<true, false>;
    set.size[1][1] = &Kernel::template Size<true, true>;
  }
  return set;
}

/// bool, integers, floats, dates, timestamps, durations, year-month intervals
/// and decimals of precision <= 18, stored in `element_size` bytes.
Status FixedWidthElementWriters(const ArrowType& type, int32_t element_size, ElementWriterSet* out);

/// Strings and binaries (every layout), large decimals (round8(len) bytes,
/// none for a null element), calendar intervals (16 bytes) and nulls.
Status VariableElementWriters(const ArrowType& type, ElementWriterSet* out);

}  // namespace rowbridge::row
