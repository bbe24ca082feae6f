// The C++ API of the row -> columnar direction: Spark UnsafeRows (the bytes
// of CONTRACTS.md §3, as Converter writes them and Spark's UnsafeProjection
// does) decoded into Arrow arrays.
#pragma once

#include <cstdint>
#include <memory>

#include "rowbridge/arrow_c_data.h"
#include "rowbridge/converter.hpp"
#include "rowbridge/spark_type.hpp"
#include "rowbridge/status.hpp"

namespace rowbridge {

/// Decodes batches of UnsafeRows of one schema into Arrow struct arrays.
///
/// The schema names the Arrow type each field decodes to, which must be the
/// one its Spark type maps from without a conversion (README, "Row ->
/// columnar"): null, bool, int8/16/32/64, float32/64, decimal128 (p <= 38),
/// utf8, large_utf8, binary, large_binary, date32, timestamp[us] (with a
/// time zone: TimestampType; without: TimestampNTZType), interval[months],
/// duration[us], interval[month_day_nano], struct, list, large_list and
/// map. Every row is checked before any value is copied: an offset or size
/// that leaves its row, array or map, an array header that does not fit,
/// a decimal beyond its precision, a null map key or a calendar interval
/// whose microseconds overflow nanoseconds is an error naming the field and
/// the row, and nothing is read outside the rows given.
///
/// A decoder holds only its compiled plan and reused scratch; each batch's
/// arrays own freshly allocated buffers. Used by one thread at a time.
/// The Arrow buffers of one node of a decoder's output schema, lent by the
/// caller to RowDecoder::DecodeInto. Nodes are the schema's fields in
/// preorder (a struct's fields, a list's element, a map's key then value;
/// a map's entries struct is not a node of its own). Sixteen 64-bit slots,
/// so that a JVM can fill a table of them in native memory.
struct DecodeTarget {
  // Set by the caller: each buffer's address and capacity in bytes (0 and 0
  // where the node has no such buffer). Borrowed for the call.
  int64_t validity_address = 0;
  int64_t validity_capacity = 0;
  int64_t values_address = 0;  // fixed-width values, boolean bits or offsets
  int64_t values_capacity = 0;
  int64_t data_address = 0;  // string bytes
  int64_t data_capacity = 0;
  int64_t entries_validity_address = 0;  // a map's entries struct: set to all valid
  int64_t entries_validity_capacity = 0;
  // Set by DecodeInto.
  int64_t length = 0;      // values written (the rows, or a child's elements)
  int64_t null_count = 0;  // of those values
  int64_t data_size = 0;   // string bytes written
  // The capacity each buffer needs for this batch, slack included.
  int64_t validity_needed = 0;
  int64_t values_needed = 0;
  int64_t data_needed = 0;
  int64_t entries_validity_needed = 0;
  int64_t reserved = 0;
};
static_assert(sizeof(DecodeTarget) == 128, "DecodeTarget is 16 slots of 8 bytes");

class ROWBRIDGE_EXPORT RowDecoder {
 public:
  struct Impl;

  /// Compiles a decoder for rows of `schema` (a struct: one child per field
  /// of the rows). Borrows `schema`: read during the call only, never
  /// released nor kept. A type rows cannot decode to is NotSupported naming
  /// the field and the type.
  static Status Make(const ArrowSchema& schema, std::unique_ptr<RowDecoder>* out);

  /// Compiles a decoder for rows of the Spark struct type `schema`, each
  /// field decoding to the Arrow type that holds its row value as it is
  /// (timestamps as timestamp[us, tz=UTC], strings as utf8, arrays as list:
  /// the table in README, "Row -> columnar"). Borrows `schema`.
  static Status Make(const SparkType& schema, std::unique_ptr<RowDecoder>* out);

  /// As Make above, with the fill kernels of the instruction set `kernels`
  /// (as ConverterOptions::kernels: kAuto takes the best the CPU runs; a
  /// named set the CPU or the build lacks is Invalid). The decoded bytes
  /// never depend on it.
  static Status Make(const ArrowSchema& schema, Kernels kernels, std::unique_ptr<RowDecoder>* out);
  static Status Make(const SparkType& schema, Kernels kernels, std::unique_ptr<RowDecoder>* out);

  ~RowDecoder();
  RowDecoder(const RowDecoder&) = delete;
  RowDecoder& operator=(const RowDecoder&) = delete;

  /// The Spark schema of the rows (a struct type).
  const SparkType& spark_schema() const;

  /// Exports the schema of the arrays Decode returns (a struct) into `out`,
  /// which must be uninitialized or released; the caller owns it and
  /// releases it with `out->release(out)`.
  Status ExportSchema(ArrowSchema* out) const;

  /// Decodes `num_rows` rows, row i spanning [data + row_offsets[i], data +
  /// row_offsets[i + 1]) (as RowBatchView lays them out), into `out`: a
  /// struct array of `num_rows` values, no nulls, one child per field.
  /// Borrows the rows for the call; the caller owns `out` (which must be
  /// uninitialized or released) and releases it with `out->release(out)`;
  /// its buffers belong to it alone. On error `out` is untouched and
  /// nothing is kept.
  Status Decode(const uint8_t* data, const int64_t* row_offsets, int64_t num_rows, ArrowArray* out);

  /// The number of DecodeTarget nodes of the output schema.
  int64_t num_targets() const;

  /// Decodes like Decode, into buffers the caller owns: `targets` holds
  /// num_targets() nodes. Every row is checked first and every target's
  /// `*_needed` set; when any buffer is smaller than it needs, *decoded is
  /// false and nothing else is written (grow the buffers and call again).
  /// Otherwise the buffers hold the batch from their first byte (validity
  /// bitmaps are rewritten, so they need not be zeroed), each target's
  /// length, null_count and data_size are set, and *decoded is true.
  /// Borrows everything for the call; keeps nothing. On error the targets'
  /// buffers may have been written.
  Status DecodeInto(const uint8_t* data, const int64_t* row_offsets, int64_t num_rows,
                    DecodeTarget* targets, int64_t num_targets, bool* decoded);

 private:
  explicit RowDecoder(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace rowbridge
