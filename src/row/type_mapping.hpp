// The Arrow -> Spark type mapping of SPEC section 2.
#pragma once

#include <string>

#include "arrow/arrow_field.hpp"
#include "rowbridge/spark_type.hpp"

namespace rowbridge::row {

/// Maps `field` (dictionary and run-end encodings resolved to their value
/// types) to the Spark field its values become. `path` names the field in
/// errors. Returns NotSupported, naming the path and the type, for a type
/// Spark rows cannot carry.
Status MapToSpark(const ArrowField& field, const std::string& path, SparkField* out);

/// Returns the field whose values a column holds: the dictionary's value
/// field, the values child of a run-end encoded field, or `field` itself.
const ArrowField& ValueField(const ArrowField& field);

}  // namespace rowbridge::row
