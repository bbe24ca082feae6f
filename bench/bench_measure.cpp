#include "bench/bench_measure.hpp"

#include <algorithm>
#include <memory>
#include <utility>

#include "bench/bench_timing.hpp"
#include "bench/floor_copy.hpp"
#include "rowbridge/converter.hpp"

namespace rowbridge::bench {
namespace {

// Each case gets about this much time for its timed passes, within the
// repetition bounds; small, fast cases get more repetitions.
constexpr double kCaseBudgetNs = 2.0e9;
constexpr int kMinRepetitions = 5;
constexpr int kMaxRepetitions = 41;

// The fit converts a pool of distinct batches that stays in cache, once per
// sample: samples of 20-200 us are rarely preempted, so their median holds
// on a busy machine. 201 samples convert 51 456 batches of each size.
constexpr int64_t kFitPoolBatches = 256;
constexpr int kFitSamples = 201;

/// Converts every batch of `data` in order, draining every chunk. When
/// `batch_bytes` is given, stores each batch's row bytes there.
Status ConvertPass(Converter& converter, const Dataset& data, std::vector<int64_t>* batch_bytes) {
  RowBatchView view;
  for (size_t i = 0; i < data.batches.size(); ++i) {
    ROWBRIDGE_RETURN_NOT_OK(converter.Convert(*data.batches[i], &view));
    int64_t bytes = view.data_size;
    KeepAlive(view.data);
    while (converter.HasMoreChunks()) {
      ROWBRIDGE_RETURN_NOT_OK(converter.NextChunk(&view));
      bytes += view.data_size;
      KeepAlive(view.data);
    }
    if (batch_bytes != nullptr) (*batch_bytes)[i] = bytes;
  }
  return Status::Ok();
}

Status TimedConvertPass(Converter& converter, const Dataset& data, double* ns) {
  Clock::time_point start = Clock::now();
  Status status = ConvertPass(converter, data, nullptr);
  *ns = NanosecondsBetween(start, Clock::now());
  return status;
}

double TimedFloorPass(const std::vector<FloorBatch>& floors, uint8_t* buffer) {
  Clock::time_point start = Clock::now();
  for (const FloorBatch& floor : floors) {
    RunFloor(floor, buffer);
    KeepAlive(buffer);
  }
  return NanosecondsBetween(start, Clock::now());
}

Status MakeConverter(const Dataset& data, std::unique_ptr<Converter>* out) {
  ConverterOptions options;
  options.validation = Validation::kCheap;
  return Converter::Make(data.schema.schema, options, out);
}

}  // namespace

Status MeasureCase(const Dataset& data, CaseResult* out) {
  std::unique_ptr<Converter> converter;
  ROWBRIDGE_RETURN_NOT_OK(MakeConverter(data, &converter));
  // Warm-up: sizes the converter's buffers and records each batch's output.
  std::vector<int64_t> batch_bytes(data.batches.size());
  ROWBRIDGE_RETURN_NOT_OK(ConvertPass(*converter, data, &batch_bytes));

  std::vector<FloorBatch> floors(data.batches.size());
  int64_t floor_buffer_bytes = 8;
  for (size_t i = 0; i < floors.size(); ++i) {
    ROWBRIDGE_RETURN_NOT_OK(CollectInputRanges(*data.batches[i], data.schema.schema, &floors[i]));
    floors[i].output_bytes = batch_bytes[i];
    floor_buffer_bytes = std::max(floor_buffer_bytes, floors[i].buffer_bytes());
  }
  // Words, so the floor's destination is aligned like the converter's.
  std::vector<uint64_t> floor_buffer(static_cast<size_t>((floor_buffer_bytes + 7) / 8));
  auto* floor_out = reinterpret_cast<uint8_t*>(floor_buffer.data());
  TimedFloorPass(floors, floor_out);

  double estimate_ns = 0.0;
  ROWBRIDGE_RETURN_NOT_OK(TimedConvertPass(*converter, data, &estimate_ns));
  double floor_estimate_ns = TimedFloorPass(floors, floor_out);
  int repetitions =
      static_cast<int>(std::clamp(kCaseBudgetNs / std::max(1.0, estimate_ns + floor_estimate_ns),
                                  double{kMinRepetitions}, double{kMaxRepetitions}));
  repetitions |= 1;  // an odd count has a true median

  std::vector<double> convert_ns(static_cast<size_t>(repetitions));
  std::vector<double> floor_ns(static_cast<size_t>(repetitions));
  for (int r = 0; r < repetitions; ++r) {
    ROWBRIDGE_RETURN_NOT_OK(
        TimedConvertPass(*converter, data, &convert_ns[static_cast<size_t>(r)]));
    floor_ns[static_cast<size_t>(r)] = TimedFloorPass(floors, floor_out);
  }

  CaseResult result;
  result.schema = data.name;
  result.batch_rows = data.batch_rows;
  result.rows = data.num_rows;
  result.batches = static_cast<int64_t>(data.batches.size());
  result.repetitions = repetitions;
  for (size_t i = 0; i < floors.size(); ++i) {
    result.output_bytes += batch_bytes[i];
    result.input_bytes += floors[i].input_bytes;
  }
  double rows = static_cast<double>(std::max<int64_t>(data.num_rows, 1));
  double convert_median = Median(convert_ns);
  result.ns_per_row = convert_median / rows;
  result.floor_ns_per_row = Median(floor_ns) / rows;
  result.bytes_per_row = static_cast<double>(result.output_bytes) / rows;
  // Bytes per nanosecond is gigabytes (1e9 bytes) per second.
  result.gbps =
      convert_median > 0 ? static_cast<double>(result.output_bytes) / convert_median : 0.0;
  *out = std::move(result);
  return Status::Ok();
}

Status MeasureFit(uint64_t seed, FitResult* out) {
  FitResult result;
  result.batches_per_sample = kFitPoolBatches;
  result.samples = kFitSamples;
  const std::vector<int64_t>& sizes = FitBatchRows();
  std::vector<std::unique_ptr<Dataset>> pools;
  std::vector<std::unique_ptr<Converter>> converters(sizes.size());
  for (size_t i = 0; i < sizes.size(); ++i) {
    pools.push_back(MakeDataset(RecordSpec(), kFitPoolBatches * sizes[i], sizes[i], seed));
    ROWBRIDGE_RETURN_NOT_OK(MakeConverter(*pools[i], &converters[i]));
    for (int warm = 0; warm < 4; ++warm) {
      ROWBRIDGE_RETURN_NOT_OK(ConvertPass(*converters[i], *pools[i], nullptr));
    }
  }
  // Sizes take turns within each round, so a change in machine load during
  // the run shifts every size alike instead of bending the line.
  std::vector<std::vector<double>> samples(sizes.size());
  for (int round = 0; round < kFitSamples; ++round) {
    for (size_t i = 0; i < sizes.size(); ++i) {
      Clock::time_point start = Clock::now();
      ROWBRIDGE_RETURN_NOT_OK(ConvertPass(*converters[i], *pools[i], nullptr));
      double ns = NanosecondsBetween(start, Clock::now());
      samples[i].push_back(ns / static_cast<double>(result.batches_per_sample));
    }
  }
  std::vector<double> x;
  for (size_t i = 0; i < sizes.size(); ++i) {
    result.batch_rows.push_back(sizes[i]);
    result.ns_per_batch.push_back(Median(samples[i]));
    x.push_back(static_cast<double>(sizes[i]));
  }
  result.line = FitLine(x, result.ns_per_batch);
  *out = std::move(result);
  return Status::Ok();
}

}  // namespace rowbridge::bench
