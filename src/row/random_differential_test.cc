// Randomized differential test: random flat schemas (every flat type; plain,
// dictionary-encoded and run-end encoded columns; sliced batches, columns,
// dictionaries and run-end children), random lengths, nulls, strings and
// extreme values, converted by the library (random validation level, random
// small chunk caps, schema re-encoding between batches) and compared byte for
// byte with the independent reference writer, errors included.
//
// ROWBRIDGE_TEST_SEED sets the seed (iteration i uses seed + i; rerun one with
// ROWBRIDGE_TEST_SEED=<seed + i> ROWBRIDGE_RANDOM_ITERATIONS=1) and
// ROWBRIDGE_RANDOM_ITERATIONS the number of schemas (default 300).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>

#include "rowbridge/converter.hpp"
#include "testing/reference_row_writer.hpp"
#include "testing/row_test_util.hpp"
#include "testing/test_arrow.hpp"

#include "testing/reference_row_writer.hpp"

namespace rowbridge {
namespace {

using testing::Bytes;
using testing::Int128;
using testing::TestArray;

constexpr uint64_t kDefaultSeed = 0x5eed2024;

uint64_t EnvOr(const char* name, uint64_t fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  return std::strtoull(text, nullptr, 0);
}

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {  // splitmix64
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// Uniform in [lo, hi].
  int64_t Range(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(Next() % (static_cast<uint64_t>(hi - lo) + 1));
  }
  bool Chance(double p) { return static_cast<double>(Next() >> 11) * 0x1.0p-53 < p; }
  template <typename T>
  const T& Pick(const std::vector<T>& items) {
    return items[static_cast<size_t>(Range(0, static_cast<int64_t>(items.size()) - 1))];
  }

 private:
  uint64_t state_;
};

struct ColumnSpec {
  std::string name;
  std::string format;  // of the values
  double null_rate = 0;
  bool nullable = true;
  bool extremes = false;  // may hold values that overflow their Spark type
};

enum class Encoding { kPlain, kDictionary, kRunEnd };
struct EncodingSpec {
  Encoding encoding = Encoding::kPlain;
  std::string index_format;  // dictionary indices or run ends
};

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
    case 2: return rng.Chance(0.5) ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max();
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
  for (char& c : s) c = static_cast<char>(rng.Chance(0.7) ? rng.Range('a', 'z') : rng.Range(0, 255));
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
  for (int64_t i = 0; i < n; ++i) values.push_back(rng.Chance(spec.null_rate) ? std::nullopt : std::optional<T>(value()));
  return testing::Primitive<T>(spec.format, name, values);
}

/// `n` random values of spec's type (nulls at spec.null_rate), named `name`.
TestArray RandomValues(Rng& rng, const ColumnSpec& spec, const std::string& name, int64_t n) {
  const std::string& f = spec.format;
  TestArray out;
  if (f == "n") return testing::Nulls(name, n);
  if (f == "b") {
    std::vector<std::optional<bool>> values;
    for (int64_t i = 0; i < n; ++i) values.push_back(rng.Chance(spec.null_rate) ? std::nullopt : std::optional<bool>(rng.Chance(0.5)));
    return testing::Bool(name, values);
  }
  auto any = [&] { return RandomInt64(rng); };
  if (f == "c") out = RandomPrimitive<int8_t>(rng, spec, name, n, [&] { return static_cast<int8_t>(any()); });
  else if (f == "C") out = RandomPrimitive<uint8_t>(rng, spec, name, n, [&] { return static_cast<uint8_t>(any()); });
  else if (f == "s") out = RandomPrimitive<int16_t>(rng, spec, name, n, [&] { return static_cast<int16_t>(any()); });
  else if (f == "S") out = RandomPrimitive<uint16_t>(rng, spec, name, n, [&] { return static_cast<uint16_t>(any()); });
  else if (f == "i" || f == "tdD" || f == "tiM") {
    out = RandomPrimitive<int32_t>(rng, spec, name, n, [&] { return static_cast<int32_t>(any()); });
  } else if (f == "I") {
    out = RandomPrimitive<uint32_t>(rng, spec, name, n, [&] { return static_cast<uint32_t>(any()); });
  } else if (f == "l" || f == "L" || f == "tDu" || f == "tDn" || f.rfind("tsu:", 0) == 0 || f.rfind("tsn:", 0) == 0) {
    out = RandomPrimitive<int64_t>(rng, spec, name, n, any);
  } else if (f == "tdm") {
    out = RandomPrimitive<int64_t>(rng, spec, name, n, [&] { return Bounded(rng, 185542587187199999, spec.extremes); });
  } else if (f == "tDs" || f.rfind("tss:", 0) == 0) {
    out = RandomPrimitive<int64_t>(rng, spec, name, n, [&] { return Bounded(rng, 9223372036854, spec.extremes); });
  } else if (f == "tDm" || f.rfind("tsm:", 0) == 0) {
    out = RandomPrimitive<int64_t>(rng, spec, name, n, [&] { return Bounded(rng, 9223372036854775, spec.extremes); });
  } else if (f == "f") {
    static const std::vector<uint32_t> kSpecial = {0x7fc00001u, 0xffc00000u, 0x7f800001u, 0x80000000u, 0x7f800000u, 0xff800000u};
    out = RandomPrimitive<uint32_t>(rng, spec, name, n,
                                    [&] { return rng.Chance(0.2) ? rng.Pick(kSpecial) : static_cast<uint32_t>(rng.Next()); });
  } else if (f == "g") {
    static const std::vector<uint64_t> kSpecial = {0xfff8000000000001ull, 0x7ff0000000000001ull, 0x8000000000000000ull,
                                                  0x7ff0000000000000ull, 0xfff0000000000000ull};
    out = RandomPrimitive<uint64_t>(rng, spec, name, n, [&] { return rng.Chance(0.2) ? rng.Pick(kSpecial) : rng.Next(); });
  } else if (f == "tin") {
    std::vector<std::optional<testing::MonthDayNanoValue>> values;
    for (int64_t i = 0; i < n; ++i) {
      if (rng.Chance(spec.null_rate)) values.push_back(std::nullopt);
      else values.push_back(testing::MonthDayNanoValue{static_cast<int32_t>(any()), static_cast<int32_t>(any()), any()});
    }
    out = testing::MonthDayNano(name, values);
  } else if (f.rfind("d:", 0) == 0) {
    int precision = 0, scale = 0;
    std::sscanf(f.c_str(), "d:%d,%d", &precision, &scale);
    std::vector<std::optional<Int128>> values;
    for (int64_t i = 0; i < n; ++i) {
      values.push_back(rng.Chance(spec.null_rate) ? std::nullopt : std::optional<Int128>(RandomDecimal(rng, precision, spec.extremes)));
    }
    out = testing::Decimal(name, ByteWidth(f) * 8, precision, scale, values);
    out.format = f;
  } else if (f.rfind("w:", 0) == 0) {
    int width = ByteWidth(f);
    std::vector<std::optional<std::string>> values;
    for (int64_t i = 0; i < n; ++i) {
      values.push_back(rng.Chance(spec.null_rate) ? std::nullopt : std::optional<std::string>(RandomBytes(rng, static_cast<size_t>(width))));
    }
    return testing::FixedSizeBinary(name, width, values);
  } else {
    std::vector<std::optional<std::string>> values;
    for (int64_t i = 0; i < n; ++i) values.push_back(RandomString(rng, spec));
    if (f == "vu" || f == "vz") return testing::Views(f, name, values, static_cast<size_t>(rng.Range(13, 200)));
    return testing::Strings(f, name, values);
  }
  // Garbage under the nulls: a null's bytes must never be read as a value.
  int width = ByteWidth(f);
  if (out.null_count > 0 && width > 0 && rng.Chance(0.5)) {
    for (int64_t i = 0; i < n; ++i) {
      if ((((*out.buffers[0])[static_cast<size_t>(i / 8)] >> (i % 8)) & 1) == 0) {
        for (int b = 0; b < width; ++b) (*out.buffers[1])[static_cast<size_t>(i * width + b)] = static_cast<uint8_t>(rng.Next());
      }
    }
  }
  return out;
}

TestArray IntegerArray(const std::string& format, const std::string& name, const std::vector<std::optional<int64_t>>& v) {
  auto make = [&](auto tag) {
    using T = decltype(tag);
    std::vector<std::optional<T>> typed;
    for (const auto& x : v) typed.push_back(x ? std::optional<T>(static_cast<T>(*x)) : std::nullopt);
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
      indices.push_back(rng.Chance(spec.null_rate) ? std::nullopt : std::optional<int64_t>(rng.Range(0, size - 1)));
    }
    column = testing::Dictionary(IntegerArray(encoding.index_format, spec.name, indices), dictionary);
  } else {
    std::vector<std::optional<int64_t>> ends;
    int64_t child_pad = rng.Chance(0.2) ? rng.Range(1, 3) : 0;
    for (int64_t k = 0; k < child_pad; ++k) ends.push_back(rng.Range(-5, 500));  // skipped by the child offset
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
  if (p < 0.8) return {Encoding::kDictionary, rng.Pick(std::vector<std::string>{"c", "C", "s", "S", "i", "I", "l", "L"})};
  return {Encoding::kRunEnd, rng.Pick(std::vector<std::string>{"s", "i", "l"})};
}

std::string RandomFormat(Rng& rng) {
  static const std::vector<std::string> kFormats = {
      "n",   "b",   "c",    "C",   "s",    "S",    "i",       "I",   "l",       "L",       "f",   "g",
      "tdD", "tdm", "tss:", "tsm:", "tsu:", "tsn:", "tss:UTC", "tsm:Asia/Tokyo", "tsu:UTC", "tsn:UTC", "tDs", "tDm",
      "tDu", "tDn", "tiM",  "tin", "u",    "U",    "z",       "Z",   "vu",      "vz",      "w:",  "d:"};
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

/// The rows or error the library must produce for `reference` with `cap`.
struct Outcome {
  size_t good_rows = 0;  // rows returned before any error
  StatusCode code = StatusCode::kOk;
  int64_t capacity_row = -1;
  std::vector<testing::ReferenceCell> cells;  // overflow: the error names one of these
};

Outcome Expect(const testing::ReferenceRows& reference, int64_t cap) {
  Outcome out;
  const auto& rows = reference.rows;
  size_t i = 0;
  while (i < rows.size()) {
    if (static_cast<int64_t>(rows[i].size()) > cap) {
      out.code = StatusCode::kCapacity;
      out.capacity_row = static_cast<int64_t>(i);
      break;
    }
    size_t j = i;
    int64_t total = 0;
    while (j < rows.size() && total + static_cast<int64_t>(rows[j].size()) <= cap) total += static_cast<int64_t>(rows[j++].size());
    // A chunk holding an overflowing value fails as a whole; the order in
    // which its cells are written is the library's choice.
    for (const testing::ReferenceCell& cell : reference.overflows) {
      if (cell.row >= static_cast<int64_t>(i) && cell.row < static_cast<int64_t>(j)) out.cells.push_back(cell);
    }
    if (!out.cells.empty()) {
      out.code = StatusCode::kOverflow;
      break;
    }
    i = j;
  }
  out.good_rows = i;
  return out;
}

/// Succeeds when `message` names one of `cells` as "'column' ... row R:".
::testing::AssertionResult NamesACell(const std::string& message, const std::vector<testing::ReferenceCell>& cells,
                                      const std::vector<std::string>& names) {
  for (const testing::ReferenceCell& cell : cells) {
    std::string column = "'" + names[static_cast<size_t>(cell.column)] + "'";
    std::string row = "row " + std::to_string(cell.row) + ":";
    size_t at = message.find(column);
    if (at != std::string::npos && message.find(row, at) != std::string::npos) return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "'" << message << "' names none of the " << cells.size()
                                       << " overflowing cells, the first being column "
                                       << (cells.empty() ? -1 : cells[0].column) << " row "
                                       << (cells.empty() ? -1 : cells[0].row);
}

void RunIteration(uint64_t seed) {
  Rng rng(seed);
  int64_t num_columns = rng.Chance(0.05) ? rng.Range(60, 80) : rng.Range(1, 12);
  bool overflow_schema = rng.Chance(0.1);
  std::vector<ColumnSpec> specs;
  for (int64_t c = 0; c < num_columns; ++c) {
    ColumnSpec spec;
    spec.name = "c" + std::to_string(c);
    spec.format = RandomFormat(rng);
    spec.null_rate = rng.Pick(std::vector<double>{0, 0, 0.1, 0.5, 0.95});
    spec.nullable = spec.null_rate > 0 || spec.format == "n" || rng.Chance(0.5);
    spec.extremes = overflow_schema && rng.Chance(0.3);
    specs.push_back(spec);
  }
  bool reencode = rng.Chance(0.25);
  std::vector<EncodingSpec> encodings;
  for (int64_t c = 0; c < num_columns; ++c) encodings.push_back(RandomEncoding(rng));

  ConverterOptions options;
  options.validation = rng.Chance(0.5) ? Validation::kFull : Validation::kCheap;
  int64_t num_batches = rng.Range(1, 3);
  std::unique_ptr<Converter> converter;
  std::unique_ptr<testing::ExportedBatch> registered;
  for (int64_t b = 0; b < num_batches; ++b) {
    int64_t length = rng.Chance(0.1) ? rng.Range(0, 1) : rng.Range(0, 300);
    int64_t batch_offset = rng.Chance(0.25) ? rng.Range(1, 30) : 0;
    int64_t extra = batch_offset > 0 ? rng.Range(0, 5) : 0;
    if (reencode) {
      for (auto& encoding : encodings) encoding = RandomEncoding(rng);
    }
    std::vector<TestArray> columns;
    for (int64_t c = 0; c < num_columns; ++c) {
      columns.push_back(MakeColumn(rng, specs[static_cast<size_t>(c)], encodings[static_cast<size_t>(c)],
                                   batch_offset + length + extra));
    }
    TestArray batch = testing::Batch(std::move(columns));
    if (batch_offset + extra > 0) batch = testing::Slice(batch, batch_offset, length);
    testing::ReferenceRows reference = testing::ReferenceConvert(batch);
    ASSERT_EQ(reference.error, "") << testing::DescribeBatch(batch);

    if (converter == nullptr) {
      int64_t largest = 8;
      for (const Bytes& row : reference.rows) largest = std::max(largest, static_cast<int64_t>(row.size()));
      if (rng.Chance(0.4)) options.max_chunk_bytes = rng.Range(largest, 4 * largest);
      else if (rng.Chance(0.1)) options.max_chunk_bytes = rng.Range(8, largest);
      TestArray schema = testing::SchemaNode("+s", "");
      for (const ColumnSpec& spec : specs) {
        TestArray plain = testing::SchemaNode(spec.format, spec.name);
        plain.nullable = spec.nullable;
        schema.children.push_back(plain);
      }
      registered = testing::ExportBatch(reencode ? schema : batch);
      Status status = Converter::Make(registered->schema.schema, options, &converter);
      ASSERT_TRUE(status.ok()) << status.message();
    }
    Outcome expected = Expect(reference, options.max_chunk_bytes);
    SCOPED_TRACE("batch " + std::to_string(b) + " " + testing::DescribeBatch(batch) + "; cap " +
                 std::to_string(options.max_chunk_bytes) + ", validation " +
                 std::to_string(static_cast<int>(options.validation)) + (reencode ? ", re-encoding" : ""));
    auto exported = testing::ExportBatch(batch);
    bool pass_schema = reencode || rng.Chance(0.5);
    testing::Conversion actual =
        testing::Drain(*converter, exported->array.array, pass_schema ? &exported->schema.schema : nullptr);
    if (expected.code == StatusCode::kOk) {
      ASSERT_TRUE(actual.status.ok()) << actual.status.message();
    } else if (expected.code == StatusCode::kCapacity) {
      ASSERT_TRUE(testing::IsError(actual.status, StatusCode::kCapacity,
                                   {"row " + std::to_string(expected.capacity_row) + " "}));
    } else {
      ASSERT_EQ(actual.status.code(), StatusCode::kOverflow) << actual.status.message();
      std::vector<std::string> names;
      for (const ColumnSpec& spec : specs) names.push_back(spec.name);
      ASSERT_TRUE(NamesACell(actual.status.message(), expected.cells, names));
    }
    ASSERT_EQ(actual.rows.size(), expected.good_rows) << actual.status.message();
    for (size_t r = 0; r < expected.good_rows; ++r) {
      ASSERT_EQ(testing::Hex(actual.rows[r]), testing::Hex(reference.rows[r])) << "row " << r;
    }
  }
}

TEST(RandomDifferential, LibraryMatchesTheReferenceWriter) {
  uint64_t seed = EnvOr("ROWBRIDGE_TEST_SEED", kDefaultSeed);
  uint64_t iterations = EnvOr("ROWBRIDGE_RANDOM_ITERATIONS", 300);
  RecordProperty("seed", std::to_string(seed));
  for (uint64_t i = 0; i < iterations; ++i) {
    SCOPED_TRACE("ROWBRIDGE_TEST_SEED=" + std::to_string(seed + i) + " (seed " + std::to_string(seed) +
                 ", iteration " + std::to_string(i) + ")");
    RunIteration(seed + i);
    if (HasFailure()) break;
  }
}

// The reference writer itself, on hand-computed rows (SPEC section 3).
TEST(ReferenceRowWriter, AgreesWithHandComputedBytes) {
  TestArray batch = testing::Batch({
      testing::Primitive<int32_t>("i", "a", {-1, std::nullopt}),
      testing::Strings("u", "s", {"abcdefghi", ""}),
      testing::Decimal("d", 128, 38, 0, {-129, std::nullopt}),
      testing::MonthDayNano("iv", {std::nullopt, testing::MonthDayNanoValue{1, 2, -1}}),
  });
  testing::ReferenceRows reference = testing::ReferenceConvert(batch);
  ASSERT_EQ(reference.error, "");
  ASSERT_EQ(reference.rows.size(), 2u);
  EXPECT_EQ(testing::Hex(reference.rows[0]), testing::CleanHex("0800000000000000"   // null bits: iv
                                                               "ffffffff00000000"   // a = -1
                                                               "0900000028000000"   // s: 9 bytes at 40
                                                               "0200000038000000"   // d: 2 bytes at 56
                                                               "1000000048000000"   // iv: 16 bytes at 72
                                                               "6162636465666768"   // "abcdefgh"
                                                               "6900000000000000"   // "i"
                                                               "ff7f000000000000"   // d = ff 7f
                                                               "0000000000000000"   //
                                                               "0000000000000000"   // iv null: zeros
                                                               "0000000000000000"));
  EXPECT_EQ(testing::Hex(reference.rows[1]), testing::CleanHex("0500000000000000"   // null bits: a, d
                                                               "0000000000000000"   // a null
                                                               "0000000028000000"   // s: empty at 40
                                                               "0000000028000000"   // d null at 40
                                                               "1000000038000000"   // iv at 56
                                                               "0000000000000000"   // d: 16 zero bytes
                                                               "0000000000000000"   //
                                                               "0100000002000000"   // months 1, days 2
                                                               "ffffffffffffffff"));  // -1 ns -> -1 us
  TestArray overflow = testing::Batch({testing::Primitive<int64_t>("tss:", "t", {1, int64_t{1} << 62})});
  reference = testing::ReferenceConvert(overflow);
  ASSERT_EQ(reference.overflows.size(), 1u);
  EXPECT_EQ(reference.overflows[0].row, 1);
}

}  // namespace
}  // namespace rowbridge
