// The output of `rowbridge bench`: a readable table, printed case by case,
// or the single JSON object of CONTRACTS.md §6.
#pragma once

#include <cstdint>
#include <ostream>
#include <vector>

#include "bench/bench_measure.hpp"

namespace rowbridge::bench {

/// Prints what the table's figures mean, the seed, and the column headings.
void PrintTableHeader(std::ostream& out, uint64_t seed);
void PrintTableRow(std::ostream& out, const CaseResult& result);
/// Prints the fit line, the per-size medians and the residuals.
void PrintFit(std::ostream& out, const FitResult& fit);

/// Prints the CONTRACTS.md §6 JSON object (plus "seed") and a newline.
void PrintJson(std::ostream& out, uint64_t seed, const std::vector<CaseResult>& cases,
               const FitResult& fit);

}  // namespace rowbridge::bench
