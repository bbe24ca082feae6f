// The rowbridge command line (SPEC §4). Usage errors exit with status 2.
#include <iostream>

#include <CLI/CLI.hpp>

#include "cli/bench_command.hpp"

int main(int argc, char** argv) {
  CLI::App app{"rowbridge: Apache Arrow record batches to Spark UnsafeRows", "rowbridge"};
  app.require_subcommand(1, 1);

  rowbridge::cli::BenchOptions bench_options;
  CLI::App* bench = app.add_subcommand("bench", "run the columnar -> row benchmark (SPEC 6)");
  bench->add_flag("--json", bench_options.json,
                  "print only one JSON object with the results on stdout");

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
  std::cerr << app.help();
  return 2;
}
