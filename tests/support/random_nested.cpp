#include "support/random_nested.hpp"

#include <algorithm>

namespace rowbridge::testing {
namespace {

/// Leaves the depth-first writer covers: copied as they are, or converted
/// (booleans, timestamps and durations in s, ms or ns, date64, decimals of
/// up to 18 digits in every width), or encoded (larger decimals, uint64).
const std::vector<std::string>& DepthFirstLeafFormats() {
  static const std::vector<std::string> kFormats = {
      "c",         "s",   "i",       "l",          "f",        "g",         "tdD",    "tsu:",
      "tsu:UTC",   "tDu", "u",       "U",          "z",        "Z",         "tss:",   "tsm:",
      "tsn:UTC",   "tdm", "tDs",     "tDn",        "d:9,2,32", "d:12,3,64", "d:18,4", "d:15,0",
      "d:7,7,256", "b",   "d:38,10", "d:25,3,256", "d:19,0",   "L"};
  return kFormats;
}

ColumnSpec LeafSpec(Rng& rng, const std::string& name, bool extremes, bool key, bool depth_first) {
  ColumnSpec spec;
  spec.name = name;
  do {
    spec.format = depth_first ? rng.Pick(DepthFirstLeafFormats()) : RandomFormat(rng);
  } while (key && spec.format == "n");
  spec.null_rate = key ? 0 : rng.Pick(std::vector<double>{0, 0, 0.1, 0.3, 0.9});
  spec.nullable = !key && (spec.null_rate > 0 || spec.format == "n" || rng.Chance(0.5));
  spec.extremes = extremes && rng.Chance(0.3);
  return spec;
}

EncodingSpec NestedEncoding(Rng& rng, bool depth_first) {
  if (depth_first) return {};
  double p = static_cast<double>(rng.Range(0, 99)) / 100;
  if (p < 0.85) return {};
  if (p < 0.93)
    return {Encoding::kDictionary, rng.Pick(std::vector<std::string>{"c", "s", "i", "L"})};
  return {Encoding::kRunEnd, rng.Pick(std::vector<std::string>{"s", "i", "l"})};
}

TypeSpec Child(Rng& rng, const std::string& name, int depth, bool extremes, bool depth_first) {
  if (depth > 0 && rng.Chance(0.45))
    return RandomNestedSpec(rng, name, depth, extremes, depth_first);
  TypeSpec leaf;
  leaf.node = LeafSpec(rng, name, extremes, false, depth_first);
  leaf.encoding = depth_first ? EncodingSpec{} : RandomEncoding(rng);
  return leaf;
}

std::vector<bool> RandomValidity(Rng& rng, double null_rate, int64_t n) {
  std::vector<bool> valid;
  for (int64_t i = 0; i < n; ++i) valid.push_back(!rng.Chance(null_rate));
  return valid;
}

/// Lengths of `n` lists: up to `max` for valid ones; a null one mostly empty,
/// sometimes covering (garbage) elements.
std::vector<int64_t> RandomLengths(Rng& rng, const std::vector<bool>& valid, int64_t max) {
  std::vector<int64_t> lengths;
  for (bool v : valid)
    lengths.push_back(v ? rng.Range(0, max) : (rng.Chance(0.3) ? rng.Range(1, 2) : 0));
  return lengths;
}

int64_t MaxLength(const TypeSpec& child) { return child.kind == TypeSpec::Kind::kLeaf ? 6 : 3; }

TestArray MakeNode(Rng& rng, const TypeSpec& spec, int64_t n);

/// A plain node of `n` values, possibly sliced.
TestArray MakePlain(Rng& rng, const TypeSpec& spec, int64_t n) {
  int64_t pad = rng.Chance(0.3) ? rng.Range(1, 4) : 0;
  int64_t total = n + pad;
  const std::string& name = spec.node.name;
  std::vector<bool> valid = RandomValidity(rng, spec.node.null_rate, total);
  TestArray out;
  switch (spec.kind) {
    case TypeSpec::Kind::kStruct: {
      std::vector<TestArray> fields;
      for (const TypeSpec& child : spec.children) fields.push_back(MakeNode(rng, child, total));
      out = Struct(name, total, std::move(fields), valid);
      break;
    }
    case TypeSpec::Kind::kMap:
    case TypeSpec::Kind::kList: {
      const std::string& f = spec.list_format;
      const TypeSpec& element = spec.children[0];
      if (f.rfind("+w:", 0) == 0) {
        int32_t size = std::stoi(f.substr(3));
        out = FixedSizeList(name, size, MakeNode(rng, element, total * size), valid);
        break;
      }
      if (f == "+vl" || f == "+vL") {
        int64_t child_length = rng.Range(0, 10);
        std::vector<int64_t> offsets;
        std::vector<int64_t> sizes;
        for (bool v : valid) {
          int64_t offset = v ? rng.Range(0, child_length) : rng.Range(-5, 40);
          offsets.push_back(offset);
          sizes.push_back(
              v ? rng.Range(0, std::min<int64_t>(MaxLength(element), child_length - offset))
                : rng.Range(-3, 40));
        }
        out =
            ListView(name, MakeNode(rng, element, child_length), offsets, sizes, valid, f == "+vL");
        break;
      }
      std::vector<int64_t> lengths = RandomLengths(rng, valid, MaxLength(element));
      std::vector<int64_t> offsets{rng.Chance(0.3) ? rng.Range(1, 3) : 0};
      for (int64_t length : lengths) offsets.push_back(offsets.back() + length);
      int64_t child_length = offsets.back() + (rng.Chance(0.3) ? rng.Range(1, 3) : 0);
      if (spec.kind == TypeSpec::Kind::kMap) {
        TestArray keys = MakeNode(rng, spec.children[0], child_length);
        TestArray values = MakeNode(rng, spec.children[1], child_length);
        out = Map(name, std::move(keys), std::move(values), offsets, valid);
      } else {
        out = List(name, MakeNode(rng, element, child_length), offsets, valid, f == "+L");
      }
      break;
    }
    case TypeSpec::Kind::kLeaf: break;
  }
  if (pad > 0) out = Slice(out, pad, n);
  return out;
}

TestArray MakeNode(Rng& rng, const TypeSpec& spec, int64_t n) {
  TestArray out;
  if (spec.kind == TypeSpec::Kind::kLeaf) {
    out = MakeColumn(rng, spec.node, spec.encoding, n);
  } else if (spec.encoding.encoding == Encoding::kDictionary) {
    int64_t size = rng.Range(1, 6);
    std::vector<std::optional<int64_t>> indices;
    for (int64_t i = 0; i < n; ++i) {
      indices.push_back(rng.Chance(spec.node.null_rate)
                            ? std::nullopt
                            : std::optional<int64_t>(rng.Range(0, size - 1)));
    }
    out = Dictionary(IntegerArray(spec.encoding.index_format, spec.node.name, indices),
                     MakePlain(rng, spec, size));
  } else if (spec.encoding.encoding == Encoding::kRunEnd) {
    std::vector<std::optional<int64_t>> ends;
    for (int64_t end = 0; end < n;) {
      end += rng.Range(1, 4);
      ends.push_back(end);
    }
    if (ends.empty()) ends.push_back(1);
    int64_t runs = static_cast<int64_t>(ends.size());
    out = RunEnd(spec.node.name, n, IntegerArray(spec.encoding.index_format, "", ends),
                 MakePlain(rng, spec, runs));
  } else {
    out = MakePlain(rng, spec, n);
  }
  out.name = spec.node.name;
  out.nullable = spec.node.nullable;
  return out;
}

}  // namespace

TypeSpec RandomNestedSpec(Rng& rng, const std::string& name, int max_depth, bool extremes,
                          bool depth_first) {
  TypeSpec spec;
  spec.node.name = name;
  spec.node.null_rate = rng.Pick(std::vector<double>{0, 0.1, 0.1, 0.3, 0.6});
  spec.node.nullable = spec.node.null_rate > 0 || rng.Chance(0.5);
  spec.encoding = NestedEncoding(rng, depth_first);
  int64_t kind = rng.Range(0, 2);
  int depth = max_depth - 1;
  if (kind == 0) {
    spec.kind = TypeSpec::Kind::kStruct;
    int64_t fields = rng.Range(1, 3);
    for (int64_t i = 0; i < fields; ++i)
      spec.children.push_back(Child(rng, "f" + std::to_string(i), depth, extremes, depth_first));
  } else if (kind == 1) {
    spec.kind = TypeSpec::Kind::kList;
    spec.list_format =
        depth_first ? rng.Pick(std::vector<std::string>{"+l", "+l", "+L"})
                    : rng.Pick(std::vector<std::string>{"+l", "+l", "+L", "+w:", "+vl", "+vL"});
    if (spec.list_format == "+w:") spec.list_format += std::to_string(rng.Range(0, 3));
    spec.children.push_back(Child(rng, "item", depth, extremes, depth_first));
  } else {
    spec.kind = TypeSpec::Kind::kMap;
    spec.list_format = "+m";
    TypeSpec key;
    key.node = LeafSpec(rng, "key", extremes, true, depth_first);
    key.encoding = depth_first ? EncodingSpec{} : RandomEncoding(rng);
    spec.children.push_back(key);
    spec.children.push_back(Child(rng, "value", depth, extremes, depth_first));
  }
  return spec;
}

void RandomizeEncodings(Rng& rng, TypeSpec* spec) {
  spec->encoding =
      spec->kind == TypeSpec::Kind::kLeaf ? RandomEncoding(rng) : NestedEncoding(rng, false);
  for (TypeSpec& child : spec->children) RandomizeEncodings(rng, &child);
}

TestArray MakeNestedColumn(Rng& rng, const TypeSpec& spec, int64_t n) {
  return MakeNode(rng, spec, n);
}

TestArray PlainSchema(const TypeSpec& spec) {
  TestArray node;
  node.name = spec.node.name;
  node.nullable = spec.node.nullable;
  switch (spec.kind) {
    case TypeSpec::Kind::kLeaf: node.format = spec.node.format; break;
    case TypeSpec::Kind::kStruct:
      node.format = "+s";
      for (const TypeSpec& child : spec.children) node.children.push_back(PlainSchema(child));
      break;
    case TypeSpec::Kind::kList:
      node.format = spec.list_format;
      node.children.push_back(PlainSchema(spec.children[0]));
      break;
    case TypeSpec::Kind::kMap: {
      node.format = "+m";
      TestArray entries;
      entries.format = "+s";
      entries.name = "entries";
      entries.nullable = false;
      entries.children = {PlainSchema(spec.children[0]), PlainSchema(spec.children[1])};
      entries.children[0].nullable = false;
      node.children.push_back(entries);
      break;
    }
  }
  return node;
}

std::string DescribeSpec(const TypeSpec& spec) {
  std::string out;
  switch (spec.kind) {
    case TypeSpec::Kind::kLeaf: out = spec.node.format; break;
    case TypeSpec::Kind::kStruct: out = "struct<"; break;
    case TypeSpec::Kind::kList: out = spec.list_format + "<"; break;
    case TypeSpec::Kind::kMap: out = "map<"; break;
  }
  for (size_t i = 0; i < spec.children.size(); ++i)
    out += (i > 0 ? "," : "") + DescribeSpec(spec.children[i]);
  if (spec.kind != TypeSpec::Kind::kLeaf) out += ">";
  if (spec.encoding.encoding == Encoding::kDictionary) out = "dict(" + out + ")";
  if (spec.encoding.encoding == Encoding::kRunEnd) out = "ree(" + out + ")";
  return out;
}

}  // namespace rowbridge::testing
