#include "support/test_arrow.hpp"

namespace rowbridge::testing {
namespace {

/// Offsets (or sizes) as int64 when `large`, else as int32.
Bytes OffsetBytes(const std::vector<int64_t>& offsets, bool large) {
  if (large) return ToBytes(offsets);
  std::vector<int32_t> narrow(offsets.begin(), offsets.end());
  return ToBytes(narrow);
}

void AppendInt32(Bytes* out, int32_t v) {
  uint8_t b[4];
  std::memcpy(b, &v, 4);
  out->insert(out->end(), b, b + 4);
}

/// Sets the length, validity bitmap and null count of a nested node.
void SetValidity(TestArray* a, int64_t length, const std::vector<bool>& valid) {
  a->length = length;
  a->null_count = 0;
  for (bool v : valid) a->null_count += v ? 0 : 1;
  a->buffers = {valid.empty() ? std::nullopt : ValidityBitmap(valid)};
}

}  // namespace

std::string EncodeMetadata(const std::vector<std::pair<std::string, std::string>>& pairs) {
  Bytes out;
  AppendInt32(&out, static_cast<int32_t>(pairs.size()));
  for (const auto& [key, value] : pairs) {
    AppendInt32(&out, static_cast<int32_t>(key.size()));
    out.insert(out.end(), key.begin(), key.end());
    AppendInt32(&out, static_cast<int32_t>(value.size()));
    out.insert(out.end(), value.begin(), value.end());
  }
  return std::string(out.begin(), out.end());
}

TestArray Extension(TestArray storage, const std::string& name, const std::string& metadata,
                    bool extended) {
  if (extended) {
    storage.metadata =
        EncodeMetadata({{"ARROW:extension:name", name}, {"ARROW:extension:metadata", metadata}});
  }
  return storage;
}

std::optional<Bytes> ValidityBitmap(const std::vector<bool>& valid) {
  owned_arrow::ValidityBuilder bitmap;
  for (bool v : valid) bitmap.Append(v);
  return bitmap.Finish();
}

TestArray Bool(const std::string& name, const std::vector<std::optional<bool>>& values) {
  TestArray a;
  a.format = "b";
  a.name = name;
  a.length = static_cast<int64_t>(values.size());
  owned_arrow::ValidityBuilder validity;
  owned_arrow::ValidityBuilder bits;
  for (const auto& v : values) {
    validity.Append(v.has_value());
    bits.Append(v.value_or(false));
  }
  a.null_count = validity.null_count();
  a.buffers = {validity.Finish(), bits.FinishBits()};
  return a;
}

TestArray Strings(const std::string& format, const std::string& name,
                  const std::vector<std::optional<std::string>>& values) {
  bool large = format == "U" || format == "Z";
  TestArray a;
  a.format = format;
  a.name = name;
  a.length = static_cast<int64_t>(values.size());
  std::vector<bool> valid;
  std::vector<int64_t> offsets{0};
  Bytes data;
  for (const auto& v : values) {
    valid.push_back(v.has_value());
    if (v) data.insert(data.end(), v->begin(), v->end());
    else ++a.null_count;
    offsets.push_back(static_cast<int64_t>(data.size()));
  }
  a.buffers = {ValidityBitmap(valid), OffsetBytes(offsets, large), data};
  return a;
}

TestArray Views(const std::string& format, const std::string& name,
                const std::vector<std::optional<std::string>>& values, size_t buffer_bytes) {
  TestArray a;
  a.format = format;
  a.name = name;
  a.length = static_cast<int64_t>(values.size());
  std::vector<bool> valid;
  Bytes views;
  std::vector<Bytes> data_buffers;
  for (const auto& v : values) {
    valid.push_back(v.has_value());
    uint8_t view[16] = {};
    if (!v) ++a.null_count;
    std::string s = v.value_or("");
    int32_t length = static_cast<int32_t>(s.size());
    std::memcpy(view, &length, 4);
    if (s.size() <= 12) {
      std::memcpy(view + 4, s.data(), s.size());
    } else {
      if (data_buffers.empty() || data_buffers.back().size() + s.size() > buffer_bytes) {
        data_buffers.emplace_back();
      }
      int32_t buffer = static_cast<int32_t>(data_buffers.size() - 1);
      int32_t offset = static_cast<int32_t>(data_buffers.back().size());
      data_buffers.back().insert(data_buffers.back().end(), s.begin(), s.end());
      std::memcpy(view + 4, s.data(), 4);
      std::memcpy(view + 8, &buffer, 4);
      std::memcpy(view + 12, &offset, 4);
    }
    views.insert(views.end(), view, view + 16);
  }
  a.buffers = {ValidityBitmap(valid), views};
  std::vector<int64_t> sizes;
  for (Bytes& buffer : data_buffers) {
    sizes.push_back(static_cast<int64_t>(buffer.size()));
    a.buffers.emplace_back(std::move(buffer));
  }
  a.buffers.emplace_back(ToBytes(sizes));
  return a;
}

TestArray FixedSizeBinary(const std::string& name, int32_t width,
                          const std::vector<std::optional<std::string>>& values) {
  TestArray a;
  a.format = "w:" + std::to_string(width);
  a.name = name;
  a.length = static_cast<int64_t>(values.size());
  std::vector<bool> valid;
  Bytes data;
  for (const auto& v : values) {
    valid.push_back(v.has_value());
    std::string s = v.value_or(std::string(static_cast<size_t>(width), '\0'));
    s.resize(static_cast<size_t>(width), '\0');
    data.insert(data.end(), s.begin(), s.end());
    if (!v) ++a.null_count;
  }
  a.buffers = {ValidityBitmap(valid), data};
  return a;
}

TestArray Decimal(const std::string& name, int32_t bit_width, int32_t precision, int32_t scale,
                  const std::vector<std::optional<Int128>>& values) {
  TestArray a;
  a.format = "d:" + std::to_string(precision) + "," + std::to_string(scale);
  if (bit_width != 128) a.format += "," + std::to_string(bit_width);
  a.name = name;
  a.length = static_cast<int64_t>(values.size());
  std::vector<bool> valid;
  Bytes data;
  size_t width = static_cast<size_t>(bit_width / 8);
  for (const auto& v : values) {
    valid.push_back(v.has_value());
    Int128 x = v.value_or(0);
    uint8_t bytes[32];
    std::memset(bytes, x < 0 ? 0xff : 0x00, sizeof(bytes));
    std::memcpy(bytes, &x, 16);
    data.insert(data.end(), bytes, bytes + width);
    if (!v) ++a.null_count;
  }
  a.buffers = {ValidityBitmap(valid), data};
  return a;
}

TestArray Nulls(const std::string& name, int64_t length) {
  TestArray a;
  a.format = "n";
  a.name = name;
  a.length = length;
  a.null_count = length;
  return a;
}

TestArray Dictionary(TestArray indices, TestArray values) {
  values.name = "";
  indices.dictionary = std::make_shared<TestArray>(std::move(values));
  return indices;
}

TestArray Slice(TestArray array, int64_t offset, int64_t length) {
  array.offset += offset;
  array.length = length;
  if (array.null_count != 0 && array.format != "n") array.null_count = -1;
  if (array.format == "n") array.null_count = length;
  return array;
}

TestArray MonthDayNano(const std::string& name,
                       const std::vector<std::optional<MonthDayNanoValue>>& values) {
  TestArray a;
  a.format = "tin";
  a.name = name;
  a.length = static_cast<int64_t>(values.size());
  std::vector<bool> valid;
  Bytes data;
  for (const auto& v : values) {
    valid.push_back(v.has_value());
    MonthDayNanoValue x = v.value_or(MonthDayNanoValue{});
    uint8_t bytes[16];
    std::memcpy(bytes, &x.months, 4);
    std::memcpy(bytes + 4, &x.days, 4);
    std::memcpy(bytes + 8, &x.nanos, 8);
    data.insert(data.end(), bytes, bytes + 16);
    if (!v) ++a.null_count;
  }
  a.buffers = {ValidityBitmap(valid), data};
  return a;
}

TestArray Struct(const std::string& name, int64_t length, std::vector<TestArray> fields,
                 const std::vector<bool>& valid) {
  TestArray a;
  a.format = "+s";
  a.name = name;
  SetValidity(&a, length, valid);
  a.children = std::move(fields);
  return a;
}

TestArray List(const std::string& name, TestArray values, const std::vector<int64_t>& offsets,
               const std::vector<bool>& valid, bool large) {
  TestArray a;
  a.format = large ? "+L" : "+l";
  a.name = name;
  SetValidity(&a, static_cast<int64_t>(offsets.size()) - 1, valid);
  a.buffers.emplace_back(OffsetBytes(offsets, large));
  if (values.name.empty()) values.name = "item";
  a.children = {std::move(values)};
  return a;
}

TestArray ListOfLengths(const std::string& name, TestArray values,
                        const std::vector<std::optional<int64_t>>& lengths, bool large) {
  std::vector<int64_t> offsets{0};
  std::vector<bool> valid;
  bool any_null = false;
  for (const auto& length : lengths) {
    offsets.push_back(offsets.back() + length.value_or(0));
    valid.push_back(length.has_value());
    any_null |= !length.has_value();
  }
  return List(name, std::move(values), offsets, any_null ? valid : std::vector<bool>{}, large);
}

TestArray FixedSizeList(const std::string& name, int32_t size, TestArray values,
                        const std::vector<bool>& valid) {
  TestArray a;
  a.format = "+w:" + std::to_string(size);
  a.name = name;
  int64_t length =
      !valid.empty() || size == 0 ? static_cast<int64_t>(valid.size()) : values.length / size;
  SetValidity(&a, length, valid);
  if (values.name.empty()) values.name = "item";
  a.children = {std::move(values)};
  return a;
}

TestArray ListView(const std::string& name, TestArray values, const std::vector<int64_t>& offsets,
                   const std::vector<int64_t>& sizes, const std::vector<bool>& valid, bool large) {
  TestArray a;
  a.format = large ? "+vL" : "+vl";
  a.name = name;
  SetValidity(&a, static_cast<int64_t>(offsets.size()), valid);
  a.buffers.emplace_back(OffsetBytes(offsets, large));
  a.buffers.emplace_back(OffsetBytes(sizes, large));
  if (values.name.empty()) values.name = "item";
  a.children = {std::move(values)};
  return a;
}

TestArray Map(const std::string& name, TestArray keys, TestArray values,
              const std::vector<int64_t>& offsets, const std::vector<bool>& valid) {
  keys.name = "key";
  keys.nullable = false;
  values.name = "value";
  int64_t entries_length = keys.length;
  TestArray entries = Struct("entries", entries_length, {std::move(keys), std::move(values)});
  entries.nullable = false;
  TestArray a;
  a.format = "+m";
  a.name = name;
  SetValidity(&a, static_cast<int64_t>(offsets.size()) - 1, valid);
  a.buffers.emplace_back(OffsetBytes(offsets, false));
  a.children = {std::move(entries)};
  return a;
}

std::string Hex(const uint8_t* data, size_t size) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(size * 2);
  for (size_t i = 0; i < size; ++i) {
    out += kDigits[data[i] >> 4];
    out += kDigits[data[i] & 15];
  }
  return out;
}

}  // namespace rowbridge::testing
