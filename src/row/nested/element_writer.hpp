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
#include "spark/memory_access.hpp"

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
inline int64_t ArrayHeaderBytes(int64_t num_elements) {
  return 8 + spark::BitsetBytes(num_elements);
}

/// Bytes of an array's header and fixed-size element part (padded to 8).
inline int64_t ArrayFixedBytes(int64_t num_elements, int64_t element_size) {
  return ArrayHeaderBytes(num_elements) + spark::RoundUp8(num_elements * element_size);
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

/// `a` where `mask` is all ones, `b` where it is 0: a select the compiler
/// keeps free of branches.
inline int64_t Select(int64_t mask, int64_t a, int64_t b) { return (a & mask) | (b & ~mask); }

/// How many elements ForEachElementChunk hands out at a time.
inline constexpr int64_t kElementChunk = 256;

/// Where the arrays that start in a chunk of elements are: for the element
/// at index i of the chunk that is the first of its array, `cursor[i]` is
/// the array's first variable-region offset (its fixed bytes, never 0),
/// `slots[i]` the offset of its first slot and `array[i]` its position; the
/// cursor of every other element is 0.
struct ArrayStarts {
  int64_t cursor[kElementChunk];
  int64_t slots[kElementChunk];
  int64_t array[kElementChunk];
};

/// Walks the elements of every array of `sink` as one flat sequence, a chunk
/// at a time, so no loop runs per array (its exit would be mispredicted for
/// short arrays of varying lengths): `visit(c, end, starts)` gets elements
/// [c, end) and where the arrays starting among them are (ArrayStarts, for
/// `element_size`-byte slots). Always inlined, as is ForEachVariableElement:
/// called, they would reload the input's fields after every store.
template <typename Visit>
[[gnu::always_inline]] inline void ForEachElementChunk(const ArraySink& sink, int64_t element_size,
                                                       ArrayStarts* starts, Visit&& visit) {
  const int64_t* first = sink.first;
  const int64_t end = first[sink.count];
  int64_t k = 0;  // the first array that starts at or after the chunk
  for (int64_t c = first[0]; c < end; c += kElementChunk) {
    const int64_t chunk_end = c + kElementChunk < end ? c + kElementChunk : end;
    std::memset(starts->cursor, 0, sizeof(starts->cursor));
    for (; k < sink.count && first[k] < chunk_end; ++k) {
      // An empty array's entry is overwritten by the next array's.
      const auto n = static_cast<uint64_t>(first[k + 1] - first[k]);
      const int64_t header = static_cast<int64_t>(8 + ((n + 63) >> 6) * 8);
      const int64_t i = first[k] - c;
      starts->cursor[i] = header + spark::RoundUp8(static_cast<int64_t>(n) * element_size);
      starts->slots[i] = sink.positions[k] + header;
      starts->array[i] = sink.positions[k];
    }
    visit(c, chunk_end, *starts);
  }
}

/// The walk every writer of variable-region elements shares: for each valid
/// element c (of `input`) of every array of `sink`, `write_value(c, dst)`
/// writes the value at `dst`, its place in the array's variable region, and
/// returns its size; the element's slot becomes (offset << 32) | size and
/// the next value goes round8(size) bytes further. Null elements get their
/// null bit and take no bytes.
template <bool kAllValid, typename WriteValue>
[[gnu::always_inline]] inline void ForEachVariableElement(const ColumnInput& input,
                                                          const ArraySink& sink_ref,
                                                          WriteValue&& write_value) {
  const ArraySink sink = sink_ref;  // a local: stores into arrays may alias anything
  uint8_t* const base = sink.base;
  ArrayStarts starts;
  // Carried from element to element (and chunk to chunk), replaced without a
  // branch where an array starts.
  int64_t cursor = 0;
  int64_t slot = 0;
  int64_t array = 0;
  int64_t e = 0;
  ForEachElementChunk(sink, 8, &starts,
                      [&](int64_t chunk_begin, int64_t chunk_end, const ArrayStarts& at) {
                        for (int64_t c = chunk_begin; c < chunk_end; ++c) {
                          const int64_t i = c - chunk_begin;
                          const int64_t start_cursor = at.cursor[i];
                          const int64_t restart = -static_cast<int64_t>(start_cursor != 0);
                          cursor = Select(restart, start_cursor, cursor);
                          slot = Select(restart, at.slots[i], slot);
                          array = Select(restart, at.array[i], array);
                          if constexpr (!kAllValid) {
                            e &= ~restart;
                            if (!IsValid<kAllValid>(input, c)) {
                              SetBit(base + array + 8, e);
                              slot += 8;
                              ++e;
                              continue;
                            }
                            ++e;
                          }
                          const int64_t size = write_value(c, base + array + cursor);
                          Store64(base + slot, OffsetAndSize(cursor, size));
                          slot += 8;
                          cursor += spark::RoundUp8(size);
                        }
                      });
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

enum class KernelIsa : uint8_t;  // row/kernel_isa.hpp

/// bool, integers, floats, dates, timestamps, durations, year-month intervals
/// and decimals of precision <= 18, stored in `element_size` bytes; the bulk
/// writers of plain elements those of `isa`.
Status FixedWidthElementWriters(const ArrowType& type, int32_t element_size, KernelIsa isa,
                                ElementWriterSet* out);

/// Strings and binaries (every layout, with the string kernels of `isa`),
/// large decimals (round8(len) bytes, none for a null element), calendar
/// intervals (16 bytes) and nulls.
Status VariableElementWriters(const ArrowType& type, KernelIsa isa, ElementWriterSet* out);

}  // namespace rowbridge::row
