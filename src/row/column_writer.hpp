// The interface between the converter and the per-type column writers.
//
// A column writer converts one column of a chunk of rows: it fills the
// column's 8-byte slot in every row, sets the row's null bit for null values,
// and appends variable-length data at the row's cursor. Writers are resolved
// once per column when the plan is compiled (one function per type family,
// encoding and "all valid" state) and called once per column per chunk.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "rowbridge/status.hpp"

namespace rowbridge::row {

/// Maps a byte position of the current tile's output back to the batch row
/// it belongs to, for errors in values nested inside a column.
struct RowLocator {
  const int64_t* row_offsets = nullptr;  // the tile's row offsets, relative to the sink's base
  int64_t num_rows = 0;
  int64_t first_row = 0;  // batch row of the tile's first row

  /// Returns the batch row whose bytes hold `position` (relative to base).
  int64_t RowOf(int64_t position) const {
    int64_t low = 0;
    int64_t high = num_rows;
    while (high - low > 1) {
      int64_t mid = low + (high - low) / 2;
      if (row_offsets[mid] <= position) low = mid;
      else high = mid;
    }
    return first_row + low;
  }
};

/// Where the rows of the current chunk are written. Writers of the fields of
/// nested rows get the same sink, with the nested rows as its rows. Every
/// byte of a tile's rows is zero before its first writer runs (WriteTile
/// clears the tile), so a writer may leave zero bytes unwritten; the nested
/// writers rely on it for null bits, null slots and array fixed parts.
struct RowSink {
  uint8_t* base = nullptr;               // start of the chunk's row bytes
  const int64_t* row_offsets = nullptr;  // start of output row k, relative to base
  int64_t* cursors = nullptr;  // next free variable-region byte of row k, relative to the row
  /// The cursor of every row for a column that is the only one with
  /// variable-region bytes (its write_alone writers ignore `cursors`).
  int64_t fixed_cursor = 0;
  /// Set when the rows are nested rows: errors then name the batch row that
  /// holds output row k instead of row `row_begin + k`.
  const RowLocator* locator = nullptr;
};

struct NestedColumnState;

/// One column of the current batch resolved to raw pointers. Batch row r is
/// value index `offset + r` in a plain column; in a gathered column (a
/// dictionary or run-end encoded one) it is value index `gather[r]`.
struct ColumnInput {
  const uint8_t* validity = nullptr;  // nullptr when the column has no nulls
  int64_t validity_offset = 0;        // bit of batch row 0 in `validity`
  int64_t offset = 0;
  const int64_t* gather = nullptr;
  const uint8_t* values = nullptr;           // buffers[1]: values, offsets, views or a bool bitmap
  const uint8_t* data = nullptr;             // buffers[2] of binary and utf8 types
  const uint8_t* const* variadic = nullptr;  // data buffers of view types
  int64_t variadic_count = 0;
  int32_t fixed_size = 0;               // width of fixed_size_binary values
  NestedColumnState* nested = nullptr;  // a struct, list or map column's batch state
};

/// The fixed destination of one column within every row.
struct ColumnTarget {
  int32_t slot_offset = 0;       // byte offset of the column's slot in the row
  int32_t null_word_offset = 0;  // byte offset of the bitset word holding its null bit
  uint64_t null_mask = 0;        // the null bit within that word
  int32_t precision = 0;         // decimal precision to enforce
  std::string name;              // for error messages
  std::string type_name;         // for error messages
};

/// Writes rows [row_begin, row_begin + num_rows) of `input` into output rows
/// [0, num_rows) of `sink`. Implementations copy `input` and `sink` into
/// locals first: stores into rows may alias anything, and locals whose
/// address never escapes stay in registers across those stores. Returns an
/// error naming the column and the row for a value its Spark type cannot hold.
using WriteFn = Status (*)(const ColumnTarget& target, const ColumnInput& input, int64_t row_begin,
                           int64_t num_rows, const RowSink& sink);

/// Adds the variable-region bytes of batch row `row_begin + k` to `sizes[k]`
/// for k in [0, num_rows) and returns the first batch row whose length is
/// negative (corrupt offsets), or -1.
using SizeFn = int64_t (*)(const ColumnInput& input, int64_t row_begin, int64_t num_rows,
                           int64_t* sizes);

/// The writers of one column, indexed by [gathered][all_valid].
struct WriterSet {
  WriteFn write[2][2] = {};
  /// For a column that is alone in writing variable-region bytes: the cursor
  /// is RowSink::fixed_cursor and no cursor array is read or written. Null for
  /// columns that write no variable-region bytes.
  WriteFn write_alone[2][2] = {};
  SizeFn size[2][2] = {};               // null for columns whose variable bytes are constant
  int32_t constant_variable_bytes = 0;  // 16 for large decimals and calendar intervals
  /// Set when `write` copies without branching on value lengths (simd/): the
  /// same writers with a branchy copy, indexed by [all_valid], for plain
  /// columns, and a test of a batch's first values that picks them. A
  /// branch-free copy waits for each length; a branchy one runs ahead when
  /// its branches are predicted, as they are when lengths stay in one class.
  WriteFn predictable_write[2] = {};
  WriteFn predictable_write_alone[2] = {};
  bool (*lengths_predictable)(const ColumnInput& input, int64_t num_rows) = nullptr;
};

/// One column's writer and sizer for one batch.
struct ChosenWriter {
  WriteFn write = nullptr;
  SizeFn size = nullptr;  // null when the column adds no per-row bytes
};

/// Picks a column's writers for a batch from its WriterSet, by the named
/// variants: gathered (dictionary or run-end encoded input), all valid (no
/// null row), alone (the only column with variable-region bytes, when rows
/// need no cursors) and predictable lengths (for plain columns whose
/// WriterSet::lengths_predictable says so of the batch's first values). The
/// one place a batch's writer is chosen.
inline ChosenWriter ChooseWriter(const WriterSet& writers, const ColumnInput& input,
                                 int64_t num_rows, bool all_valid, bool needs_cursors) {
  const bool gathered = input.gather != nullptr;
  const bool alone = !needs_cursors && writers.write_alone[0][0] != nullptr;
  const bool predictable = !gathered && writers.lengths_predictable != nullptr &&
                           writers.lengths_predictable(input, num_rows);
  ChosenWriter chosen;
  if (predictable) {
    chosen.write = (alone ? writers.predictable_write_alone : writers.predictable_write)[all_valid];
  } else {
    chosen.write = (alone ? writers.write_alone : writers.write)[gathered][all_valid];
  }
  chosen.size = writers.size[gathered][all_valid];
  return chosen;
}

/// Formats "column 'NAME' (TYPE) row R: MESSAGE".
std::string ColumnRowError(const ColumnTarget& target, int64_t row, const std::string& message);

/// The batch row to name in an error about output row k of `sink`, which is
/// input row r.
inline int64_t ReportedRow(const RowSink& sink, int64_t k, int64_t r) {
  return sink.locator == nullptr ? r : sink.locator->RowOf(sink.row_offsets[k]);
}

/// The position of a column's null bit, copied out of its ColumnTarget so that
/// write loops keep it in registers.
struct NullBit {
  int64_t word_offset;
  uint64_t mask;
};

inline NullBit NullBitOf(const ColumnTarget& target) {
  return NullBit{target.null_word_offset, target.null_mask};
}

/// The slot of a variable-length value: (offset << 32) | size.
inline uint64_t OffsetAndSize(int64_t offset, int64_t size) {
  return (static_cast<uint64_t>(offset) << 32) | static_cast<uint64_t>(size);
}

/// Sets `bit` in `row`'s null bitset when `is_null`, without a branch.
inline void SetNullIf(uint8_t* row, NullBit bit, bool is_null) {
  uint64_t word;
  std::memcpy(&word, row + bit.word_offset, sizeof(word));
  word |= bit.mask & -static_cast<uint64_t>(is_null);
  std::memcpy(row + bit.word_offset, &word, sizeof(word));
}

/// Sets `bit` in `row`'s null bitset.
inline void SetNull(uint8_t* row, NullBit bit) {
  uint64_t word;
  std::memcpy(&word, row + bit.word_offset, sizeof(word));
  word |= bit.mask;
  std::memcpy(row + bit.word_offset, &word, sizeof(word));
}

}  // namespace rowbridge::row
