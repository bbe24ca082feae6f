#include "cli/bench_command.hpp"

#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bench/bench_data.hpp"
#include "bench/bench_measure.hpp"
#include "bench/bench_report.hpp"
#include "rowbridge/status.hpp"

namespace rowbridge::cli {
namespace {

using bench::CaseResult;
using bench::DatasetSpec;

struct BenchCase {
  DatasetSpec (*spec)();
  int64_t num_rows;
  int64_t batch_rows;
};

/// The CONTRACTS.md §6 cases, in output order.
const std::vector<BenchCase>& Cases() {
  static const std::vector<BenchCase> kCases = {
      {&bench::RecordSpec, bench::kRecordRows, 8192},
      {&bench::RecordSpec, bench::kRecordRows, 512},
      {&bench::RecordSpec, bench::kRecordRows, 32},
      {&bench::WideStringsSpec, bench::kWideStringsRows, 8192},
      {&bench::NestedSpec, bench::kNestedRows, 8192},
  };
  return kCases;
}

int Fail(const std::string& what, const Status& status) {
  std::string message = status.message();
  for (char& c : message) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  std::cerr << "rowbridge bench: " << what << ": " << message << "\n";
  return 1;
}

}  // namespace

int RunBenchCommand(const BenchOptions& options) {
  const uint64_t seed = bench::kDefaultSeed;
  if (!options.json) bench::PrintTableHeader(std::cout, seed);
  std::vector<CaseResult> results;
  for (const BenchCase& c : Cases()) {
    DatasetSpec spec = c.spec();
    std::string label = spec.name + " with " + std::to_string(c.batch_rows) + "-row batches";
    // Each case's batches live only while it runs, so memory stays bounded.
    std::unique_ptr<bench::Dataset> data = bench::MakeDataset(spec, c.num_rows, c.batch_rows, seed);
    CaseResult result;
    Status status = bench::MeasureCase(*data, &result);
    if (!status.ok()) return Fail(label, status);
    if (!options.json) bench::PrintTableRow(std::cout, result);
    results.push_back(std::move(result));
  }
  bench::FitResult fit;
  Status status = bench::MeasureFit(seed, &fit);
  if (!status.ok()) return Fail("fit over small record batches", status);
  if (options.json) {
    bench::PrintJson(std::cout, seed, results, fit);
  } else {
    bench::PrintFit(std::cout, fit);
  }
  return 0;
}

}  // namespace rowbridge::cli
