// Benchmarks of the row -> columnar decoder: the rows of the CONTRACTS.md §6
// datasets (as the converter writes them) decoded into Arrow arrays, beside
// the floor of the same rows: one memcpy of each batch's row bytes into a
// reused buffer. The ratio of the two ns_per_row, run in one process, is
// the figure (docs/BENCHMARKS.md, "Row -> columnar").
#include <benchmark/benchmark.h>

#include <cstring>
#include <memory>
#include <vector>

#include "bench/bench_data.hpp"
#include "bench/benchmark_options.hpp"
#include "rowbridge/converter.hpp"
#include "rowbridge/row_decoder.hpp"

namespace rowbridge {
namespace {

constexpr int64_t kRows = int64_t{1} << 16;

/// One batch's rows, laid out as RowBatchView lays them out.
struct RowBatch {
  std::vector<uint8_t> data;
  std::vector<int64_t> offsets;
};

struct RowDataset {
  std::vector<RowBatch> batches;
  SparkType schema;
  int64_t bytes = 0;
};

std::unique_ptr<RowDataset> MakeRows(bench::DatasetSpec (*make_spec)(), int64_t batch_rows,
                                     std::string* error) {
  std::unique_ptr<bench::Dataset> data =
      bench::MakeDataset(make_spec(), kRows, batch_rows, bench::kDefaultSeed);
  std::unique_ptr<Converter> converter;
  Status status = Converter::Make(data->schema.schema, ConverterOptions{}, &converter);
  auto rows = std::make_unique<RowDataset>();
  for (const ArrowArray* batch : data->batches) {
    RowBatchView view;
    if (status.ok()) status = converter->Convert(*batch, &view);
    if (!status.ok() || converter->HasMoreChunks()) break;
    RowBatch copy;
    copy.data.assign(view.data, view.data + view.data_size);
    copy.offsets.assign(view.row_offsets, view.row_offsets + view.num_rows + 1);
    rows->bytes += view.data_size;
    rows->batches.push_back(std::move(copy));
  }
  if (!status.ok()) {
    *error = status.message();
    return nullptr;
  }
  rows->schema = converter->plan().spark_schema();
  return rows;
}

void Report(benchmark::State& state, const RowDataset& rows) {
  state.SetItemsProcessed(state.iterations() * kRows);
  state.SetBytesProcessed(state.iterations() * rows.bytes);
  state.counters["row_bytes_per_row"] =
      static_cast<double>(rows.bytes) / static_cast<double>(kRows);
  state.counters["ns_per_row"] =
      benchmark::Counter(static_cast<double>(kRows), benchmark::Counter::kIsIterationInvariantRate |
                                                         benchmark::Counter::kInvert);
}

void BM_Decode(benchmark::State& state, bench::DatasetSpec (*make_spec)()) {
  std::string error;
  std::unique_ptr<RowDataset> rows = MakeRows(make_spec, state.range(0), &error);
  std::unique_ptr<RowDecoder> decoder;
  Status status = rows != nullptr
                      ? RowDecoder::Make(rows->schema, ConvertOptions().kernels, &decoder)
                      : Status::Invalid(error);
  if (!status.ok()) {
    state.SkipWithError(status.message().c_str());
    return;
  }
  for (auto _ : state) {
    for (const RowBatch& batch : rows->batches) {
      ArrowArray out;
      status = decoder->Decode(batch.data.data(), batch.offsets.data(),
                               static_cast<int64_t>(batch.offsets.size()) - 1, &out);
      if (!status.ok()) break;
      benchmark::DoNotOptimize(out.children);
      out.release(&out);
    }
    if (!status.ok()) {
      state.SkipWithError(status.message().c_str());
      break;
    }
  }
  Report(state, *rows);
}

/// The floor: each batch's row bytes copied into a reused buffer.
void BM_DecodeFloor(benchmark::State& state, bench::DatasetSpec (*make_spec)()) {
  std::string error;
  std::unique_ptr<RowDataset> rows = MakeRows(make_spec, state.range(0), &error);
  if (rows == nullptr) {
    state.SkipWithError(error.c_str());
    return;
  }
  size_t largest = 0;
  for (const RowBatch& batch : rows->batches) largest = std::max(largest, batch.data.size());
  std::vector<uint8_t> out(largest);
  for (auto _ : state) {
    for (const RowBatch& batch : rows->batches) {
      std::memcpy(out.data(), batch.data.data(), batch.data.size());
      benchmark::DoNotOptimize(out.data());
    }
    benchmark::ClobberMemory();
  }
  Report(state, *rows);
}

#define ROWBRIDGE_DECODE_BENCHMARK(label, make_spec)                                         \
  BENCHMARK_CAPTURE(BM_Decode, label, make_spec)->ArgName("batch_rows")->Arg(8192)->Arg(32); \
  BENCHMARK_CAPTURE(BM_DecodeFloor, label, make_spec)->ArgName("batch_rows")->Arg(8192)->Arg(32)

ROWBRIDGE_DECODE_BENCHMARK(record, &bench::RecordSpec);
// The per-batch fixed cost: record at 1 to 8192 rows per batch, fitted as
// time = a + b * rows (docs/BENCHMARKS.md, "Row -> columnar").
BENCHMARK_CAPTURE(BM_Decode, record_fit, &bench::RecordSpec)
    ->ArgName("batch_rows")
    ->Arg(1)
    ->Arg(32)
    ->Arg(512)
    ->Arg(8192);
ROWBRIDGE_DECODE_BENCHMARK(fixed_width_10, [] { return bench::FixedWidthSpec(10); });
ROWBRIDGE_DECODE_BENCHMARK(wide_strings, &bench::WideStringsSpec);
ROWBRIDGE_DECODE_BENCHMARK(nested, &bench::NestedSpec);

}  // namespace
}  // namespace rowbridge
