#include "bench/bench_report.hpp"

#include <cmath>
#include <cstdio>
#include <string>

namespace rowbridge::bench {
namespace {

/// Formats like printf; every line here is short.
template <typename... Args>
std::string Format(const char* format, Args... args) {
  char line[256];
  std::snprintf(line, sizeof(line), format, args...);
  return line;
}

/// A JSON number with four decimals, or null when not finite.
std::string JsonNumber(double value) {
  if (!std::isfinite(value)) return "null";
  return Format("%.4f", value);
}

std::string JsonString(const std::string& value) {
  std::string quoted = "\"";
  for (char c : value) {
    if (c == '"' || c == '\\') quoted += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      quoted += Format("\\u%04x", static_cast<unsigned>(c));
      continue;
    }
    quoted += c;
  }
  return quoted + "\"";
}

std::string RowList(const std::vector<int64_t>& rows) {
  std::string list;
  for (size_t i = 0; i < rows.size(); ++i) {
    list += (i == 0 ? "" : ", ") + std::to_string(rows[i]);
  }
  return list;
}

}  // namespace

void PrintTableHeader(std::ostream& out, uint64_t seed) {
  out << "rowbridge bench: Arrow C Data record batches -> Spark UnsafeRows (CONTRACTS.md §6)\n"
      << "seed " << seed << Format(" (0x%llx)", static_cast<unsigned long long>(seed))
      << "; data generated once, before timing; one converter per case, cheap validation,"
         " output reused\n"
      << "ns/row: median over reps of (wall time of converting every batch, in order) / rows\n"
      << "floor: same batches, copy the input ranges read, memset the rest of the output;"
         " ratio = ns/row / floor\n"
      << "GB/s: output row bytes per second of conversion / 1e9\n\n"
      << Format("%-14s %10s %8s %5s %10s %12s %8s %10s %8s\n", "schema", "batch rows", "batches",
                "reps", "ns/row", "floor ns/row", "ratio", "bytes/row", "GB/s");
  out.flush();
}

void PrintTableRow(std::ostream& out, const CaseResult& result) {
  double ratio = result.floor_ns_per_row > 0 ? result.ns_per_row / result.floor_ns_per_row : 0.0;
  out << Format("%-14s %10lld %8lld %5d %10.2f %12.2f %7.2fx %10.2f %8.3f\n", result.schema.c_str(),
                static_cast<long long>(result.batch_rows), static_cast<long long>(result.batches),
                result.repetitions, result.ns_per_row, result.floor_ns_per_row, ratio,
                result.bytes_per_row, result.gbps);
  out.flush();
}

void PrintFit(std::ostream& out, const FitResult& fit) {
  out << "\nfit over \"record\" batches of " << RowList(fit.batch_rows) << " rows ("
      << fit.batches_per_sample << " batches per sample, median of " << fit.samples
      << " samples):\n"
      << Format("  time per batch = %.2f ns + %.3f ns x rows", fit.line.intercept, fit.line.slope)
      << (fit.line.intercept < 0 ? "  (negative intercept)" : "") << "\n"
      << Format("  fixed_ns_per_batch %.2f, linear_ns_per_row %.3f\n", fit.line.intercept,
                fit.line.slope)
      << Format("  %10s %12s %12s %12s\n", "batch rows", "ns/batch", "fitted", "residual");
  for (size_t i = 0; i < fit.batch_rows.size(); ++i) {
    double fitted = fit.line.intercept + fit.line.slope * static_cast<double>(fit.batch_rows[i]);
    out << Format("  %10lld %12.2f %12.2f %12.2f\n", static_cast<long long>(fit.batch_rows[i]),
                  fit.ns_per_batch[i], fitted, fit.line.residuals[i]);
  }
  out << "  fit_residuals_ns: [";
  for (size_t i = 0; i < fit.line.residuals.size(); ++i) {
    out << (i == 0 ? "" : ", ") << Format("%.2f", fit.line.residuals[i]);
  }
  out << "]\n";
  out.flush();
}

void PrintJson(std::ostream& out, uint64_t seed, const std::vector<CaseResult>& cases,
               const FitResult& fit) {
  out << "{\"cases\": [";
  for (size_t i = 0; i < cases.size(); ++i) {
    const CaseResult& c = cases[i];
    out << (i == 0 ? "" : ", ") << "{\"schema\": " << JsonString(c.schema)
        << ", \"batch_rows\": " << c.batch_rows << ", \"ns_per_row\": " << JsonNumber(c.ns_per_row)
        << ", \"bytes_per_row\": " << JsonNumber(c.bytes_per_row)
        << ", \"floor_ns_per_row\": " << JsonNumber(c.floor_ns_per_row)
        << ", \"gbps\": " << JsonNumber(c.gbps) << "}";
  }
  out << "], \"fixed_ns_per_batch\": " << JsonNumber(fit.line.intercept)
      << ", \"linear_ns_per_row\": " << JsonNumber(fit.line.slope) << ", \"fit_residuals_ns\": [";
  for (size_t i = 0; i < fit.line.residuals.size(); ++i) {
    out << (i == 0 ? "" : ", ") << JsonNumber(fit.line.residuals[i]);
  }
  out << "], \"seed\": " << seed << "}\n";
  out.flush();
}

}  // namespace rowbridge::bench
