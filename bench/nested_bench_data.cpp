#include "bench/nested_bench_data.hpp"

#include <utility>
#include <vector>

#include "bench/column_builders.hpp"
#include "bench/seeded_random.hpp"

namespace rowbridge::bench {
namespace {

constexpr int64_t kMaxEntries = 8;

std::string ShortString(SeededRandom* random) {
  std::string value(static_cast<size_t>(random->Uniform(5, 30)), ' ');
  for (char& c : value) c = static_cast<char>(random->Uniform(0x20, 0x7e));
  return value;
}

/// Offsets and validity of a list or map column, appended row by row.
class ListBuilder {
 public:
  ListBuilder() : offsets_{0} {}
  void Append(int64_t length) {
    offsets_.push_back(offsets_.back() + static_cast<int32_t>(length));
    validity_.Append(true);
  }
  void AppendNull() {
    offsets_.push_back(offsets_.back());
    validity_.Append(false);
  }
  ArrayNode Finish(std::string format, std::string name, std::vector<ArrayNode> children) {
    ArrayNode node;
    node.format = std::move(format);
    node.name = std::move(name);
    node.length = validity_.length();
    node.null_count = validity_.null_count();
    node.buffers.push_back(validity_.Finish());
    node.buffers.push_back(owned_arrow::ToBytes(offsets_));
    node.children = std::move(children);
    return node;
  }

 private:
  std::vector<int32_t> offsets_;
  ValidityBuilder validity_;
};

ArrayNode StructOf(std::string name, ValidityBuilder* validity, std::vector<ArrayNode> fields) {
  ArrayNode node;
  node.format = "+s";
  node.name = std::move(name);
  node.length = validity->length();
  node.null_count = validity->null_count();
  node.buffers.push_back(validity->Finish());
  node.children = std::move(fields);
  return node;
}

/// The values of a struct<x float64, y utf8> or struct<a int64, b utf8>.
struct PairColumns {
  FixedWidthBuilder numbers{8};
  StringBuilder strings;
  ValidityBuilder validity;

  void Append(SeededRandom* random, double null_probability, bool floating) {
    if (random->Chance(null_probability)) {
      validity.Append(false);
      numbers.AppendNull();
      strings.AppendNull();
      return;
    }
    validity.Append(true);
    if (random->Chance(null_probability)) {
      numbers.AppendNull();
    } else if (floating) {
      numbers.AppendValue(random->Unit() * 2e6 - 1e6);
    } else {
      numbers.AppendValue(static_cast<int64_t>(random->Next()));
    }
    if (random->Chance(null_probability)) strings.AppendNull();
    else strings.Append(ShortString(random));
  }
};

}  // namespace

ArrayNode MakeNestedColumn(NestedKind kind, const std::string& name, uint64_t seed, uint64_t stream,
                           int64_t first_row, int64_t num_rows, double null_probability) {
  ListBuilder lists;
  PairColumns pairs;
  FixedWidthBuilder ints(4);
  FixedWidthBuilder decimals(16);
  ValidityBuilder bits;  // list<bool> values, as a bitmap
  ValidityBuilder bits_validity;
  FixedWidthBuilder longs(8);
  StringBuilder keys;
  for (int64_t row = first_row; row < first_row + num_rows; ++row) {
    SeededRandom random = SeededRandom::For(seed, stream, static_cast<uint64_t>(row));
    if (kind == NestedKind::kStructInt64Utf8) {
      pairs.Append(&random, null_probability, false);
      continue;
    }
    if (random.Chance(null_probability)) {
      lists.AppendNull();
      continue;
    }
    int64_t entries = random.Uniform(0, kMaxEntries);
    lists.Append(entries);
    for (int64_t i = 0; i < entries; ++i) {
      switch (kind) {
        case NestedKind::kListInt32:
          if (random.Chance(null_probability)) ints.AppendNull();
          else ints.AppendValue(static_cast<int32_t>(random.Next()));
          break;
        case NestedKind::kMapUtf8Int64:
          keys.Append(ShortString(&random));
          if (random.Chance(null_probability)) longs.AppendNull();
          else longs.AppendValue(static_cast<int64_t>(random.Next()));
          break;
        case NestedKind::kListBool: {
          const bool valid = !random.Chance(null_probability);
          bits_validity.Append(valid);
          bits.Append(valid && random.Chance(0.5));
          break;
        }
        case NestedKind::kListLargeDecimal:
          if (random.Chance(null_probability)) {
            decimals.AppendNull();
          } else {
            // Unscaled values of up to ~28 digits (96 random bits, signed).
            __extension__ __int128 v =
                static_cast<__int128>(random.Next() >> 32) << 64 | random.Next();
            if (random.Chance(0.5)) v = -v;
            decimals.AppendValue(v);
          }
          break;
        case NestedKind::kMapUtf8TimestampMillis:
          keys.Append(ShortString(&random));
          if (random.Chance(null_probability)) longs.AppendNull();
          else longs.AppendValue(static_cast<int64_t>(random.Next() >> 22) - (int64_t{1} << 41));
          break;
        default: pairs.Append(&random, null_probability, true); break;
      }
    }
  }
  switch (kind) {
    case NestedKind::kStructInt64Utf8:
      return StructOf(name, &pairs.validity,
                      {pairs.numbers.Finish("l", "a"), pairs.strings.Finish("b")});
    case NestedKind::kListInt32: return lists.Finish("+l", name, {ints.Finish("i", "element")});
    case NestedKind::kListLargeDecimal:
      return lists.Finish("+l", name, {decimals.Finish("d:38,4", "element")});
    case NestedKind::kListBool: {
      ArrayNode element;
      element.format = "b";
      element.name = "element";
      element.length = bits_validity.length();
      element.null_count = bits_validity.null_count();
      element.buffers.push_back(bits_validity.Finish());
      element.buffers.push_back(bits.FinishBits());
      return lists.Finish("+l", name, {std::move(element)});
    }
    case NestedKind::kMapUtf8Int64:
    case NestedKind::kMapUtf8TimestampMillis: {
      ArrayNode key = keys.Finish("key");
      key.nullable = false;
      ArrayNode value = longs.Finish(kind == NestedKind::kMapUtf8Int64 ? "l" : "tsm:", "value");
      ValidityBuilder entries_validity;
      for (int64_t i = 0; i < key.length; ++i) entries_validity.Append(true);
      ArrayNode entries =
          StructOf("entries", &entries_validity, {std::move(key), std::move(value)});
      entries.nullable = false;
      return lists.Finish("+m", name, {std::move(entries)});
    }
    case NestedKind::kListStructFloat64Utf8: {
      ArrayNode element = StructOf("element", &pairs.validity,
                                   {pairs.numbers.Finish("g", "x"), pairs.strings.Finish("y")});
      return lists.Finish("+l", name, {std::move(element)});
    }
  }
  return ArrayNode();
}

}  // namespace rowbridge::bench
