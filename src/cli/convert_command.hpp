// `rowbridge convert IN OUT` and `rowbridge inspect IN` (CONTRACTS.md §4).
#pragma once

#include <string>

#include "rowbridge/status.hpp"

namespace rowbridge::cli {

struct ConvertOptions {
  std::string input;
  std::string output;
};

/// Converts every row of every batch of the Arrow IPC file or stream `input`
/// into Spark's UnsafeRowSerializer stream format at `output`. Returns 0, or 1
/// after one line on stderr naming what is wrong and where.
int RunConvertCommand(const ConvertOptions& options);

/// Prints the schema (Arrow and Spark types), batches, rows, bytes and
/// compression of `input`. Returns 0, or 1 after one line on stderr.
int RunInspectCommand(const std::string& input);

/// Prints "rowbridge COMMAND: MESSAGE" on one line of stderr; returns 1.
int ReportFailure(const char* command, const Status& status);

}  // namespace rowbridge::cli
