// The options the benchmarks of rowbridge_benchmarks run with, set by its
// main (converter_benchmark.cc) from the command line before any runs.
#pragma once

#include "rowbridge/converter.hpp"

namespace rowbridge {

/// The converters' options (BM_Convert); their kernel set is the decoders'
/// too (BM_Decode).
ConverterOptions& ConvertOptions();

}  // namespace rowbridge
