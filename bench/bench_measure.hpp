// The measurements of CONTRACTS.md §6: one case (conversion and physical floor over
// a dataset's batches) and the fixed-plus-linear fit over tiny batches.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/bench_data.hpp"
#include "bench/least_squares.hpp"
#include "rowbridge/status.hpp"

namespace rowbridge::bench {

struct CaseResult {
  std::string schema;
  int64_t batch_rows = 0;
  int64_t rows = 0;
  int64_t batches = 0;
  int repetitions = 0;
  int64_t output_bytes = 0;  // row bytes of one pass over all batches
  int64_t input_bytes = 0;   // bytes the floor copies in one pass
  double ns_per_row = 0.0;
  double floor_ns_per_row = 0.0;
  double bytes_per_row = 0.0;
  double gbps = 0.0;  // output row bytes per second of conversion / 1e9
};

/// Converts every batch of `data` in order, repeatedly, with one converter
/// (cheap validation, reused output), and runs the physical floor over the
/// same batches between passes; reports medians over the repetitions.
/// Borrows `data`.
Status MeasureCase(const Dataset& data, CaseResult* out);

/// The rows per batch of the fit's "record" runs (CONTRACTS.md §6).
inline const std::vector<int64_t>& FitBatchRows() {
  static const std::vector<int64_t> kRows = {1, 2, 4, 8, 16, 32, 64};
  return kRows;
}

struct FitResult {
  std::vector<int64_t> batch_rows;
  std::vector<double> ns_per_batch;  // median per size
  int64_t batches_per_sample = 0;
  int samples = 0;
  LineFit line;  // intercept: fixed ns per batch; slope: linear ns per row
};

/// Times "record" batches of each FitBatchRows() size generated from `seed`
/// and fits time per batch against rows per batch.
Status MeasureFit(uint64_t seed, FitResult* out);

}  // namespace rowbridge::bench
