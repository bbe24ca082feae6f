#include "support/reference_row_writer.hpp"

#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "support/reference_values.hpp"

namespace rowbridge::testing {
namespace reference_detail {
namespace {

// ---------------------------------------------------------------------------
// Reading the description.

const uint8_t* Buffer(const TestArray& a, size_t i) {
  if (i >= a.buffers.size() || !a.buffers[i]) return nullptr;
  return a.buffers[i]->data();
}

bool Bit(const uint8_t* bitmap, int64_t i) { return (bitmap[i / 8] >> (i % 8)) & 1; }

/// Is element `index` (physical, offset already applied) of `a` non-null?
bool IsValid(const TestArray& a, int64_t index) {
  if (a.format == "n") return false;
  if (a.null_count == 0) return true;
  const uint8_t* validity = Buffer(a, 0);
  return validity == nullptr || Bit(validity, index);
}

template <typename T>
T Read(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

/// Reads element `index` of an integer array of Arrow `format`.
Int128 ReadInteger(const std::string& format, const uint8_t* values, int64_t index) {
  if (format == "c") return Read<int8_t>(values + index);
  if (format == "C") return Read<uint8_t>(values + index);
  if (format == "s") return Read<int16_t>(values + 2 * index);
  if (format == "S") return Read<uint16_t>(values + 2 * index);
  if (format == "i") return Read<int32_t>(values + 4 * index);
  if (format == "I") return Read<uint32_t>(values + 4 * index);
  if (format == "l") return Read<int64_t>(values + 8 * index);
  if (format == "L") return Read<uint64_t>(values + 8 * index);
  throw std::runtime_error("not an integer format: " + format);
}

}  // namespace

Located Locate(const TestArray& column, int64_t logical) {
  int64_t j = column.offset + logical;
  if (column.dictionary) {
    if (!IsValid(column, j)) return {};
    const TestArray& dictionary = *column.dictionary;
    int64_t key = static_cast<int64_t>(ReadInteger(column.format, Buffer(column, 1), j));
    if (key < 0 || key >= dictionary.length)
      throw std::runtime_error("dictionary index out of range");
    int64_t index = dictionary.offset + key;
    return {&dictionary, index, IsValid(dictionary, index)};
  }
  if (column.format == "+r") {
    const TestArray& ends = column.children.at(0);
    const TestArray& values = column.children.at(1);
    for (int64_t run = 0; run < ends.length; ++run) {
      if (ReadInteger(ends.format, Buffer(ends, 1), ends.offset + run) > j) {
        int64_t index = values.offset + run;
        return {&values, index, IsValid(values, index)};
      }
    }
    throw std::runtime_error("row past the last run end");
  }
  return {&column, j, IsValid(column, j)};
}

// ---------------------------------------------------------------------------
// Writing a value.

uint64_t OffsetAndSize(int64_t offset, int64_t size) {
  return (static_cast<uint64_t>(offset) << 32) | static_cast<uint64_t>(size);
}

namespace {

Int128 FloorDiv(Int128 a, Int128 b) {
  Int128 q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) q -= 1;
  return q;
}

bool FitsInt64(Int128 v) { return v >= INT64_MIN && v <= INT64_MAX; }

/// Microseconds per unit letter, or -1000 meaning "divide by 1000" (ns).
Int128 ToMicros(char unit, int64_t v) {
  switch (unit) {
    case 's': return static_cast<Int128>(v) * 1000000;
    case 'm': return static_cast<Int128>(v) * 1000;
    case 'u': return v;
    default: return FloorDiv(v, 1000);
  }
}

Int128 Pow10(int digits) {
  Int128 v = 1;
  for (int i = 0; i < digits; ++i) v *= 10;
  return v;
}

/// Java's BigInteger.toByteArray of `v`: the fewest big-endian bytes whose
/// two's complement reading is `v`.
std::vector<uint8_t> JavaBigIntegerBytes(Int128 v) {
  int n = 1;
  while (n < 16) {
    Int128 half = static_cast<Int128>(1) << (8 * n - 1);
    if (v >= -half && v < half) break;
    ++n;
  }
  std::vector<uint8_t> out(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i)
    out[static_cast<size_t>(n - 1 - i)] = static_cast<uint8_t>(v >> (8 * i));
  return out;
}

struct DecimalFormat {
  int precision = 0;
  int scale = 0;
  int bit_width = 128;
};

DecimalFormat ParseDecimal(const std::string& format) {
  DecimalFormat d;
  int fields = std::sscanf(format.c_str(), "d:%d,%d,%d", &d.precision, &d.scale, &d.bit_width);
  if (fields < 2) throw std::runtime_error("bad decimal format " + format);
  return d;
}

/// Reads a decimal of `bit_width` as a 128-bit value; false when it needs more.
bool ReadDecimal(const uint8_t* values, int64_t index, int bit_width, Int128* out) {
  int bytes = bit_width / 8;
  const uint8_t* p = values + index * bytes;
  if (bytes == 4) *out = Read<int32_t>(p);
  else if (bytes == 8) *out = Read<int64_t>(p);
  else *out = Read<Int128>(p);
  if (bytes == 32) {
    uint8_t sign = *out < 0 ? 0xff : 0x00;
    for (int b = 16; b < 32; ++b) {
      if (p[b] != sign) return false;
    }
  }
  return true;
}

}  // namespace

bool WriteValue(ValueSink& row, int64_t field, const std::string& format, const Located& at) {
  const bool large_decimal =
      format == "L" || (format.rfind("d:", 0) == 0 && ParseDecimal(format).precision > 18);
  // In a row, large decimals and intervals take 16 bytes null or not; in an
  // array a null element takes none.
  const int64_t reserve = row.in_array() ? 0 : 16;
  if (!at.valid) {
    row.SetNull(field);
    if (row.in_array()) return true;
    if (format == "tin") row.SetSlot(field, OffsetAndSize(row.Append(nullptr, 0, 16), 16));
    if (large_decimal) row.SetSlot(field, OffsetAndSize(row.Append(nullptr, 0, 16), 0));
    return true;
  }
  if (IsNestedFormat(format)) {
    bool overflow = false;
    Bytes bytes = EncodeNested(*at.node, at.index, &overflow);
    int64_t size = static_cast<int64_t>(bytes.size());
    row.SetSlot(field, OffsetAndSize(row.Append(bytes.data(), size), size));
    return !overflow;
  }
  const TestArray& node = *at.node;
  const int64_t i = at.index;
  const uint8_t* values = Buffer(node, 1);
  // Integers, unsigned ones widened to the next Spark type.
  if (format == "c") row.SetSlot(field, static_cast<uint64_t>(Read<int8_t>(values + i)), 1);
  else if (format == "C") row.SetSlot(field, Read<uint8_t>(values + i), 2);
  else if (format == "s")
    row.SetSlot(field, static_cast<uint64_t>(Read<int16_t>(values + 2 * i)), 2);
  else if (format == "S") row.SetSlot(field, Read<uint16_t>(values + 2 * i), 4);
  else if (format == "i" || format == "tdD" || format == "tiM") {
    row.SetSlot(field, static_cast<uint64_t>(Read<int32_t>(values + 4 * i)), 4);
  } else if (format == "I") {
    row.SetSlot(field, Read<uint32_t>(values + 4 * i), 8);
  } else if (format == "l") {
    row.SetSlot(field, static_cast<uint64_t>(Read<int64_t>(values + 8 * i)));
  } else if (format == "b") {
    row.SetSlot(field, Bit(values, i) ? 1 : 0, 1);
  } else if (format == "f") {
    row.SetSlot(field, Read<uint32_t>(values + 4 * i), 4);
  } else if (format == "g") {
    row.SetSlot(field, Read<uint64_t>(values + 8 * i));
  } else if (format == "tdm") {
    Int128 days = FloorDiv(Read<int64_t>(values + 8 * i), 86400000);
    if (days < INT32_MIN || days > INT32_MAX) return false;
    row.SetSlot(field, static_cast<uint64_t>(static_cast<int64_t>(days)), 4);
  } else if (format.rfind("ts", 0) == 0 || format.rfind("tD", 0) == 0) {
    Int128 micros = ToMicros(format[2], Read<int64_t>(values + 8 * i));
    if (!FitsInt64(micros)) return false;
    row.SetSlot(field, static_cast<uint64_t>(static_cast<int64_t>(micros)));
  } else if (format == "tin") {
    uint8_t interval[16];
    std::memcpy(interval, values + 16 * i, 8);                   // int32 months, int32 days
    int64_t micros = Read<int64_t>(values + 16 * i + 8) / 1000;  // truncated toward zero
    std::memcpy(interval + 8, &micros, 8);
    row.SetSlot(field, OffsetAndSize(row.Append(interval, 16), 16));
  } else if (format == "L" || format.rfind("d:", 0) == 0) {
    Int128 unscaled;
    int precision = 20;
    bool fits = true;
    if (format == "L") {
      unscaled = Read<uint64_t>(values + 8 * i);
    } else {
      DecimalFormat d = ParseDecimal(format);
      precision = d.precision;
      fits = ReadDecimal(values, i, d.bit_width, &unscaled);
    }
    Int128 limit = Pow10(precision);
    if (!fits || unscaled >= limit || unscaled <= -limit) {
      // Keep the size the library computes: 16 bytes in a row, the minimal
      // bytes of the low 128 bits in an array.
      if (large_decimal)
        row.Append(nullptr, static_cast<int64_t>(JavaBigIntegerBytes(unscaled).size()), reserve);
      return false;
    }
    if (large_decimal) {
      std::vector<uint8_t> bytes = JavaBigIntegerBytes(unscaled);
      int64_t size = static_cast<int64_t>(bytes.size());
      row.SetSlot(field, OffsetAndSize(row.Append(bytes.data(), size, reserve), size));
    } else {
      row.SetSlot(field, static_cast<uint64_t>(static_cast<int64_t>(unscaled)));
    }
  } else if (format == "u" || format == "z") {
    int32_t begin = Read<int32_t>(values + 4 * i);
    int32_t end = Read<int32_t>(values + 4 * (i + 1));
    row.SetSlot(field,
                OffsetAndSize(row.Append(Buffer(node, 2) + begin, end - begin), end - begin));
  } else if (format == "U" || format == "Z") {
    int64_t begin = Read<int64_t>(values + 8 * i);
    int64_t end = Read<int64_t>(values + 8 * (i + 1));
    row.SetSlot(field,
                OffsetAndSize(row.Append(Buffer(node, 2) + begin, end - begin), end - begin));
  } else if (format == "vu" || format == "vz") {
    const uint8_t* view = values + 16 * i;
    int32_t size = Read<int32_t>(view);
    const uint8_t* data = view + 4;
    if (size > 12) {
      int32_t buffer = Read<int32_t>(view + 8);
      int32_t offset = Read<int32_t>(view + 12);
      data = Buffer(node, static_cast<size_t>(2 + buffer)) + offset;
    }
    row.SetSlot(field, OffsetAndSize(row.Append(data, size), size));
  } else if (format.rfind("w:", 0) == 0) {
    int64_t width = std::stoll(format.substr(2));
    row.SetSlot(field, OffsetAndSize(row.Append(values + width * i, width), width));
  } else if (format != "n") {
    throw std::runtime_error("the reference does not know format " + format);
  }
  return true;
}

const std::string& ValueFormat(const TestArray& column) {
  if (column.dictionary) return column.dictionary->format;
  if (column.format == "+r") return column.children.at(1).format;
  return column.format;
}

bool IsNestedFormat(const std::string& format) {
  return !format.empty() && format[0] == '+' && format != "+r";
}

}  // namespace reference_detail

using reference_detail::Locate;
using reference_detail::RowWriter;
using reference_detail::ValueFormat;
using reference_detail::WriteValue;

ReferenceRows ReferenceConvert(const TestArray& batch) {
  ReferenceRows out;
  try {
    const int64_t fields = static_cast<int64_t>(batch.children.size());
    for (int64_t r = 0; r < batch.length; ++r) {
      RowWriter row(fields);
      for (int64_t f = 0; f < fields; ++f) {
        const TestArray& column = batch.children[static_cast<size_t>(f)];
        const std::string& format = ValueFormat(column);
        if (!WriteValue(row, f, format, Locate(column, batch.offset + r))) {
          out.overflows.push_back({f, r});
        }
      }
      out.rows.push_back(row.Finish());
    }
  } catch (const std::exception& e) {
    out.error = e.what();
  }
  return out;
}

std::string DescribeBatch(const TestArray& batch) {
  std::string out = "batch offset " + std::to_string(batch.offset) + " length " +
                    std::to_string(batch.length) + ":";
  for (const TestArray& column : batch.children) {
    out += " " + column.name + "=";
    if (column.dictionary) {
      out += "dictionary<" + column.format + "," + column.dictionary->format + " len " +
             std::to_string(column.dictionary->length) + " off " +
             std::to_string(column.dictionary->offset) + ">";
    } else if (column.format == "+r") {
      const TestArray& ends = column.children.at(0);
      out += "ree<" + ends.format + " runs " + std::to_string(ends.length) + " off " +
             std::to_string(ends.offset) + "," + column.children.at(1).format + ">";
    } else {
      out += column.format;
    }
    out += "[off " + std::to_string(column.offset) + " len " + std::to_string(column.length) +
           " nulls " + std::to_string(column.null_count) + "]";
  }
  return out;
}

}  // namespace rowbridge::testing
