// Writers for values that live in the 8-byte slot.
#include <limits>
#include <type_traits>

#include "row/column_access.hpp"
#include "row/decimal_math.hpp"
#include "row/writer_families.hpp"

namespace rowbridge::row {
namespace {

/// Copies a value of type T and zero-extends its bytes to the slot.
template <typename T>
struct CopyOp {
  static bool Load(const ColumnInput& input, int64_t index, int32_t, uint64_t* slot) {
    using Unsigned = std::make_unsigned_t<T>;
    *slot = static_cast<uint64_t>(static_cast<Unsigned>(row::Load<T>(input.values + index * sizeof(T))));
    return true;
  }
  static std::string Describe(const ColumnInput&, int64_t, int32_t) { return {}; }
};

template <>
struct CopyOp<float> {
  static bool Load(const ColumnInput& input, int64_t index, int32_t, uint64_t* slot) {
    *slot = row::Load<uint32_t>(input.values + index * 4);
    return true;
  }
  static std::string Describe(const ColumnInput&, int64_t, int32_t) { return {}; }
};

template <>
struct CopyOp<double> {
  static bool Load(const ColumnInput& input, int64_t index, int32_t, uint64_t* slot) {
    *slot = row::Load<uint64_t>(input.values + index * 8);
    return true;
  }
  static std::string Describe(const ColumnInput&, int64_t, int32_t) { return {}; }
};

struct BoolOp {
  static bool Load(const ColumnInput& input, int64_t index, int32_t, uint64_t* slot) {
    *slot = GetBit(input.values, index) ? 1 : 0;
    return true;
  }
  static std::string Describe(const ColumnInput&, int64_t, int32_t) { return {}; }
};

/// Multiplies an int64 by kFactor (seconds or milliseconds to microseconds).
template <int64_t kFactor, const char* kUnit>
struct ScaleUpOp {
  static bool Load(const ColumnInput& input, int64_t index, int32_t, uint64_t* slot) {
    int64_t v = row::Load<int64_t>(input.values + index * 8);
    int64_t micros;
    bool overflow = __builtin_mul_overflow(v, kFactor, &micros);
    *slot = static_cast<uint64_t>(micros);
    return !overflow;
  }
  static std::string Describe(const ColumnInput& input, int64_t index, int32_t) {
    return std::to_string(row::Load<int64_t>(input.values + index * 8)) + " " + kUnit +
           " overflows int64 microseconds";
  }
};

/// Divides an int64 by kDivisor rounding toward negative infinity.
inline int64_t FloorDivide(int64_t v, int64_t divisor) {
  int64_t q = v / divisor;
  return q - ((v % divisor != 0) & (v < 0));
}

struct NanosToMicrosOp {
  static bool Load(const ColumnInput& input, int64_t index, int32_t, uint64_t* slot) {
    *slot = static_cast<uint64_t>(FloorDivide(row::Load<int64_t>(input.values + index * 8), 1000));
    return true;
  }
  static std::string Describe(const ColumnInput&, int64_t, int32_t) { return {}; }
};

struct Date64Op {
  static constexpr int64_t kMillisPerDay = 86400000;
  static bool Load(const ColumnInput& input, int64_t index, int32_t, uint64_t* slot) {
    int64_t days = FloorDivide(row::Load<int64_t>(input.values + index * 8), kMillisPerDay);
    *slot = static_cast<uint32_t>(static_cast<int32_t>(days));
    return days >= std::numeric_limits<int32_t>::min() && days <= std::numeric_limits<int32_t>::max();
  }
  static std::string Describe(const ColumnInput& input, int64_t index, int32_t) {
    return std::to_string(row::Load<int64_t>(input.values + index * 8)) +
           " ms is outside the int32 range of days";
  }
};

/// Reads a decimal of kBytes bytes whose unscaled value must fit `precision`
/// digits (<= 18) and writes it as a long.
template <int kBytes>
struct SmallDecimalOp {
  static bool ReadUnscaled(const ColumnInput& input, int64_t index, int64_t* out) {
    const uint8_t* p = input.values + index * kBytes;
    if constexpr (kBytes == 4) {
      *out = row::Load<int32_t>(p);
      return true;
    } else if constexpr (kBytes == 8) {
      *out = row::Load<int64_t>(p);
      return true;
    } else {
      // The upper words must be the sign extension of the low 64 bits.
      int64_t low = row::Load<int64_t>(p);
      uint64_t sign = low < 0 ? ~uint64_t{0} : 0;
      bool fits = true;
      for (int word = 1; word < kBytes / 8; ++word) fits &= row::Load<uint64_t>(p + word * 8) == sign;
      *out = low;
      return fits;
    }
  }
  static bool Load(const ColumnInput& input, int64_t index, int32_t precision, uint64_t* slot) {
    int64_t v;
    bool fits = ReadUnscaled(input, index, &v);
    *slot = static_cast<uint64_t>(v);
    return fits & FitsPrecision(v, precision);
  }
  static std::string Describe(const ColumnInput& input, int64_t index, int32_t precision) {
    return "unscaled value " + DecimalToString(input.values + index * kBytes, kBytes) +
           " does not fit precision " + std::to_string(precision);
  }
};

template <typename Op>
struct FixedKernel {
  template <bool kGathered, bool kAllValid>
  static Status Write(const ColumnTarget& target, const ColumnInput& input_ref, int64_t row_begin,
                      int64_t num_rows, const RowSink& sink_ref) {
    const ColumnInput input = input_ref;
    const RowSink sink = sink_ref;
    const int64_t slot_offset = target.slot_offset;
    const NullBit null_bit = NullBitOf(target);
    const int32_t precision = target.precision;
    bool ok = true;
    for (int64_t k = 0; k < num_rows; ++k) {
      int64_t r = row_begin + k;
      uint8_t* row = sink.base + sink.row_offsets[k];
      uint64_t slot = 0;
      if (IsValid<kAllValid>(input, r)) {
        ok &= Op::Load(input, ValueIndex<kGathered>(input, r), precision, &slot);
      } else {
        SetNull(row, null_bit);
      }
      Store64(row + slot_offset, slot);
    }
    if (ok) return Status::Ok();
    for (int64_t k = 0; k < num_rows; ++k) {
      int64_t r = row_begin + k;
      uint64_t slot;
      if (IsValid<kAllValid>(input, r) &&
          !Op::Load(input, ValueIndex<kGathered>(input, r), target.precision, &slot)) {
        return Status::Overflow(ColumnRowError(
            target, r, Op::Describe(input, ValueIndex<kGathered>(input, r), target.precision)));
      }
    }
    return Status::Internal(ColumnRowError(target, row_begin, "value check failed without a row"));
  }
};

template <typename Op>
WriterSet Fixed() {
  return MakeWriterSet<FixedKernel<Op>, false>();
}

constexpr char kSeconds[] = "s";
constexpr char kMillis[] = "ms";

WriterSet TimeWriters(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return Fixed<ScaleUpOp<1000000, kSeconds>>();
    case TimeUnit::kMilli: return Fixed<ScaleUpOp<1000, kMillis>>();
    case TimeUnit::kMicro: return Fixed<CopyOp<int64_t>>();
    case TimeUnit::kNano: return Fixed<NanosToMicrosOp>();
  }
  return {};
}

}  // namespace

