// Kernel benchmarks of the columnar -> row converter: one benchmark function
// expanded over a matrix of schemas and batch sizes. Data generation happens
// before the timed loop; each iteration converts every batch of the dataset.
// The binary's main is here: besides Google Benchmark's flags it takes
// --rowbridge_kernels=portable|avx2|avx512 and
// --rowbridge_nested_writer=depth-first|levels, the ConverterOptions every
// converter of BM_Convert is made with (kAuto without them); the decoders of
// BM_Decode take the same kernel set.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "bench/bench_data.hpp"
#include "bench/benchmark_options.hpp"
#include "rowbridge/converter.hpp"

namespace rowbridge {

ConverterOptions& ConvertOptions() {
  static ConverterOptions options;
  return options;
}

namespace {

// Every dataset has this many rows, whatever its batch size.
constexpr int64_t kRows = int64_t{1} << 16;

void BM_Convert(benchmark::State& state, bench::DatasetSpec (*make_spec)()) {
  const int64_t batch_rows = state.range(0);
  std::unique_ptr<bench::Dataset> data =
      bench::MakeDataset(make_spec(), kRows, batch_rows, bench::kDefaultSeed);
  std::unique_ptr<Converter> converter;
  Status status = Converter::Make(data->schema.schema, ConvertOptions(), &converter);
  if (!status.ok()) {
    state.SkipWithError(status.message().c_str());
    return;
  }
  auto convert_all = [&](int64_t* bytes) {
    RowBatchView view;
    for (const auto& batch : data->batches) {
      Status s = converter->Convert(*batch, &view);
      *bytes += view.data_size;
      benchmark::DoNotOptimize(view.data);
      while (s.ok() && converter->HasMoreChunks()) {
        s = converter->NextChunk(&view);
        *bytes += view.data_size;
        benchmark::DoNotOptimize(view.data);
      }
      if (!s.ok()) return s;
    }
    benchmark::ClobberMemory();
    return Status::Ok();
  };
  int64_t output_bytes = 0;
  status = convert_all(&output_bytes);  // warm-up: sizes the output buffers
  if (!status.ok()) {
    state.SkipWithError(status.message().c_str());
    return;
  }
  for (auto _ : state) {
    int64_t bytes = 0;
    status = convert_all(&bytes);
    if (!status.ok()) {
      state.SkipWithError(status.message().c_str());
      break;
    }
  }
  state.SetItemsProcessed(state.iterations() * kRows);
  state.SetBytesProcessed(state.iterations() * output_bytes);
  state.counters["bytes_per_row"] = static_cast<double>(output_bytes) / static_cast<double>(kRows);
  state.counters["ns_per_row"] =
      benchmark::Counter(static_cast<double>(kRows), benchmark::Counter::kIsIterationInvariantRate |
                                                         benchmark::Counter::kInvert);
}

bench::DatasetSpec FixedWidth5() { return bench::FixedWidthSpec(5); }
bench::DatasetSpec FixedWidth10() { return bench::FixedWidthSpec(10); }
bench::DatasetSpec FixedWidth20() { return bench::FixedWidthSpec(20); }
// The columns of "nested" alone, to see where its time goes.
bench::DatasetSpec NestedStruct() {
  return {"nested_struct", {{"s", bench::ColumnKind::kStructInt64Utf8, 0.1}}};
}
bench::DatasetSpec NestedListInt32() {
  return {"nested_list", {{"a", bench::ColumnKind::kListInt32, 0.1}}};
}
bench::DatasetSpec NestedMap() {
  return {"nested_map", {{"m", bench::ColumnKind::kMapUtf8Int64, 0.1}}};
}
// The map with values that need a conversion (ms -> us), beside the nested map.
bench::DatasetSpec NestedMapTimestamps() {
  return {"nested_map_timestamps", {{"m", bench::ColumnKind::kMapUtf8TimestampMillis, 0.1}}};
}
// A struct column beside a list<bool> (booleans are bits in Arrow).
bench::DatasetSpec NestedWithBooleans() {
  return {
      "nested_with_booleans",
      {{"s", bench::ColumnKind::kStructInt64Utf8, 0.1}, {"f", bench::ColumnKind::kListBool, 0.1}}};
}
// A struct column beside a list<decimal(38, 4)>.
bench::DatasetSpec NestedWithLargeDecimals() {
  return {"nested_with_large_decimals",
          {{"s", bench::ColumnKind::kStructInt64Utf8, 0.1},
           {"d", bench::ColumnKind::kListLargeDecimal, 0.1}}};
}
bench::DatasetSpec NestedListStruct() {
  return {"nested_list_struct", {{"p", bench::ColumnKind::kListStructFloat64Utf8, 0.1}}};
}
bench::DatasetSpec SmallDecimals() { return bench::DecimalSpec(false); }
bench::DatasetSpec LargeDecimals() { return bench::DecimalSpec(true); }

/// Registers BM_Convert over `make_spec`'s schema at every batch size.
#define ROWBRIDGE_CONVERT_BENCHMARK(label, make_spec) \
  BENCHMARK_CAPTURE(BM_Convert, label, make_spec)     \
      ->ArgName("batch_rows")                         \
      ->Arg(32)                                       \
      ->Arg(512)                                      \
      ->Arg(8192)                                     \
      ->Unit(benchmark::kMicrosecond)

ROWBRIDGE_CONVERT_BENCHMARK(fixed_width_5, &FixedWidth5);
ROWBRIDGE_CONVERT_BENCHMARK(fixed_width_10, &FixedWidth10);
ROWBRIDGE_CONVERT_BENCHMARK(fixed_width_20, &FixedWidth20);
ROWBRIDGE_CONVERT_BENCHMARK(record, &bench::RecordSpec);
ROWBRIDGE_CONVERT_BENCHMARK(strings, &bench::StringsSpec);
ROWBRIDGE_CONVERT_BENCHMARK(small_decimals, &SmallDecimals);
ROWBRIDGE_CONVERT_BENCHMARK(large_decimals, &LargeDecimals);
ROWBRIDGE_CONVERT_BENCHMARK(dictionary_strings, &bench::DictionaryStringsSpec);
ROWBRIDGE_CONVERT_BENCHMARK(run_end_ints, &bench::RunEndSpec);
ROWBRIDGE_CONVERT_BENCHMARK(wide_strings, &bench::WideStringsSpec);
ROWBRIDGE_CONVERT_BENCHMARK(nested, &bench::NestedSpec);
ROWBRIDGE_CONVERT_BENCHMARK(nested_struct, &NestedStruct);
ROWBRIDGE_CONVERT_BENCHMARK(nested_list_int32, &NestedListInt32);
ROWBRIDGE_CONVERT_BENCHMARK(nested_map, &NestedMap);
ROWBRIDGE_CONVERT_BENCHMARK(nested_map_timestamps, &NestedMapTimestamps);
ROWBRIDGE_CONVERT_BENCHMARK(nested_list_struct, &NestedListStruct);
ROWBRIDGE_CONVERT_BENCHMARK(nested_with_booleans, &NestedWithBooleans);
ROWBRIDGE_CONVERT_BENCHMARK(nested_with_large_decimals, &NestedWithLargeDecimals);

/// Sets `*options` from one of the flags above; false for any other argument.
bool ParseFlag(const char* arg, ConverterOptions* options) {
  static const char kKernels[] = "--rowbridge_kernels=";
  static const char kNestedWriter[] = "--rowbridge_nested_writer=";
  if (std::strncmp(arg, kKernels, sizeof(kKernels) - 1) == 0) {
    const std::string name = arg + sizeof(kKernels) - 1;
    if (name == "portable") options->kernels = Kernels::kPortable;
    else if (name == "avx2") options->kernels = Kernels::kAvx2;
    else if (name == "avx512") options->kernels = Kernels::kAvx512;
    else return false;
    return true;
  }
  if (std::strncmp(arg, kNestedWriter, sizeof(kNestedWriter) - 1) == 0) {
    const std::string name = arg + sizeof(kNestedWriter) - 1;
    if (name == "depth-first") options->nested_writer = NestedWriter::kDepthFirst;
    else if (name == "levels") options->nested_writer = NestedWriter::kLevels;
    else return false;
    return true;
  }
  return false;
}

}  // namespace
}  // namespace rowbridge

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  for (int i = 1; i < argc; ++i) {
    if (!rowbridge::ParseFlag(argv[i], &rowbridge::ConvertOptions())) {
      std::fprintf(stderr,
                   "unknown argument %s; besides Google Benchmark's flags: "
                   "--rowbridge_kernels=portable|avx2|avx512, "
                   "--rowbridge_nested_writer=depth-first|levels\n",
                   argv[i]);
      return 2;
    }
    // Recorded in the report's context: "rowbridge_kernels": "avx2".
    const char* flag = argv[i] + 2;
    const char* equals = std::strchr(flag, '=');
    benchmark::AddCustomContext(std::string(flag, equals), equals + 1);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
