#include "bench/bench_data.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "bench/column_builders.hpp"
#include "bench/nested_bench_data.hpp"
#include "bench/seeded_random.hpp"

namespace rowbridge::bench {
namespace {

constexpr int64_t kDictionarySize = 1024;
constexpr int64_t kMaxRunLength = 16;
// Streams past this offset draw dictionary values, never row values.
constexpr uint64_t kDictionaryStream = uint64_t{1} << 32;

std::vector<ColumnSpec> Numbered(const std::string& prefix, int count, ColumnKind kind,
                                 double null_probability) {
  std::vector<ColumnSpec> columns;
  for (int i = 0; i < count; ++i) {
    columns.push_back({prefix + std::to_string(i), kind, null_probability});
  }
  return columns;
}

void AppendAll(std::vector<ColumnSpec>* columns, std::vector<ColumnSpec> more) {
  columns->insert(columns->end(), more.begin(), more.end());
}

std::string RandomString(SeededRandom* random) {
  std::string value(static_cast<size_t>(random->Uniform(5, 60)), ' ');
  for (char& c : value) c = static_cast<char>(random->Uniform(0x20, 0x7e));
  return value;
}

/// Writes the 16-byte little-endian two's complement of sign * (high:low).
void AppendInt128(FixedWidthBuilder* builder, uint64_t high, uint64_t low, bool negative) {
  if (negative) {
    low = ~low + 1;
    high = ~high + (low == 0 ? 1 : 0);
  }
  uint64_t words[2] = {low, high};
  builder->Append(words);
}

/// The byte width of a fixed-width column's values (indices, for a dictionary).
int32_t ValueWidth(ColumnKind kind) {
  switch (kind) {
    case ColumnKind::kInt32:
    case ColumnKind::kDictionaryString: return 4;
    case ColumnKind::kSmallDecimal:
    case ColumnKind::kLargeDecimal: return 16;
    default: return 8;
  }
}

/// The generated data of one column of a dataset.
struct ColumnSource {
  const ColumnSpec* spec = nullptr;
  uint64_t seed = 0;
  uint64_t stream = 0;
  std::shared_ptr<ArrayNode> dictionary;

  SeededRandom Cell(int64_t row) const {
    return SeededRandom::For(seed, stream, static_cast<uint64_t>(row));
  }

