// The Arrow -> Spark type mapping of CONTRACTS.md §2.
#pragma once

#include <string>

#include "arrow/arrow_field.hpp"
#include "rowbridge/spark_type.hpp"

namespace rowbridge::spark {

/// Maps `field` (dictionary and run-end encodings resolved to their value
/// types) to the Spark field its values become. `path` names the field in
/// errors. Returns NotSupported, naming the path and the type, for a type
/// Spark rows cannot carry. `variants`: whether Spark's variant struct form is
/// a VariantType (ConverterOptions::variants) or a struct.
Status MapToSpark(const ArrowField& field, const std::string& path, SparkField* out,
                  bool variants = true);

/// True for a struct in the form Spark's ArrowUtils gives a VariantType: its
/// children include "value" and "metadata", and "metadata" carries the field
/// metadata variant=true (Spark's own test; CheckVariantStruct checks the rest).
bool IsVariantStruct(const ArrowField& field);

/// Checks that a variant struct (IsVariantStruct) has exactly the children
/// value then metadata (Spark reads them by position), each binary,
/// large_binary or binary_view; NotSupported naming `path` otherwise.
Status CheckVariantStruct(const ArrowField& field, const std::string& path);

/// Returns the field whose values a column holds: the dictionary's value
/// field, the values child of a run-end encoded field, or `field` itself.
const ArrowField& ValueField(const ArrowField& field);

}  // namespace rowbridge::spark
