// The Arrow type each Spark type's row values decode to when the caller
// gives a Spark schema (RowDecoder::Make from a SparkType): the one of
// CONTRACTS.md §2 that holds the row's value as it is.
#pragma once

#include <string>

#include "arrow/arrow_field.hpp"
#include "rowbridge/spark_type.hpp"
#include "rowbridge/status.hpp"

namespace rowbridge::decoder {

/// Sets `out` to the field named `name` that values of `type` decode to:
/// Boolean bool, Byte/Short/Integer/Long int8/16/32/64, Float/Double
/// float32/64, Decimal decimal128, String utf8, Binary binary, Date date32,
/// Timestamp timestamp[us, tz=UTC], TimestampNTZ timestamp[us],
/// YearMonthInterval interval[months], DayTimeInterval duration[us],
/// CalendarInterval interval[month_day_nano], Null null, Struct struct,
/// Array list, Map map (entries non-nullable, keys non-nullable). A field of
/// `type` whose SparkField metadata names an Arrow extension (one read as its
/// storage type, CONTRACTS.md §2) carries that metadata again, unless the
/// extension cannot have the decoded type as its storage (arrow.uuid, the
/// tensors, arrow.bool8 other than over int8, arrow.json other than over utf8).
Status CanonicalArrowField(const SparkType& type, const std::string& name, bool nullable,
                           ArrowField* out);

}  // namespace rowbridge::decoder