Status FixedWidthWriters(const ArrowType& type, WriterSet* out) {
  switch (type.id) {
    case ArrowTypeId::kBool: *out = Fixed<BoolOp>(); return Status::Ok();
    case ArrowTypeId::kInt8:
    case ArrowTypeId::kUInt8: *out = Fixed<CopyOp<uint8_t>>(); return Status::Ok();
    case ArrowTypeId::kInt16:
    case ArrowTypeId::kUInt16: *out = Fixed<CopyOp<uint16_t>>(); return Status::Ok();
    case ArrowTypeId::kInt32:
    case ArrowTypeId::kUInt32:
    case ArrowTypeId::kDate32:
    case ArrowTypeId::kIntervalYearMonth: *out = Fixed<CopyOp<uint32_t>>(); return Status::Ok();
    case ArrowTypeId::kInt64: *out = Fixed<CopyOp<uint64_t>>(); return Status::Ok();
    case ArrowTypeId::kFloat32: *out = Fixed<CopyOp<float>>(); return Status::Ok();
    case ArrowTypeId::kFloat64: *out = Fixed<CopyOp<double>>(); return Status::Ok();
    case ArrowTypeId::kDate64: *out = Fixed<Date64Op>(); return Status::Ok();
    case ArrowTypeId::kTimestamp:
    case ArrowTypeId::kDuration: *out = TimeWriters(type.unit); return Status::Ok();
    case ArrowTypeId::kDecimal:
      if (type.precision > kMaxSmallDecimalDigits) break;
      switch (type.bit_width) {
        case 32: *out = Fixed<SmallDecimalOp<4>>(); return Status::Ok();
        case 64: *out = Fixed<SmallDecimalOp<8>>(); return Status::Ok();
        case 128: *out = Fixed<SmallDecimalOp<16>>(); return Status::Ok();
        case 256: *out = Fixed<SmallDecimalOp<32>>(); return Status::Ok();
        default: break;
      }
      break;
    default: break;
  }
  return Status::NotSupported("no slot writer for " + ArrowTypeName(type));
}

}  // namespace rowbridge::row
