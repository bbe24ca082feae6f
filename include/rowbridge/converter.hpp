// The C++ API of the columnar -> row converter.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "rowbridge/arrow_c_data.h"
#include "rowbridge/spark_type.hpp"
#include "rowbridge/status.hpp"

namespace rowbridge {

// The options' values are those of the C API's enums (rowbridge.h), which the
// C API checks at compile time (src/capi/converter_options_c.hpp).
enum class Validation : int32_t {
  /// Lengths, buffer and child counts, null counts and row sizes: O(columns)
  /// plus what the conversion reads anyway. For data from a trusted producer.
  kCheap = 0,
  /// Also every offset, view, dictionary index and run end, before any row
  /// is written. For untrusted data. UTF-8 is never checked, as in Spark.
  kFull = 1,
};

/// Which instruction set the byte-copying and nested kernels are built for.
/// kAuto takes the best the CPU runs; a named set the CPU or the build lacks
/// is an error when the plan is compiled. The output bytes never depend on it.
enum class Kernels : int32_t {
  kAuto = 0,
  kPortable = 1,
  kAvx2 = 2,
  kAvx512 = 3,
};

/// How nested and string columns are written. kAuto takes the depth-first
/// writer (one pass per row over every such column) for the schemas it is
/// faster on, and the level-by-level writer otherwise; the other two force
/// one where it applies. The output bytes never depend on it.
enum class NestedWriter : int32_t {
  kAuto = 0,
  kDepthFirst = 1,
  kLevels = 2,
};

struct ConverterOptions {
  Validation validation = Validation::kCheap;
  /// The most row bytes one output chunk holds. A batch whose rows exceed it
  /// is returned in several chunks; a single row larger than it is an error.
  int64_t max_chunk_bytes = int64_t{64} << 20;
  /// Whether a struct in Spark's variant form (CONTRACTS.md §2) is a
  /// VariantType, as Spark 4.0+ reads it; false keeps it a struct, as Spark
  /// 3.5 reads it.
  bool variants = true;
  /// The kernels the plan is compiled with. RowPlan::Compile reads it; a
  /// converter made from a compiled plan keeps that plan's kernels.
  Kernels kernels = Kernels::kAuto;
  /// The nested writer this converter uses. These two fields are the only
  /// way to choose kernels and writer: no environment variable or
  /// process-wide setting is read.
  NestedWriter nested_writer = NestedWriter::kAuto;
};

/// What one converter has chosen and done, for tests and diagnostics.
/// Owned by the converter and updated by it with plain stores (no atomic, no
/// lock): read it from the thread that converts, or after handing the
/// converter over as for any other call. The reference is valid as long as
/// the converter.
struct ConverterStats {
  /// The writer of the registered schema's string and nested columns:
  /// kDepthFirst when the depth-first writer takes its tiles, kLevels when
  /// the level-by-level and flat writers do (also for a schema the
  /// depth-first writer does not cover). Never kAuto. A batch of another
  /// encoding (Convert's `batch_schema`) may resolve otherwise.
  NestedWriter nested_writer = NestedWriter::kLevels;
  /// Tiles of rows the depth-first writer has written since the converter
  /// was made (a tile whose bound fails a check is written by the
  /// level-by-level writer and not counted).
  int64_t depth_first_tiles = 0;
};

/// Spark stores a row's size in a Java int; this is the largest row accepted.
constexpr int64_t kMaxRowBytes = (int64_t{1} << 31) - 16;

/// A view of converted rows, owned by the converter that produced it and
/// valid until that converter's next Convert, NextChunk or destruction.
/// Row i spans [data + row_offsets[i], data + row_offsets[i + 1]) and is the
/// UnsafeRow of batch row first_row + i.
struct RowBatchView {
  const uint8_t* data = nullptr;
  const int64_t* row_offsets = nullptr;  // num_rows + 1 entries, [0] == 0
  int64_t num_rows = 0;
  int64_t first_row = 0;
  int64_t data_size = 0;
};

/// A schema compiled into a per-column write plan. Immutable once compiled,
/// so one plan may be shared by any number of converters and threads.
class ROWBRIDGE_EXPORT RowPlan {
 public:
  struct Impl;

