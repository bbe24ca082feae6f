#include "arrow/arrow_type.hpp"

#include <charconv>
#include <cstring>
#include <string_view>

namespace rowbridge {
namespace {

Status MalformedFormat(std::string_view format) {
  return Status::Invalid("malformed Arrow format string '" + std::string(format) + "'");
}

/// Parses a decimal integer that spans all of `text`.
bool ParseInt(std::string_view text, int32_t* out) {
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  auto result = std::from_chars(text.data(), end, *out);
  return result.ec == std::errc() && result.ptr == end;
}

bool ParseUnit(char c, TimeUnit* unit) {
  switch (c) {
    case 's': *unit = TimeUnit::kSecond; return true;
    case 'm': *unit = TimeUnit::kMilli; return true;
    case 'u': *unit = TimeUnit::kMicro; return true;
    case 'n': *unit = TimeUnit::kNano; return true;
    default: return false;
  }
}

/// Parses "d:P,S" or "d:P,S,W".
Status ParseDecimal(std::string_view format, ArrowType* out) {
  std::string_view rest = format.substr(2);
  size_t comma = rest.find(',');
  if (comma == std::string_view::npos) return MalformedFormat(format);
  std::string_view precision = rest.substr(0, comma);
  rest = rest.substr(comma + 1);
  std::string_view scale = rest;
  std::string_view width = "128";
  comma = rest.find(',');
  if (comma != std::string_view::npos) {
    scale = rest.substr(0, comma);
    width = rest.substr(comma + 1);
  }
  out->id = ArrowTypeId::kDecimal;
  if (!ParseInt(precision, &out->precision) || !ParseInt(scale, &out->scale) ||
      !ParseInt(width, &out->bit_width)) {
    return MalformedFormat(format);
  }
  if (out->bit_width != 32 && out->bit_width != 64 && out->bit_width != 128 &&
      out->bit_width != 256) {
    return MalformedFormat(format);
  }
  return Status::Ok();
}

Status ParseTemporal(std::string_view format, ArrowType* out) {
  // 't' followed by a kind letter and a unit letter, plus ":tz" for timestamps.
  if (format.size() < 3) return MalformedFormat(format);
  char kind = format[1];
  char unit = format[2];
  switch (kind) {
    case 'd':
      if (format.size() != 3) return MalformedFormat(format);
      if (unit == 'D') out->id = ArrowTypeId::kDate32;
      else if (unit == 'm') out->id = ArrowTypeId::kDate64;
      else return MalformedFormat(format);
      return Status::Ok();
    case 't':
      if (format.size() != 3 || !ParseUnit(unit, &out->unit)) return MalformedFormat(format);
      out->id = (unit == 's' || unit == 'm') ? ArrowTypeId::kTime32 : ArrowTypeId::kTime64;
      return Status::Ok();
    case 's':
      if (format.size() < 4 || format[3] != ':' || !ParseUnit(unit, &out->unit)) {
        return MalformedFormat(format);
      }
      out->id = ArrowTypeId::kTimestamp;
      out->timezone = std::string(format.substr(4));
      out->has_timezone = !out->timezone.empty();
      return Status::Ok();
    case 'D':
      if (format.size() != 3 || !ParseUnit(unit, &out->unit)) return MalformedFormat(format);
      out->id = ArrowTypeId::kDuration;
      return Status::Ok();
    case 'i':
      if (format.size() != 3) return MalformedFormat(format);
      if (unit == 'M') out->id = ArrowTypeId::kIntervalYearMonth;
      else if (unit == 'D') out->id = ArrowTypeId::kIntervalDayTime;
      else if (unit == 'n') out->id = ArrowTypeId::kIntervalMonthDayNano;
      else return MalformedFormat(format);
      return Status::Ok();
    default: return MalformedFormat(format);
  }
}

Status ParseNested(std::string_view format, ArrowType* out) {
  if (format.size() < 2) return MalformedFormat(format);
  std::string_view kind = format.substr(1);
  if (kind == "s") out->id = ArrowTypeId::kStruct;
  else if (kind == "l") out->id = ArrowTypeId::kList;
  else if (kind == "L") out->id = ArrowTypeId::kLargeList;
  else if (kind == "vl") out->id = ArrowTypeId::kListView;
  else if (kind == "vL") out->id = ArrowTypeId::kLargeListView;
  else if (kind == "m") out->id = ArrowTypeId::kMap;
  else if (kind == "r") out->id = ArrowTypeId::kRunEndEncoded;
  else if (kind.substr(0, 2) == "w:") {
    out->id = ArrowTypeId::kFixedSizeList;
    if (!ParseInt(kind.substr(2), &out->fixed_size) || out->fixed_size < 0) {
      return MalformedFormat(format);
    }
  } else if (kind.substr(0, 3) == "ud:") {
    out->id = ArrowTypeId::kDenseUnion;
  } else if (kind.substr(0, 3) == "us:") {
    out->id = ArrowTypeId::kSparseUnion;
  } else {
    return MalformedFormat(format);
  }
  return Status::Ok();
}

}  // namespace

Status ParseFormat(const char* format, ArrowType* out) {
  if (format == nullptr) return Status::Invalid("missing Arrow format string (format is NULL)");
  *out = ArrowType();
  std::string_view f(format);
  if (f.empty()) return MalformedFormat(f);
  if (f.size() == 1) {
    switch (f[0]) {
      case 'n': out->id = ArrowTypeId::kNull; return Status::Ok();
      case 'b': out->id = ArrowTypeId::kBool; return Status::Ok();
      case 'c': out->id = ArrowTypeId::kInt8; return Status::Ok();
      case 'C': out->id = ArrowTypeId::kUInt8; return Status::Ok();
      case 's': out->id = ArrowTypeId::kInt16; return Status::Ok();
      case 'S': out->id = ArrowTypeId::kUInt16; return Status::Ok();
      case 'i': out->id = ArrowTypeId::kInt32; return Status::Ok();
      case 'I': out->id = ArrowTypeId::kUInt32; return Status::Ok();
      case 'l': out->id = ArrowTypeId::kInt64; return Status::Ok();
      case 'L': out->id = ArrowTypeId::kUInt64; return Status::Ok();
      case 'e': out->id = ArrowTypeId::kFloat16; return Status::Ok();
      case 'f': out->id = ArrowTypeId::kFloat32; return Status::Ok();
      case 'g': out->id = ArrowTypeId::kFloat64; return Status::Ok();
      case 'u': out->id = ArrowTypeId::kUtf8; return Status::Ok();
      case 'U': out->id = ArrowTypeId::kLargeUtf8; return Status::Ok();
      case 'z': out->id = ArrowTypeId::kBinary; return Status::Ok();
      case 'Z': out->id = ArrowTypeId::kLargeBinary; return Status::Ok();
      default: return MalformedFormat(f);
    }
  }
  if (f == "vu") {
    out->id = ArrowTypeId::kUtf8View;
    return Status::Ok();
  }
  if (f == "vz") {
    out->id = ArrowTypeId::kBinaryView;
    return Status::Ok();
  }
  switch (f[0]) {
    case 'w':
      if (f[1] != ':' || !ParseInt(f.substr(2), &out->fixed_size) || out->fixed_size < 0) {
        return MalformedFormat(f);
      }
      out->id = ArrowTypeId::kFixedSizeBinary;
      return Status::Ok();
    case 'd':
      if (f[1] != ':') return MalformedFormat(f);
      return ParseDecimal(f, out);
    case 't': return ParseTemporal(f, out);
    case '+': return ParseNested(f, out);
    default: return MalformedFormat(f);
  }
}

namespace {
const char* UnitName(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return "s";
    case TimeUnit::kMilli: return "ms";
    case TimeUnit::kMicro: return "us";
    case TimeUnit::kNano: return "ns";
  }
  return "?";
}
}  // namespace

