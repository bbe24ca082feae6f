// `rowbridge bench [--json]`: the columnar -> row benchmark of CONTRACTS.md §6.
#pragma once

namespace rowbridge::cli {

struct BenchOptions {
  bool json = false;  // print only the CONTRACTS.md §6 JSON object on stdout
};

/// Runs every case and the fit, printing to stdout; returns the exit status
/// (0, or 1 after one line on stderr when the library reports an error).
int RunBenchCommand(const BenchOptions& options);

}  // namespace rowbridge::cli
