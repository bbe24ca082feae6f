// ArrowType: an Arrow C Data Interface format string, parsed.
#pragma once

#include <cstdint>
#include <string>

#include "rowbridge/status.hpp"

namespace rowbridge {

enum class ArrowTypeId : uint8_t {
  kNull,
  kBool,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kUInt8,
  kUInt16,
  kUInt32,
  kUInt64,
  kFloat16,
  kFloat32,
  kFloat64,
  kDecimal,  // bit_width 32, 64, 128 or 256
  kDate32,
  kDate64,
  kTime32,
  kTime64,
  kTimestamp,
  kDuration,
  kIntervalYearMonth,
  kIntervalDayTime,
  kIntervalMonthDayNano,
  kUtf8,
  kLargeUtf8,
  kUtf8View,
  kBinary,
  kLargeBinary,
  kBinaryView,
  kFixedSizeBinary,
  kStruct,
  kList,
  kLargeList,
  kFixedSizeList,
  kListView,
  kLargeListView,
  kMap,
  kRunEndEncoded,
  kDenseUnion,
  kSparseUnion,
};

enum class TimeUnit : uint8_t { kSecond, kMilli, kMicro, kNano };

/// A parsed format string. Parameters not used by `id` stay zero or empty.
struct ArrowType {
  ArrowTypeId id = ArrowTypeId::kNull;
  int32_t bit_width = 0;   // decimals
  int32_t precision = 0;   // decimals
  int32_t scale = 0;       // decimals
  int32_t fixed_size = 0;  // fixed_size_binary bytes, fixed_size_list elements
  TimeUnit unit = TimeUnit::kSecond;
  bool has_timezone = false;  // timestamps
  std::string timezone;       // timestamps with a time zone
};

/// Parses a C Data Interface format string into `out`. Returns Invalid for a
/// malformed string and NotSupported for a well-formed one rowbridge does not
/// know. Borrows `format` for the duration of the call.
Status ParseFormat(const char* format, ArrowType* out);

/// Returns a readable name for `type`, e.g. "timestamp[us, tz=UTC]".
std::string ArrowTypeName(const ArrowType& type);

/// Returns the width in bytes of one value of a fixed-width primitive type,
/// 0 for bool (bit-packed) and for non-primitive types.
int32_t PrimitiveByteWidth(const ArrowType& type);

/// Returns how many buffers the C Data Interface requires for `type`, not
/// counting the variadic buffers of view types.
int32_t ExpectedBufferCount(const ArrowType& type);

/// Returns the number of microseconds in one `unit`, or 0 for nanoseconds.
int64_t MicrosPerUnit(TimeUnit unit);

}  // namespace rowbridge