std::string ArrowTypeName(const ArrowType& type) {
  switch (type.id) {
    case ArrowTypeId::kNull: return "null";
    case ArrowTypeId::kBool: return "bool";
    case ArrowTypeId::kInt8: return "int8";
    case ArrowTypeId::kInt16: return "int16";
    case ArrowTypeId::kInt32: return "int32";
    case ArrowTypeId::kInt64: return "int64";
    case ArrowTypeId::kUInt8: return "uint8";
    case ArrowTypeId::kUInt16: return "uint16";
    case ArrowTypeId::kUInt32: return "uint32";
    case ArrowTypeId::kUInt64: return "uint64";
    case ArrowTypeId::kFloat16: return "float16";
    case ArrowTypeId::kFloat32: return "float32";
    case ArrowTypeId::kFloat64: return "float64";
    case ArrowTypeId::kDecimal:
      return "decimal" + std::to_string(type.bit_width) + "(" + std::to_string(type.precision) +
             ", " + std::to_string(type.scale) + ")";
    case ArrowTypeId::kDate32: return "date32";
    case ArrowTypeId::kDate64: return "date64";
    case ArrowTypeId::kTime32: return std::string("time32[") + UnitName(type.unit) + "]";
    case ArrowTypeId::kTime64: return std::string("time64[") + UnitName(type.unit) + "]";
    case ArrowTypeId::kTimestamp:
      return std::string("timestamp[") + UnitName(type.unit) +
             (type.has_timezone ? ", tz=" + type.timezone : std::string()) + "]";
    case ArrowTypeId::kDuration: return std::string("duration[") + UnitName(type.unit) + "]";
    case ArrowTypeId::kIntervalYearMonth: return "interval[year_month]";
    case ArrowTypeId::kIntervalDayTime: return "interval[day_time]";
    case ArrowTypeId::kIntervalMonthDayNano: return "interval[month_day_nano]";
    case ArrowTypeId::kUtf8: return "utf8";
    case ArrowTypeId::kLargeUtf8: return "large_utf8";
    case ArrowTypeId::kUtf8View: return "utf8_view";
    case ArrowTypeId::kBinary: return "binary";
    case ArrowTypeId::kLargeBinary: return "large_binary";
    case ArrowTypeId::kBinaryView: return "binary_view";
    case ArrowTypeId::kFixedSizeBinary:
      return "fixed_size_binary[" + std::to_string(type.fixed_size) + "]";
    case ArrowTypeId::kStruct: return "struct";
    case ArrowTypeId::kList: return "list";
    case ArrowTypeId::kLargeList: return "large_list";
    case ArrowTypeId::kFixedSizeList:
      return "fixed_size_list[" + std::to_string(type.fixed_size) + "]";
    case ArrowTypeId::kListView: return "list_view";
    case ArrowTypeId::kLargeListView: return "large_list_view";
    case ArrowTypeId::kMap: return "map";
    case ArrowTypeId::kRunEndEncoded: return "run_end_encoded";
    case ArrowTypeId::kDenseUnion: return "dense_union";
    case ArrowTypeId::kSparseUnion: return "sparse_union";
  }
  return "unknown";
}

