// The rowbridge command line (CONTRACTS.md §4). Usage errors exit with status 2.
#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/bench_command.hpp"
#include "cli/convert_command.hpp"
#include "cli/scan_command.hpp"

int main(int argc, char** argv) {
  CLI::App app{"rowbridge: Apache Arrow record batches to Spark UnsafeRows", "rowbridge"};
  app.require_subcommand(1, 1);

  rowbridge::cli::BenchOptions bench_options;
  CLI::App* bench = app.add_subcommand(
      "bench", "run the columnar -> row benchmark (docs/CONTRACTS.md, section 6)");
  bench->add_flag("--json", bench_options.json,
                  "print only one JSON object with the results on stdout");

  rowbridge::cli::ConvertOptions convert_options;
  CLI::App* convert = app.add_subcommand(
      "convert", "convert an Arrow IPC file or stream into Spark UnsafeRowSerializer rows");
  convert->add_option("IN", convert_options.input, "Arrow IPC file or stream")->required();
  convert->add_option("OUT", convert_options.output, "output file, or - for standard output")
      ->required();

  std::string inspect_input;
  CLI::App* inspect =
      app.add_subcommand("inspect", "print the schema, batches, rows, bytes of an Arrow IPC input");
  inspect->add_option("IN", inspect_input, "Arrow IPC file or stream")->required();

  rowbridge::cli::ScanOptions scan_options;
  CLI::App* scan = app.add_subcommand(
      "scan", "read an Arrow IPC input through a bounded prefetch stream; print one JSON line");
  scan->add_option("IN", scan_options.input, "Arrow IPC file (decoded in parallel) or stream")
      ->required();
  scan->add_option("--workers", scan_options.workers,
                   "worker pool threads (default: one per hardware thread)");
  scan->add_option("--in-flight", scan_options.in_flight, "W: batches produced at once (2)");
  scan->add_option("--prefetch", scan_options.prefetch, "K: finished batches queued ahead (1)");
  scan->add_flag("--rows", scan_options.rows, "convert batches to UnsafeRows in the workers");
  scan->add_option("--queue", scan_options.queue,
                   "bounded, or per-worker: the baseline queueing one batch per worker");
  scan->add_flag("--malloc-defaults", scan_options.malloc_defaults,
                 "keep glibc's dynamic malloc thresholds (slower: buffers are faulted in anew)");

  auto is_subcommand = [&](const CLI::App* sub) { return sub->check_name(argv[1]); };
  if (argc > 1 && argv[1][0] != '-' && app.get_subcommands(is_subcommand).empty()) {
    std::cerr << "rowbridge: unknown subcommand '" << argv[1] << "'\n\n" << app.help();
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) return app.exit(error);  // --help
    std::cerr << "rowbridge: " << error.what() << "\n\n" << app.help();
    return 2;
  }
  if (bench->parsed()) return rowbridge::cli::RunBenchCommand(bench_options);
  if (convert->parsed()) return rowbridge::cli::RunConvertCommand(convert_options);
  if (inspect->parsed()) return rowbridge::cli::RunInspectCommand(inspect_input);
  if (scan->parsed()) return rowbridge::cli::RunScanCommand(scan_options);
  std::cerr << app.help();
  return 2;
}
