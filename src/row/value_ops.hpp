// Value operations of the fixed-width types: each reads value `index` of a
// ColumnInput, converts it to its Spark value (zero-extended to 64 bits) and
// reports whether the Spark type holds it. Shared by the slot writers and the
// array element writers; kRawBytes is the Arrow width of an op that copies
// the value's bytes unchanged (0 for a conversion), so that arrays whose
// Spark element size matches it are copied in bulk.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "arrow/arrow_type.hpp"
#include "row/column_writer.hpp"
#include "spark/decimal_math.hpp"
#include "spark/memory_access.hpp"

namespace rowbridge::row {

/// Copies a value of type T and zero-extends its bytes to the slot.
template <typename T>
struct CopyOp {
  static constexpr int kRawBytes = sizeof(T);
  static bool Load(const ColumnInput& input, int64_t index, int32_t, uint64_t* slot) {
    using Unsigned = std::make_unsigned_t<T>;
    *slot = static_cast<uint64_t>(
        static_cast<Unsigned>(rowbridge::Load<T>(input.values + index * sizeof(T))));
    return true;
  }
  static std::string Describe(const ColumnInput&, int64_t, int32_t) { return {}; }
};

template <>
struct CopyOp<float> {
  static constexpr int kRawBytes = 4;
  static bool Load(const ColumnInput& input, int64_t index, int32_t, uint64_t* slot) {
    *slot = rowbridge::Load<uint32_t>(input.values + index * 4);
    return true;
  }
  static std::string Describe(const ColumnInput&, int64_t, int32_t) { return {}; }
};

template <>
struct CopyOp<double> {
  static constexpr int kRawBytes = 8;
  static bool Load(const ColumnInput& input, int64_t index, int32_t, uint64_t* slot) {
    *slot = rowbridge::Load<uint64_t>(input.values + index * 8);
    return true;
  }
  static std::string Describe(const ColumnInput&, int64_t, int32_t) { return {}; }
};

struct BoolOp {
  static constexpr int kRawBytes = 0;
  static bool Load(const ColumnInput& input, int64_t index, int32_t, uint64_t* slot) {
    *slot = GetBit(input.values, index) ? 1 : 0;
    return true;
  }
  static std::string Describe(const ColumnInput&, int64_t, int32_t) { return {}; }
};

/// Multiplies an int64 by kFactor (seconds or milliseconds to microseconds,
/// microseconds to nanoseconds); kTarget names the unit of the result.
template <int64_t kFactor, const char* kUnit, const char* kTarget>
struct ScaleUpOp {
  static constexpr int kRawBytes = 0;
  static bool Load(const ColumnInput& input, int64_t index, int32_t, uint64_t* slot) {
    int64_t v = rowbridge::Load<int64_t>(input.values + index * 8);
    int64_t micros;
    bool overflow = __builtin_mul_overflow(v, kFactor, &micros);
    *slot = static_cast<uint64_t>(micros);
    return !overflow;
  }
  static std::string Describe(const ColumnInput& input, int64_t index, int32_t) {
    return std::to_string(rowbridge::Load<int64_t>(input.values + index * 8)) + " " + kUnit +
           " overflows int64 " + kTarget;
  }
};

/// Multiplies an int32 time of day by kFactor into int64 nanoseconds (no
/// int32 value overflows: 2^31 * 10^9 < 2^63).
template <int64_t kFactor>
struct Time32ToNanosOp {
  static constexpr int kRawBytes = 0;
  static bool Load(const ColumnInput& input, int64_t index, int32_t, uint64_t* slot) {
    *slot = static_cast<uint64_t>(int64_t{rowbridge::Load<int32_t>(input.values + index * 4)} *
                                  kFactor);
    return true;
  }
  static std::string Describe(const ColumnInput&, int64_t, int32_t) { return {}; }
};

/// Divides an int64 by kDivisor rounding toward negative infinity.
inline int64_t FloorDivide(int64_t v, int64_t divisor) {
  int64_t q = v / divisor;
  return q - ((v % divisor != 0) & (v < 0));
}

struct NanosToMicrosOp {
  static constexpr int kRawBytes = 0;
  static bool Load(const ColumnInput& input, int64_t index, int32_t, uint64_t* slot) {
    *slot = static_cast<uint64_t>(
        FloorDivide(rowbridge::Load<int64_t>(input.values + index * 8), 1000));
    return true;
  }
  static std::string Describe(const ColumnInput&, int64_t, int32_t) { return {}; }
};

struct Date64Op {
  static constexpr int kRawBytes = 0;
  static constexpr int64_t kMillisPerDay = 86400000;
  static bool Load(const ColumnInput& input, int64_t index, int32_t, uint64_t* slot) {
    int64_t days = FloorDivide(rowbridge::Load<int64_t>(input.values + index * 8), kMillisPerDay);
    *slot = static_cast<uint32_t>(static_cast<int32_t>(days));
    return days >= std::numeric_limits<int32_t>::min() &&
           days <= std::numeric_limits<int32_t>::max();
  }
  static std::string Describe(const ColumnInput& input, int64_t index, int32_t) {
    return std::to_string(rowbridge::Load<int64_t>(input.values + index * 8)) +
           " ms is outside the int32 range of days";
  }
};

/// Reads a decimal of kBytes bytes whose unscaled value must fit `precision`
/// digits (<= 18) and writes it as a long.
template <int kBytes>
struct SmallDecimalOp {
  static constexpr int kRawBytes = 0;
  static bool ReadUnscaled(const ColumnInput& input, int64_t index, int64_t* out) {
    const uint8_t* p = input.values + index * kBytes;
    if constexpr (kBytes == 4) {
      *out = rowbridge::Load<int32_t>(p);
      return true;
    } else if constexpr (kBytes == 8) {
      *out = rowbridge::Load<int64_t>(p);
      return true;
    } else {
      // The upper words must be the sign extension of the low 64 bits.
      int64_t low = rowbridge::Load<int64_t>(p);
      const uint64_t sign = spark::SignWord(low);
      bool fits = true;
      for (int word = 1; word < kBytes / 8; ++word)
        fits &= rowbridge::Load<uint64_t>(p + word * 8) == sign;
      *out = low;
      return fits;
    }
  }
  static bool Load(const ColumnInput& input, int64_t index, int32_t precision, uint64_t* slot) {
    int64_t v;
    bool fits = ReadUnscaled(input, index, &v);
    *slot = static_cast<uint64_t>(v);
    return fits & spark::FitsPrecision(v, precision);
  }
  static std::string Describe(const ColumnInput& input, int64_t index, int32_t precision) {
    return "unscaled value " + spark::DecimalToString(input.values + index * kBytes, kBytes) +
           " does not fit precision " + std::to_string(precision);
  }
};

inline constexpr char kSecondsUnit[] = "s";
inline constexpr char kMillisUnit[] = "ms";
inline constexpr char kMicrosUnit[] = "us";
inline constexpr char kMicrosName[] = "microseconds";
inline constexpr char kNanosName[] = "nanoseconds";

template <typename Op>
struct OpTag {
  using type = Op;
};

/// Calls `visit(OpTag<Op>{})` with the value op of a fixed-width `type` and
/// returns true, or returns false when no op covers `type`.
template <typename Visitor>
bool VisitValueOp(const ArrowType& type, Visitor&& visit) {
  switch (type.id) {
    case ArrowTypeId::kBool: visit(OpTag<BoolOp>{}); return true;
    case ArrowTypeId::kInt8:
    case ArrowTypeId::kUInt8: visit(OpTag<CopyOp<uint8_t>>{}); return true;
    case ArrowTypeId::kInt16:
    case ArrowTypeId::kUInt16: visit(OpTag<CopyOp<uint16_t>>{}); return true;
    case ArrowTypeId::kInt32:
    case ArrowTypeId::kUInt32:
    case ArrowTypeId::kDate32:
    case ArrowTypeId::kIntervalYearMonth: visit(OpTag<CopyOp<uint32_t>>{}); return true;
    case ArrowTypeId::kInt64: visit(OpTag<CopyOp<uint64_t>>{}); return true;
    case ArrowTypeId::kFloat32: visit(OpTag<CopyOp<float>>{}); return true;
    case ArrowTypeId::kFloat64: visit(OpTag<CopyOp<double>>{}); return true;
    case ArrowTypeId::kDate64: visit(OpTag<Date64Op>{}); return true;
    case ArrowTypeId::kTimestamp:
    case ArrowTypeId::kDuration:
      switch (type.unit) {
        case TimeUnit::kSecond:
          visit(OpTag<ScaleUpOp<1000000, kSecondsUnit, kMicrosName>>{});
          return true;
        case TimeUnit::kMilli:
          visit(OpTag<ScaleUpOp<1000, kMillisUnit, kMicrosName>>{});
          return true;
        case TimeUnit::kMicro: visit(OpTag<CopyOp<uint64_t>>{}); return true;
        case TimeUnit::kNano: visit(OpTag<NanosToMicrosOp>{}); return true;
      }
      return false;
    // Spark's TimeType holds nanoseconds of the day.
    case ArrowTypeId::kTime32:
      if (type.unit == TimeUnit::kSecond) visit(OpTag<Time32ToNanosOp<1000000000>>{});
      else visit(OpTag<Time32ToNanosOp<1000000>>{});
      return true;
    case ArrowTypeId::kTime64:
      if (type.unit == TimeUnit::kNano) visit(OpTag<CopyOp<uint64_t>>{});
      else visit(OpTag<ScaleUpOp<1000, kMicrosUnit, kNanosName>>{});
      return true;
    case ArrowTypeId::kDecimal:
      if (type.precision > spark::kMaxSmallDecimalDigits) return false;
      switch (type.bit_width) {
        case 32: visit(OpTag<SmallDecimalOp<4>>{}); return true;
        case 64: visit(OpTag<SmallDecimalOp<8>>{}); return true;
        case 128: visit(OpTag<SmallDecimalOp<16>>{}); return true;
        case 256: visit(OpTag<SmallDecimalOp<32>>{}); return true;
        default: return false;
      }
    default: return false;
  }
}

}  // namespace rowbridge::row