  /// Compiles the plan for batches of `schema` (a struct: one child per
  /// column). Borrows `schema`: read during the call only, never released.
  /// Unsupported types are rejected with NotSupported naming the column.
  static Status Compile(const ArrowSchema& schema, std::shared_ptr<const RowPlan>* out);
  /// The same, with the type mapping and kernel choices of `options`
  /// (`variants`, `kernels`).
  static Status Compile(const ArrowSchema& schema, const ConverterOptions& options,
                        std::shared_ptr<const RowPlan>* out);

  ~RowPlan();
  RowPlan(const RowPlan&) = delete;
  RowPlan& operator=(const RowPlan&) = delete;

  /// The Spark schema of the rows (a struct type).
  const SparkType& spark_schema() const;
  int64_t num_columns() const;
  /// Bytes of the null bitset plus the slots: the size of every row when
  /// has_fixed_row_size(), the minimum otherwise.
  int64_t fixed_row_bytes() const;
  /// True when every row has the same size (no string or binary column).
  bool has_fixed_row_size() const;
  /// The kernels the plan was compiled with: ConverterOptions::kernels
  /// resolved (kAuto becomes the best set the CPU runs), never kAuto.
  Kernels kernels() const;

  const Impl& impl() const { return *impl_; }

 private:
  explicit RowPlan(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// Converts Arrow record batches into Spark UnsafeRows. Holds a shared plan
/// plus reused output and scratch buffers: after the first batches, converting
/// a batch of no more rows than before allocates nothing. A converter is used
/// by one thread at a time.
class ROWBRIDGE_EXPORT Converter {
 public:
  struct State;

  /// Creates a converter for batches of `schema`. Borrows `schema`.
  static Status Make(const ArrowSchema& schema, const ConverterOptions& options,
                     std::unique_ptr<Converter>* out);
  /// Creates a converter that shares an already compiled plan.
  static Status Make(std::shared_ptr<const RowPlan> plan, const ConverterOptions& options,
                     std::unique_ptr<Converter>* out);

  ~Converter();
  Converter(const Converter&) = delete;
  Converter& operator=(const Converter&) = delete;

  /// Converts the first chunk of `batch` (a struct array of the plan's
  /// columns) into `*out`. Borrows `batch` and `batch_schema`: neither is
  /// released, and both must stay alive and unchanged until the last chunk of
  /// the batch has been taken. `batch_schema` may be null: the batch is then
  /// read with the registered schema. Pass it when a column's encoding
  /// (plain, dictionary, run-end) may differ from the registered schema; the
  /// converter compiles each layout once and keeps the last few it has seen.
  /// A column whose array does not match the schema it is read with is an
  /// error, never misread.
  Status Convert(const ArrowArray& batch, const ArrowSchema* batch_schema, RowBatchView* out);
  Status Convert(const ArrowArray& batch, RowBatchView* out) {
    return Convert(batch, nullptr, out);
  }

  /// True when the current batch has rows not yet returned.
  bool HasMoreChunks() const;
  /// Converts the next chunk of the current batch; `out->num_rows` is 0 when
  /// every row has been returned.
  Status NextChunk(RowBatchView* out);

  /// A converter-owned struct array shaped like the schema, with buffer and
  /// child arrays allocated, for callers that write buffer addresses once per
  /// batch instead of exporting an ArrowArray: set length, null_count, offset
  /// and buffers of each node, then pass it to Convert. Never release it.
  ArrowArray* registered_batch();

  const RowPlan& plan() const;

  /// Bytes of memory the converter holds for rows and scratch: the
  /// capacities of its output buffer, row offsets and per-column buffers
  /// (nested columns' per-level state included), not the plan, which
  /// converters share. Grows to fit the largest batch converted so far and
  /// never shrinks; what a memory manager should charge for the converter.
  int64_t buffer_bytes() const;

  /// The converter's choices and counts (see ConverterStats); owned by the
  /// converter.
  const ConverterStats& stats() const;

 private:
  explicit Converter(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace rowbridge