  ArrayNode Make(int64_t first_row, int64_t num_rows) const;
  ArrayNode MakeFixed(int64_t first_row, int64_t num_rows) const;
  ArrayNode MakeStrings(int64_t first_row, int64_t num_rows) const;
  ArrayNode MakeRunEnds(int64_t first_row, int64_t num_rows) const;
};

ArrayNode ColumnSource::Make(int64_t first_row, int64_t num_rows) const {
  switch (spec->kind) {
    case ColumnKind::kRowString:
    case ColumnKind::kRandomString: return MakeStrings(first_row, num_rows);
    case ColumnKind::kRunEndInt64: return MakeRunEnds(first_row, num_rows);
    case ColumnKind::kStructInt64Utf8:
      return MakeNestedColumn(NestedKind::kStructInt64Utf8, spec->name, seed, stream, first_row,
                              num_rows, spec->null_probability);
    case ColumnKind::kListInt32:
      return MakeNestedColumn(NestedKind::kListInt32, spec->name, seed, stream, first_row, num_rows,
                              spec->null_probability);
    case ColumnKind::kMapUtf8Int64:
      return MakeNestedColumn(NestedKind::kMapUtf8Int64, spec->name, seed, stream, first_row,
                              num_rows, spec->null_probability);
    case ColumnKind::kListStructFloat64Utf8:
      return MakeNestedColumn(NestedKind::kListStructFloat64Utf8, spec->name, seed, stream,
                              first_row, num_rows, spec->null_probability);
    case ColumnKind::kMapUtf8TimestampMillis:
      return MakeNestedColumn(NestedKind::kMapUtf8TimestampMillis, spec->name, seed, stream,
                              first_row, num_rows, spec->null_probability);
    case ColumnKind::kListBool:
      return MakeNestedColumn(NestedKind::kListBool, spec->name, seed, stream, first_row, num_rows,
                              spec->null_probability);
    case ColumnKind::kListLargeDecimal:
      return MakeNestedColumn(NestedKind::kListLargeDecimal, spec->name, seed, stream, first_row,
                              num_rows, spec->null_probability);
    default: return MakeFixed(first_row, num_rows);
  }
}

ArrayNode ColumnSource::MakeFixed(int64_t first_row, int64_t num_rows) const {
  ColumnKind kind = spec->kind;
  FixedWidthBuilder builder(ValueWidth(kind));
  for (int64_t row = first_row; row < first_row + num_rows; ++row) {
    SeededRandom random = Cell(row);
    if (spec->null_probability > 0 && random.Chance(spec->null_probability)) {
      builder.AppendNull();
      continue;
    }
    switch (kind) {
      case ColumnKind::kInt64: builder.AppendValue(static_cast<int64_t>(random.Next())); break;
      case ColumnKind::kInt32: builder.AppendValue(static_cast<int32_t>(random.Next())); break;
      case ColumnKind::kFloat64: builder.AppendValue(random.Unit() * 2e6 - 1e6); break;
      case ColumnKind::kSmallDecimal:
        AppendInt128(&builder, 0, random.Next() % 1000000000000000000ULL, random.Next() & 1);
        break;
      case ColumnKind::kLargeDecimal:
        // Below 2^120 < 10^38: every value fits precision 38.
        AppendInt128(&builder, random.Next() >> 8, random.Next(), random.Next() & 1);
        break;
      case ColumnKind::kDictionaryString:
        builder.AppendValue(static_cast<int32_t>(random.Uniform(0, kDictionarySize - 1)));
        break;
      default: break;
    }
  }
  switch (kind) {
    case ColumnKind::kInt32: return builder.Finish("i", spec->name);
    case ColumnKind::kFloat64: return builder.Finish("g", spec->name);
    case ColumnKind::kSmallDecimal: return builder.Finish("d:18,2", spec->name);
    case ColumnKind::kLargeDecimal: return builder.Finish("d:38,10", spec->name);
    case ColumnKind::kDictionaryString:
      return DictionaryNode(spec->name, builder.Finish("i", spec->name), dictionary);
    default: return builder.Finish("l", spec->name);
  }
}

ArrayNode ColumnSource::MakeStrings(int64_t first_row, int64_t num_rows) const {
  StringBuilder builder;
  for (int64_t row = first_row; row < first_row + num_rows; ++row) {
    SeededRandom random = Cell(row);
    if (spec->null_probability > 0 && random.Chance(spec->null_probability)) {
      builder.AppendNull();
    } else if (spec->kind == ColumnKind::kRowString) {
      builder.Append("value_" + std::to_string(row));
    } else {
      builder.Append(RandomString(&random));
    }
  }
  return builder.Finish(spec->name);
}

ArrayNode ColumnSource::MakeRunEnds(int64_t first_row, int64_t num_rows) const {
  // Runs never cross a batch, so the batch's first row seeds its runs.
  SeededRandom random = Cell(first_row);
  FixedWidthBuilder run_ends(4);
  FixedWidthBuilder values(8);
  int64_t end = 0;
  while (end < num_rows) {
    end = std::min(num_rows, end + random.Uniform(1, kMaxRunLength));
    run_ends.AppendValue(static_cast<int32_t>(end));
    int64_t value = static_cast<int64_t>(random.Next());
    if (spec->null_probability > 0 && random.Chance(spec->null_probability)) {
      values.AppendNull();
    } else {
      values.AppendValue(value);
    }
  }
  return owned_arrow::RunEnd(spec->name, num_rows, run_ends.Finish("i", ""),
                             values.Finish("l", ""));
}

std::shared_ptr<ArrayNode> MakeDictionary(uint64_t seed, uint64_t stream) {
  StringBuilder builder;
  for (int64_t i = 0; i < kDictionarySize; ++i) {
    SeededRandom random =
        SeededRandom::For(seed, kDictionaryStream + stream, static_cast<uint64_t>(i));
    builder.Append(RandomString(&random));
  }
  return std::make_shared<ArrayNode>(builder.Finish(""));
}

ArrayNode MakeBatch(const std::vector<ColumnSource>& sources, int64_t first_row, int64_t num_rows) {
  std::vector<ArrayNode> columns;
  columns.reserve(sources.size());
  for (const ColumnSource& source : sources) columns.push_back(source.Make(first_row, num_rows));
  return owned_arrow::Batch(std::move(columns));
}

}  // namespace

DatasetSpec RecordSpec() {
  return {"record",
          {{"a", ColumnKind::kInt64},
           {"b", ColumnKind::kInt32},
           {"c", ColumnKind::kFloat64},
           {"d", ColumnKind::kRowString}}};
}

DatasetSpec WideStringsSpec() {
  DatasetSpec spec{"wide_strings", Numbered("l", 8, ColumnKind::kInt64, 0.1)};
  AppendAll(&spec.columns, Numbered("s", 8, ColumnKind::kRandomString, 0.1));
  AppendAll(&spec.columns, Numbered("g", 4, ColumnKind::kFloat64, 0.1));
  return spec;
}

DatasetSpec NestedSpec() {
  return {"nested",
          {{"s", ColumnKind::kStructInt64Utf8, 0.1},
           {"a", ColumnKind::kListInt32, 0.1},
           {"m", ColumnKind::kMapUtf8Int64, 0.1},
           {"p", ColumnKind::kListStructFloat64Utf8, 0.1}}};
}

DatasetSpec FixedWidthSpec(int num_columns) {
  return {"fixed_width_" + std::to_string(num_columns),
          Numbered("l", num_columns, ColumnKind::kInt64, 0.0)};
}

DatasetSpec StringsSpec() { return {"strings", Numbered("s", 4, ColumnKind::kRandomString, 0.0)}; }

DatasetSpec DecimalSpec(bool large) {
  return {large ? "large_decimals" : "small_decimals",
          Numbered("d", 4, large ? ColumnKind::kLargeDecimal : ColumnKind::kSmallDecimal, 0.1)};
}

DatasetSpec DictionaryStringsSpec() {
  return {"dictionary_strings", Numbered("s", 4, ColumnKind::kDictionaryString, 0.1)};
}

DatasetSpec RunEndSpec() {
  return {"run_end_ints", Numbered("r", 4, ColumnKind::kRunEndInt64, 0.1)};
}

std::unique_ptr<Dataset> MakeDataset(const DatasetSpec& spec, int64_t num_rows, int64_t batch_rows,
                                     uint64_t seed) {
  std::vector<ColumnSource> sources(spec.columns.size());
  for (size_t i = 0; i < sources.size(); ++i) {
    ColumnSource& source = sources[i];
    source.spec = &spec.columns[i];
    source.seed = seed;
    source.stream = i + 1;
    if (source.spec->kind == ColumnKind::kDictionaryString) {
      source.dictionary = MakeDictionary(seed, source.stream);
    }
  }
  auto dataset = std::make_unique<Dataset>();
  dataset->name = spec.name;
  dataset->seed = seed;
  dataset->num_rows = num_rows;
  dataset->batch_rows = batch_rows;
  owned_arrow::ExportSchema(MakeBatch(sources, 0, 0), &dataset->schema.schema);
  std::vector<ArrayNode> roots;
  for (int64_t first = 0; first < num_rows; first += batch_rows) {
    int64_t rows = std::min(batch_rows, num_rows - first);
    roots.push_back(MakeBatch(sources, first, rows));
  }
  dataset->packed = std::make_unique<PackedBatches>(roots);
  dataset->batches = dataset->packed->batches();
  return dataset;
}

}  // namespace rowbridge::bench
