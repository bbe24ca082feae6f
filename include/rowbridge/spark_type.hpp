// SparkType: the Spark SQL data type a column's values take in an UnsafeRow.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "rowbridge/export.h"

namespace rowbridge {

enum class SparkTypeId : uint8_t {
  kNull,
  kBoolean,
  kByte,
  kShort,
  kInteger,
  kLong,
  kFloat,
  kDouble,
  kDecimal,
  kString,
  kBinary,
  kDate,
  kTimestamp,
  kTimestampNtz,
  kYearMonthInterval,
  kDayTimeInterval,
  kCalendarInterval,
  kTime,     // Spark 4.1's TimeType(6): long nanoseconds of the day
  kVariant,  // Spark 4.0's VariantType: [int32 value length][value][metadata]
  kStruct,
  kArray,
  kMap,
};

struct SparkField;

/// A Spark data type. Struct types list their fields; an array type has one
/// field "element" (nullable = containsNull); a map type has the fields "key"
/// and "value" (the value's nullable = valueContainsNull).
struct SparkType {
  SparkTypeId id = SparkTypeId::kNull;
  int32_t precision = 0;  // decimals
  int32_t scale = 0;      // decimals
  std::vector<SparkField> fields;

  /// Returns Spark's catalogString of this type, e.g. "decimal(38,10)" or
  /// "struct<a:bigint,b:array<string>>".
  ROWBRIDGE_EXPORT std::string ToString() const;
};

struct SparkField {
  std::string name;
  SparkType type;
  bool nullable = true;
  /// The Arrow extension of a field read as its storage type (CONTRACTS.md §2):
  /// "ARROW:extension:name" and, where the Arrow field has it,
  /// "ARROW:extension:metadata", as Spark's StructField metadata keeps them so
  /// that rows -> Arrow writes the extension back. Empty for other fields.
  std::vector<std::pair<std::string, std::string>> metadata = {};
};

/// Returns the size in bytes of an element of `type` in an UnsafeArrayData:
/// 1, 2, 4 or 8.
ROWBRIDGE_EXPORT int32_t SparkArrayElementSize(const SparkType& type);

}  // namespace rowbridge
