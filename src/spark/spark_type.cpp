#include "rowbridge/spark_type.hpp"

namespace rowbridge {

std::string SparkType::ToString() const {
  switch (id) {
    case SparkTypeId::kNull: return "void";
    case SparkTypeId::kBoolean: return "boolean";
    case SparkTypeId::kByte: return "tinyint";
    case SparkTypeId::kShort: return "smallint";
    case SparkTypeId::kInteger: return "int";
    case SparkTypeId::kLong: return "bigint";
    case SparkTypeId::kFloat: return "float";
    case SparkTypeId::kDouble: return "double";
    case SparkTypeId::kDecimal:
      return "decimal(" + std::to_string(precision) + "," + std::to_string(scale) + ")";
    case SparkTypeId::kString: return "string";
    case SparkTypeId::kBinary: return "binary";
    case SparkTypeId::kDate: return "date";
    case SparkTypeId::kTimestamp: return "timestamp";
    case SparkTypeId::kTimestampNtz: return "timestamp_ntz";
    case SparkTypeId::kYearMonthInterval: return "interval year to month";
    case SparkTypeId::kDayTimeInterval: return "interval day to second";
    case SparkTypeId::kCalendarInterval: return "interval";
    case SparkTypeId::kTime: return "time(6)";
    case SparkTypeId::kVariant: return "variant";
    case SparkTypeId::kStruct: {
      std::string s = "struct<";
      for (size_t i = 0; i < fields.size(); ++i) {
        if (i > 0) s += ",";
        s += fields[i].name + ":" + fields[i].type.ToString();
      }
      return s + ">";
    }
    case SparkTypeId::kArray: return "array<" + fields.at(0).type.ToString() + ">";
    case SparkTypeId::kMap:
      return "map<" + fields.at(0).type.ToString() + "," + fields.at(1).type.ToString() + ">";
  }
  return "unknown";
}

int32_t SparkArrayElementSize(const SparkType& type) {
  switch (type.id) {
    case SparkTypeId::kBoolean:
    case SparkTypeId::kByte: return 1;
    case SparkTypeId::kShort: return 2;
    case SparkTypeId::kInteger:
    case SparkTypeId::kFloat:
    case SparkTypeId::kDate:
    case SparkTypeId::kYearMonthInterval: return 4;
    default: return 8;
  }
}

}  // namespace rowbridge