int32_t PrimitiveByteWidth(const ArrowType& type) {
  switch (type.id) {
    case ArrowTypeId::kInt8:
    case ArrowTypeId::kUInt8: return 1;
    case ArrowTypeId::kInt16:
    case ArrowTypeId::kUInt16:
    case ArrowTypeId::kFloat16: return 2;
    case ArrowTypeId::kInt32:
    case ArrowTypeId::kUInt32:
    case ArrowTypeId::kFloat32:
    case ArrowTypeId::kDate32:
    case ArrowTypeId::kTime32:
    case ArrowTypeId::kIntervalYearMonth: return 4;
    case ArrowTypeId::kInt64:
    case ArrowTypeId::kUInt64:
    case ArrowTypeId::kFloat64:
    case ArrowTypeId::kDate64:
    case ArrowTypeId::kTime64:
    case ArrowTypeId::kTimestamp:
    case ArrowTypeId::kDuration:
    case ArrowTypeId::kIntervalDayTime: return 8;
    case ArrowTypeId::kIntervalMonthDayNano: return 16;
    case ArrowTypeId::kDecimal: return type.bit_width / 8;
    case ArrowTypeId::kFixedSizeBinary: return type.fixed_size;
    default: return 0;
  }
}

int32_t ExpectedBufferCount(const ArrowType& type) {
  switch (type.id) {
    case ArrowTypeId::kNull:
    case ArrowTypeId::kRunEndEncoded: return 0;
    case ArrowTypeId::kStruct:
    case ArrowTypeId::kFixedSizeList:
    case ArrowTypeId::kSparseUnion: return 1;
    case ArrowTypeId::kUtf8:
    case ArrowTypeId::kLargeUtf8:
    case ArrowTypeId::kBinary:
    case ArrowTypeId::kLargeBinary:
    case ArrowTypeId::kListView:
    case ArrowTypeId::kLargeListView: return 3;
    case ArrowTypeId::kUtf8View:
    case ArrowTypeId::kBinaryView: return 3;  // validity, views, variadic sizes (+ data buffers)
    case ArrowTypeId::kDenseUnion: return 2;
    default: return 2;
  }
}

int64_t MicrosPerUnit(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return 1000000;
    case TimeUnit::kMilli: return 1000;
    case TimeUnit::kMicro: return 1;
    case TimeUnit::kNano: return 0;
  }
  return 0;
}

}  // namespace rowbridge
