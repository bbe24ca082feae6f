// The benchmark datasets: CONTRACTS.md §6's schemas and the kernel benchmarks' ones,
// generated from a fixed seed into Arrow arrays this file's builders own.
//
// Every value is a function of (seed, column, row) only, so a dataset cut
// into batches of 32 rows holds the same values as one cut into 8192.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bench/packed_batches.hpp"
#include "support/owned_arrow/array_node.hpp"

namespace rowbridge::bench {

/// The seed of every dataset `rowbridge bench` generates (printed with the
/// results).
constexpr uint64_t kDefaultSeed = 0xC2A05EED;

/// CONTRACTS.md §6 row counts. "record" is fixed by the contracts; "wide_strings" is
/// sized so that a run stays short (32 batches of 8192 rows).
constexpr int64_t kRecordRows = int64_t{1} << 20;
constexpr int64_t kWideStringsRows = int64_t{1} << 18;
constexpr int64_t kNestedRows = int64_t{1} << 17;

enum class ColumnKind {
  kInt64,
  kInt32,
  kFloat64,
  kRowString,         // utf8 "value_" + row index (the "record" schema's d)
  kRandomString,      // utf8 of 5-60 printable ASCII bytes, length uniform
  kSmallDecimal,      // decimal128(18, 2): the unscaled long in the slot
  kLargeDecimal,      // decimal128(38, 10): 16 variable-region bytes per row
  kDictionaryString,  // dictionary<int32, utf8> over 1024 random strings
  kRunEndInt64,       // run_end_encoded<int32, int64>, runs of 1-16 rows
  // CONTRACTS.md §6 "nested" (see nested_bench_data.hpp): 0-8 entries, strings of
  // 5-30 bytes, nulls at every level.
  kStructInt64Utf8,         // struct<a int64, b utf8>
  kListInt32,               // list<int32>
  kMapUtf8Int64,            // map<utf8, int64>
  kListStructFloat64Utf8,   // list<struct<x float64, y utf8>>
  kMapUtf8TimestampMillis,  // map<utf8, timestamp[ms]> (not in CONTRACTS.md §6)
  kListBool,                // list<bool> (not in CONTRACTS.md §6)
  kListLargeDecimal,        // list<decimal(38, 4)> (not in CONTRACTS.md §6)
};

struct ColumnSpec {
  std::string name;
  ColumnKind kind = ColumnKind::kInt64;
  double null_probability = 0.0;  // each value independently
};

struct DatasetSpec {
  std::string name;
  std::vector<ColumnSpec> columns;
};

/// CONTRACTS.md §6 "record": a int64, b int32, c float64, d utf8 = "value_" + i, no nulls.
DatasetSpec RecordSpec();
/// CONTRACTS.md §6 "wide_strings": 8 int64, 8 utf8 (5-60 bytes), 4 float64, 10 % nulls.
DatasetSpec WideStringsSpec();
/// CONTRACTS.md §6 "nested": struct<a int64, b utf8>, array<int32>, map<utf8, int64>,
/// array<struct<x float64, y utf8>>; 10 % nulls at every level.
DatasetSpec NestedSpec();

/// `num_columns` int64 columns without nulls.
DatasetSpec FixedWidthSpec(int num_columns);
/// 4 utf8 columns of 5-60 bytes, no nulls.
DatasetSpec StringsSpec();
/// 4 decimal columns, precision 18 (`large` false) or 38, 10 % nulls.
DatasetSpec DecimalSpec(bool large);
/// 4 dictionary-encoded utf8 columns, 10 % nulls.
DatasetSpec DictionaryStringsSpec();
/// 4 run-end encoded int64 columns, 10 % nulls.
DatasetSpec RunEndSpec();

struct Dataset {
  std::string name;
  uint64_t seed = 0;
  int64_t num_rows = 0;
  int64_t batch_rows = 0;
  /// The batches' schema, released with the dataset.
  owned_arrow::OwnedSchema schema;
  /// The batches, in order, packed one after another in memory.
  std::unique_ptr<PackedBatches> packed;
  std::vector<const ArrowArray*> batches;  // owned by `packed`
};

/// Generates rows [0, num_rows) of `spec` from `seed`, cut into batches of
/// `batch_rows` rows (the last one may be shorter), packed in order into one
/// block of memory (see PackedBatches).
std::unique_ptr<Dataset> MakeDataset(const DatasetSpec& spec, int64_t num_rows, int64_t batch_rows,
                                     uint64_t seed);

}  // namespace rowbridge::bench
