#include "support/random_columns.hpp"

#include <cstdio>
#include <functional>
#include <limits>

namespace rowbridge::testing {
namespace {

int ByteWidth(const std::string& f) {
  if (f == "c" || f == "C") return 1;
  if (f == "s" || f == "S") return 2;
  if (f == "i" || f == "I" || f == "f" || f == "tdD" || f == "tiM") return 4;
  if (f == "tin") return 16;
  if (f.rfind("d:", 0) == 0) {
    size_t last = f.rfind(',');
    return f.find(',') == last ? 16 : std::stoi(f.substr(last + 1)) / 8;
  }
  if (f.rfind("w:", 0) == 0) return std::stoi(f.substr(2));
  if (f == "l" || f == "L" || f == "g" || f == "tdm" || f[0] == 't') return 8;
  return 0;  // bool, null, variable width
}

int64_t RandomInt64(Rng& rng) {
  switch (rng.Range(0, 6)) {
    case 0: return 0;
    case 1: return rng.Chance(0.5) ? -1 : 1;
    case 2:
      return rng.Chance(0.5) ? std::numeric_limits<int64_t>::min()
                             : std::numeric_limits<int64_t>::max();
    case 3: return rng.Range(-1000, 1000);
    default: return static_cast<int64_t>(rng.Next());
  }
}

/// An int64 within ±bound, or (when `extremes`, rarely) anything.
int64_t Bounded(Rng& rng, int64_t bound, bool extremes) {
  if (extremes && rng.Chance(0.03)) return RandomInt64(rng);
  if (rng.Chance(0.1)) return rng.Chance(0.5) ? bound : -bound;
  return rng.Range(-bound, bound) / (rng.Chance(0.5) ? 1 : 1000000);
}

Int128 Pow10(int n) {
  Int128 v = 1;
  for (int i = 0; i < n; ++i) v *= 10;
  return v;
}

Int128 RandomDecimal(Rng& rng, int precision, bool extremes) {
  Int128 limit = Pow10(precision);
  Int128 v;
  switch (rng.Range(0, 4)) {
    case 0: v = limit - 1; break;
    case 1: v = static_cast<Int128>(rng.Range(0, 200)); break;
    default: {
      int digits = static_cast<int>(rng.Range(1, precision));
      v = 0;
      for (int d = 0; d < digits; ++d) v = v * 10 + static_cast<Int128>(rng.Range(0, 9));
    }
  }
  if (extremes && rng.Chance(0.03)) v = limit + static_cast<Int128>(rng.Range(0, 1000));
  return rng.Chance(0.5) ? -v : v;
}

std::string RandomBytes(Rng& rng, size_t length) {
  std::string s(length, '\0');
  for (char& c : s)
    c = static_cast<char>(rng.Chance(0.7) ? rng.Range('a', 'z') : rng.Range(0, 255));
  return s;
}

std::optional<std::string> RandomString(Rng& rng, const ColumnSpec& spec) {
  if (rng.Chance(spec.null_rate)) return std::nullopt;
  static const std::vector<int64_t> kInteresting = {0, 7, 8, 9, 12, 13, 16, 17, 40};
  int64_t length = rng.Chance(0.3) ? rng.Pick(kInteresting) : rng.Range(0, 40);
  return RandomBytes(rng, static_cast<size_t>(length));
}

template <typename T>
TestArray RandomPrimitive(Rng& rng, const ColumnSpec& spec, const std::string& name, int64_t n,
                          const std::function<T()>& value) {
  std::vector<std::optional<T>> values;
  for (int64_t i = 0; i < n; ++i)
    values.push_back(rng.Chance(spec.null_rate) ? std::nullopt : std::optional<T>(value()));
  return testing::Primitive<T>(spec.format, name, values);
}

}  // namespace

/// `n` random values of spec's type (nulls at spec.null_rate), named `name`.
TestArray RandomValues(Rng& rng, const ColumnSpec& spec, const std::string& name, int64_t n) {
  const std::string& f = spec.format;
  TestArray out;
  if (f == "n") return testing::Nulls(name, n);
  if (f == "b") {
    std::vector<std::optional<bool>> values;
    for (int64_t i = 0; i < n; ++i)
      values.push_back(rng.Chance(spec.null_rate) ? std::nullopt
                                                  : std::optional<bool>(rng.Chance(0.5)));
    return testing::Bool(name, values);
  }
  auto any = [&] { return RandomInt64(rng); };
  if (f == "c")
    out = RandomPrimitive<int8_t>(rng, spec, name, n, [&] { return static_cast<int8_t>(any()); });
  else if (f == "C")
    out = RandomPrimitive<uint8_t>(rng, spec, name, n, [&] { return static_cast<uint8_t>(any()); });
  else if (f == "s")
    out = RandomPrimitive<int16_t>(rng, spec, name, n, [&] { return static_cast<int16_t>(any()); });
  else if (f == "S")
    out =
        RandomPrimitive<uint16_t>(rng, spec, name, n, [&] { return static_cast<uint16_t>(any()); });
  else if (f == "i" || f == "tdD" || f == "tiM") {
    out = RandomPrimitive<int32_t>(rng, spec, name, n, [&] { return static_cast<int32_t>(any()); });
  } else if (f == "I") {
    out =
        RandomPrimitive<uint32_t>(rng, spec, name, n, [&] { return static_cast<uint32_t>(any()); });
  } else if (f == "l" || f == "L" || f == "tDu" || f == "tDn" || f.rfind("tsu:", 0) == 0 ||
             f.rfind("tsn:", 0) == 0) {
    out = RandomPrimitive<int64_t>(rng, spec, name, n, any);
  } else if (f == "tdm") {
    out = RandomPrimitive<int64_t>(rng, spec, name, n,
                                   [&] { return Bounded(rng, 185542587187199999, spec.extremes); });
  } else if (f == "tDs" || f.rfind("tss:", 0) == 0) {
    out = RandomPrimitive<int64_t>(rng, spec, name, n,
                                   [&] { return Bounded(rng, 9223372036854, spec.extremes); });
  } else if (f == "tDm" || f.rfind("tsm:", 0) == 0) {
    out = RandomPrimitive<int64_t>(rng, spec, name, n,
                                   [&] { return Bounded(rng, 9223372036854775, spec.extremes); });
  } else if (f == "f") {
    static const std::vector<uint32_t> kSpecial = {0x7fc00001u, 0xffc00000u, 0x7f800001u,
                                                   0x80000000u, 0x7f800000u, 0xff800000u};
    out = RandomPrimitive<uint32_t>(rng, spec, name, n, [&] {
      return rng.Chance(0.2) ? rng.Pick(kSpecial) : static_cast<uint32_t>(rng.Next());
    });
  } else if (f == "g") {
    static const std::vector<uint64_t> kSpecial = {0xfff8000000000001ull, 0x7ff0000000000001ull,
                                                   0x8000000000000000ull, 0x7ff0000000000000ull,
                                                   0xfff0000000000000ull};
    out = RandomPrimitive<uint64_t>(
        rng, spec, name, n, [&] { return rng.Chance(0.2) ? rng.Pick(kSpecial) : rng.Next(); });
  } else if (f == "tin") {
    std::vector<std::optional<testing::MonthDayNanoValue>> values;
    for (int64_t i = 0; i < n; ++i) {
      if (rng.Chance(spec.null_rate)) values.push_back(std::nullopt);
      else
        values.push_back(testing::MonthDayNanoValue{static_cast<int32_t>(any()),
                                                    static_cast<int32_t>(any()), any()});
    }
    out = testing::MonthDayNano(name, values);
  } else if (f.rfind("d:", 0) == 0) {
    int precision = 0, scale = 0;
    std::sscanf(f.c_str(), "d:%d,%d", &precision, &scale);
    std::vector<std::optional<Int128>> values;
    for (int64_t i = 0; i < n; ++i) {
      values.push_back(rng.Chance(spec.null_rate)
                           ? std::nullopt
                           : std::optional<Int128>(RandomDecimal(rng, precision, spec.extremes)));
    }
    out = testing::Decimal(name, ByteWidth(f) * 8, precision, scale, values);
    out.format = f;
  } else if (f.rfind("w:", 0) == 0) {
    int width = ByteWidth(f);
    std::vector<std::optional<std::string>> values;
    for (int64_t i = 0; i < n; ++i) {
      values.push_back(rng.Chance(spec.null_rate) ? std::nullopt
                                                  : std::optional<std::string>(RandomBytes(
                                                        rng, static_cast<size_t>(width))));
    }
    return testing::FixedSizeBinary(name, width, values);
  } else {
    std::vector<std::optional<std::string>> values;
    for (int64_t i = 0; i < n; ++i) values.push_back(RandomString(rng, spec));
    if (f == "vu" || f == "vz")
      return testing::Views(f, name, values, static_cast<size_t>(rng.Range(13, 200)));
    return testing::Strings(f, name, values);
  }
  // Garbage under the nulls: a null's bytes must never be read as a value.
  int width = ByteWidth(f);
  if (out.null_count > 0 && width > 0 && rng.Chance(0.5)) {
    for (int64_t i = 0; i < n; ++i) {
      if ((((*out.buffers[0])[static_cast<size_t>(i / 8)] >> (i % 8)) & 1) == 0) {
        for (int b = 0; b < width; ++b)
          (*out.buffers[1])[static_cast<size_t>(i * width + b)] = static_cast<uint8_t>(rng.Next());
      }
    }
  }
  return out;
}

TestArray IntegerArray(const std::string& format, const std::string& name,
                       const std::vector<std::optional<int64_t>>& v) {
  auto make = [&](auto tag) {
    using T = decltype(tag);
    std::vector<std::optional<T>> typed;
    for (const auto& x : v)
      typed.push_back(x ? std::optional<T>(static_cast<T>(*x)) : std::nullopt);
    return testing::Primitive<T>(format, name, typed);
  };
  if (format == "c") return make(int8_t{});
  if (format == "C") return make(uint8_t{});
  if (format == "s") return make(int16_t{});
  if (format == "S") return make(uint16_t{});
  if (format == "i") return make(int32_t{});
  if (format == "I") return make(uint32_t{});
  if (format == "l") return make(int64_t{});
  return make(uint64_t{});
}

/// A column of `n` rows of `spec` in `encoding`, possibly sliced.
TestArray MakeColumn(Rng& rng, const ColumnSpec& spec, const EncodingSpec& encoding, int64_t n) {
  int64_t pad = rng.Chance(0.3) ? rng.Range(1, 20) : 0;
  int64_t total = n + pad;
  TestArray column;
  if (encoding.encoding == Encoding::kPlain) {
    column = RandomValues(rng, spec, spec.name, total);
  } else if (encoding.encoding == Encoding::kDictionary) {
    int64_t size = rng.Range(1, 20);
    int64_t dictionary_pad = rng.Chance(0.3) ? rng.Range(1, 5) : 0;
    TestArray dictionary = RandomValues(rng, spec, "", size + dictionary_pad);
    if (dictionary_pad > 0) dictionary = testing::Slice(dictionary, dictionary_pad, size);
    std::vector<std::optional<int64_t>> indices;
    for (int64_t i = 0; i < total; ++i) {
      indices.push_back(rng.Chance(spec.null_rate)
                            ? std::nullopt
                            : std::optional<int64_t>(rng.Range(0, size - 1)));
    }
    column =
        testing::Dictionary(IntegerArray(encoding.index_format, spec.name, indices), dictionary);
  } else {
    std::vector<std::optional<int64_t>> ends;
    int64_t child_pad = rng.Chance(0.2) ? rng.Range(1, 3) : 0;
    for (int64_t k = 0; k < child_pad; ++k)
      ends.push_back(rng.Range(-5, 500));  // skipped by the child offset
    for (int64_t end = 0; end < total;) {
      end += rng.Chance(0.1) ? rng.Range(1, 100) : rng.Range(1, 6);
      ends.push_back(end);
    }
    int64_t runs = static_cast<int64_t>(ends.size()) - child_pad;
    TestArray run_ends = IntegerArray(encoding.index_format, "", ends);
    TestArray values = RandomValues(rng, spec, "", runs + child_pad);
    if (child_pad > 0) {
      run_ends = testing::Slice(run_ends, child_pad, runs);
      values = testing::Slice(values, child_pad, runs);
    }
    column = testing::RunEnd(spec.name, total, run_ends, values);
  }
  if (pad > 0) column = testing::Slice(column, pad, n);
  column.nullable = spec.nullable;
  return column;
}

EncodingSpec RandomEncoding(Rng& rng) {
  double p = static_cast<double>(rng.Range(0, 99)) / 100;
  if (p < 0.55) return {};
  if (p < 0.8)
    return {Encoding::kDictionary,
            rng.Pick(std::vector<std::string>{"c", "C", "s", "S", "i", "I", "l", "L"})};
  return {Encoding::kRunEnd, rng.Pick(std::vector<std::string>{"s", "i", "l"})};
}

std::string RandomFormat(Rng& rng) {
  static const std::vector<std::string> kFormats = {
      "n",       "b",       "c",    "C",       "s",
      "S",       "i",       "I",    "l",       "L",
      "f",       "g",       "tdD",  "tdm",     "tss:",
      "tsm:",    "tsu:",    "tsn:", "tss:UTC", "tsm:Asia/Tokyo",
      "tsu:UTC", "tsn:UTC", "tDs",  "tDm",     "tDu",
      "tDn",     "tiM",     "tin",  "u",       "U",
      "z",       "Z",       "vu",   "vz",      "w:",
      "d:"};
  std::string f = rng.Pick(kFormats);
  if (f == "w:") return f + std::to_string(rng.Range(0, 24));
  if (f == "d:") {
    int64_t precision = rng.Chance(0.5) ? rng.Range(1, 18) : rng.Range(19, 38);
    int64_t scale = rng.Range(0, precision);
    std::vector<int64_t> widths = {128, 256};
    if (precision <= 18) widths.push_back(64);
    if (precision <= 9) widths.push_back(32);
    int64_t width = rng.Pick(widths);
    std::string out = "d:" + std::to_string(precision) + "," + std::to_string(scale);
    return width == 128 && rng.Chance(0.5) ? out : out + "," + std::to_string(width);
  }
  return f;
}

}  // namespace rowbridge::testing
