// Randomized hostile input: valid random batches (flat and nested columns up to
// four levels deep, encoded and sliced at every level, as in the differential
// test; a third of them only of what the depth-first writer covers) damaged
// in ways a C Data Interface producer can damage them without
// lying about buffer sizes: offsets, views (lengths, buffer indices, offsets),
// run ends and dictionary indices overwritten with hostile values, validity
// bits flipped (null_count then unknown), child and dictionary lengths
// shortened, slice offsets moved back. Converted with full validation, a batch
// must either fail with an error or give exactly the reference writer's rows
// for what it now holds; under AddressSanitizer any read outside a buffer
// (every buffer has its exact size) fails the test too.
//
// A second test breaks one structural rule of the C Data Interface at a random
// node of such a batch (released, negative or overflowing length and offset,
// null_count out of range, wrong buffer or child count, NULL lists, buffers,
// children or dictionary): it must be an error at both validation levels.
//
// ROWBRIDGE_TEST_SEED sets the seed (iteration i uses seed + i) and
// ROWBRIDGE_HOSTILE_ITERATIONS the number of batches of each test (default 2000).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>

#include "rowbridge/converter.hpp"
#include "support/random_columns.hpp"
#include "support/random_iteration.hpp"
#include "support/random_nested.hpp"
#include "support/reference_row_writer.hpp"
#include "support/row_test_util.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge {
namespace {

using testing::Bytes;
using testing::ColumnSpec;
using testing::EnvOr;
using testing::Rng;
using testing::TestArray;

constexpr uint64_t kDefaultSeed = 0x40571e;

/// Every node of `array`'s tree (children and dictionaries), parents first.
void CollectNodes(TestArray* array, std::vector<TestArray*>* out) {
  out->push_back(array);
  for (TestArray& child : array->children) CollectNodes(&child, out);
  if (array->dictionary) CollectNodes(array->dictionary.get(), out);
}

/// The width of the integers in buffer `index` (> 0) of `node`: offsets,
/// sizes and views' fields are the 4- or 8-byte integers worth damaging.
int64_t IntegerWidth(const TestArray& node, size_t index) {
  const std::string& f = node.format;
  const size_t last = node.buffers.size() - 1;
  if (f == "U" || f == "Z" || f == "+L" || f == "+vL" || f == "l" || f == "L") return 8;
  if ((f == "vu" || f == "vz") && index == last && index > 1) return 8;  // variadic sizes
  if (f == "s" || f == "S") return 2;
  if (f == "c" || f == "C") return 1;
  return 4;
}

/// Whether integer `i` of buffer `index` of `node` is what the size of
/// another buffer is known by: a string node's last offset (its data buffer
/// ends there) and the byte sizes of a view node's data buffers. Raising one
/// would claim bytes the producer never allocated, which no consumer can
/// detect; lowering it is fair damage.
bool LimitsABuffer(const TestArray& node, size_t index, int64_t i) {
  const std::string& f = node.format;
  if ((f == "u" || f == "U" || f == "z" || f == "Z") && index == 1)
    return i == node.offset + node.length;
  return (f == "vu" || f == "vz") && index == node.buffers.size() - 1 && index > 1;
}

/// A value likely to cross a bound: around zero, the node's and its first
/// child's lengths, the integer's extremes, or random.
int64_t HostileValue(Rng& rng, const TestArray& node, int64_t old_value, int64_t width) {
  int64_t child = node.children.empty() ? node.length : node.children[0].length;
  auto near = [old_value](int64_t delta) {  // wraps, as a corrupted integer may
    return static_cast<int64_t>(static_cast<uint64_t>(old_value) + static_cast<uint64_t>(delta));
  };
  std::vector<int64_t> picks = {-1,
                                0,
                                1,
                                near(1),
                                near(-1),
                                near(8),
                                near(-64),
                                node.length,
                                child,
                                child + 1,
                                std::numeric_limits<int32_t>::max(),
                                std::numeric_limits<int32_t>::min()};
  if (width == 8) picks.push_back(std::numeric_limits<int64_t>::max());
  if (rng.Chance(0.15)) return static_cast<int64_t>(rng.Next());
  return rng.Pick(picks);
}

/// Applies one damage to a random node of `batch`; returns what it did.
std::string Damage(Rng& rng, TestArray* batch) {
  for (int attempt = 0; attempt < 16; ++attempt) {
    // A column, then one of its nodes: flat columns get their share.
    int64_t column = rng.Range(0, static_cast<int64_t>(batch->children.size()) - 1);
    std::vector<TestArray*> nodes;
    CollectNodes(&batch->children[static_cast<size_t>(column)], &nodes);
    size_t pick = static_cast<size_t>(rng.Range(0, static_cast<int64_t>(nodes.size()) - 1));
    TestArray& node = *nodes[pick];
    std::string where = "column " + std::to_string(column) + " node " + std::to_string(pick) +
                        " (" + node.format + " '" + node.name + "')";
    int64_t kind = rng.Range(0, 9);
    // Shortening a node or moving its slice back only reads less of what
    // the producer allocated.
    int64_t* field = kind == 0 ? &node.length : kind == 1 ? &node.offset : nullptr;
    if (field != nullptr && *field > 0) {
      int64_t smaller = rng.Range(0, *field - 1);
      std::string what = where + (kind == 0 ? ": length " : ": offset ") + std::to_string(*field) +
                         " -> " + std::to_string(smaller);
      *field = smaller;
      node.null_count = -1;
      return what;
    }
    std::vector<size_t> buffers;
    for (size_t b = 0; b < node.buffers.size(); ++b) {
      if (node.buffers[b] && !node.buffers[b]->empty()) buffers.push_back(b);
    }
    if (buffers.empty()) continue;
    size_t b = rng.Pick(buffers);
    Bytes& bytes = *node.buffers[b];
    if (b == 0) {
      int64_t bit = rng.Range(0, static_cast<int64_t>(bytes.size()) * 8 - 1);
      bytes[static_cast<size_t>(bit / 8)] ^= static_cast<uint8_t>(1u << (bit % 8));
      node.null_count = -1;
      return where + ": validity bit " + std::to_string(bit) + " flipped";
    }
    int64_t width = IntegerWidth(node, b);
    int64_t count = static_cast<int64_t>(bytes.size()) / width;
    if (count == 0) continue;
    // Half the time an integer at an end of what the node reads: its first
    // and last offsets are where bounds are crossed.
    int64_t index = rng.Range(0, count - 1);
    if (rng.Chance(0.5))
      index = std::clamp(rng.Pick(std::vector<int64_t>{node.offset, node.offset + node.length}),
                         int64_t{0}, count - 1);
    size_t at = static_cast<size_t>(index * width);
    int64_t old_value = 0;
    std::memcpy(&old_value, bytes.data() + at, static_cast<size_t>(width));
    // What a `width`-byte integer holds, sign-extended.
    auto stored = [width](int64_t v) {
      return width < 8 ? (v << (64 - 8 * width)) >> (64 - 8 * width) : v;
    };
    old_value = stored(old_value);
    int64_t value = stored(HostileValue(rng, node, old_value, width));
    if (LimitsABuffer(node, b, static_cast<int64_t>(at) / width))
      value = std::min(value, old_value);
    std::memcpy(bytes.data() + at, &value, static_cast<size_t>(width));
    return where + ": buffer " + std::to_string(b) + " [" + std::to_string(at) + "] " +
           std::to_string(old_value) + " -> " + std::to_string(value);
  }
  return "nothing (no damageable node)";
}

/// One random batch, damaged `damages` times, converted with full validation.
void RunIteration(uint64_t seed, int64_t* rejected) {
  Rng rng(seed);
  int64_t num_columns = rng.Range(1, 5);
  std::vector<TestArray> columns;
  std::string description;
  int64_t length = rng.Range(0, 120);
  int64_t batch_offset = rng.Chance(0.25) ? rng.Range(1, 10) : 0;
  // A third of the batches hold only what the depth-first writer covers, so
  // that its bound and binding see damage too.
  const bool depth_first_shapes = rng.Chance(0.35);
  for (int64_t c = 0; c < num_columns; ++c) {
    std::string name = "c" + std::to_string(c);
    if (rng.Chance(0.7)) {
      testing::TypeSpec spec = testing::RandomNestedSpec(
          rng, name, static_cast<int>(rng.Range(1, 4)), false, depth_first_shapes);
      description += " " + name + "=" + testing::DescribeSpec(spec);
      columns.push_back(testing::MakeNestedColumn(rng, spec, batch_offset + length));
    } else {
      ColumnSpec spec;
      spec.name = name;
      spec.format = depth_first_shapes
                        ? rng.Pick(std::vector<std::string>{"u", "U", "z", "l", "i", "g"})
                        : testing::RandomFormat(rng);
      spec.null_rate = rng.Pick(std::vector<double>{0, 0.1, 0.5});
      spec.nullable = true;
      description += " " + name + "=" + spec.format;
      const testing::EncodingSpec encoding =
          depth_first_shapes ? testing::EncodingSpec{} : testing::RandomEncoding(rng);
      columns.push_back(testing::MakeColumn(rng, spec, encoding, batch_offset + length));
    }
  }
  TestArray batch = testing::Batch(std::move(columns));
  if (batch_offset > 0) batch = testing::Slice(batch, batch_offset, length);
  ConverterOptions options = testing::IterationOptions(seed);
  options.validation = Validation::kFull;
  if (rng.Chance(0.3)) {  // small chunks, none smaller than the largest undamaged row
    int64_t largest = 8;
    for (const Bytes& row : testing::ReferenceConvert(batch).rows)
      largest = std::max(largest, static_cast<int64_t>(row.size()));
    options.max_chunk_bytes = rng.Range(largest, 3 * largest);
  }
  // A tenth of the batches stay whole: the harness's own batches convert.
  int64_t damages = rng.Chance(0.1) ? 0 : rng.Range(1, 3);
  for (int64_t d = 0; d < damages; ++d) description += "; " + Damage(rng, &batch);
  SCOPED_TRACE("schema" + description);

  auto exported = testing::ExportBatch(batch);
  std::unique_ptr<Converter> converter;
  Status made = Converter::Make(exported->schema.schema, options, &converter);
  ASSERT_TRUE(made.ok()) << made.message();
  testing::Conversion actual = testing::Drain(*converter, exported->array.array);
  if (!actual.status.ok()) {
    ASSERT_FALSE(actual.status.message().empty());
    if (damages == 0) {  // only a value the row cannot hold fails an undamaged batch
      ASSERT_EQ(actual.status.code(), StatusCode::kOverflow) << actual.status.message();
      ASSERT_FALSE(testing::ReferenceConvert(batch).overflows.empty()) << actual.status.message();
      return;
    }
    ++*rejected;
    return;
  }
  // Accepted: the batch is valid as it stands, so the reference converts it.
  testing::ReferenceRows reference = testing::ReferenceConvert(batch);
  ASSERT_EQ(reference.error, "");
  ASSERT_TRUE(reference.overflows.empty()) << "accepted a batch with a value the row cannot hold";
  ASSERT_EQ(actual.rows.size(), reference.rows.size());
  for (size_t r = 0; r < reference.rows.size(); ++r) {
    ASSERT_EQ(testing::Hex(actual.rows[r]), testing::Hex(reference.rows[r])) << "row " << r;
  }
}

/// Every node of an exported array tree (children and dictionaries), with
/// its format.
void CollectExported(ArrowArray* array, const ArrowSchema& schema,
                     std::vector<std::pair<ArrowArray*, std::string>>* out) {
  out->emplace_back(array, schema.format);
  for (int64_t i = 0; i < array->n_children; ++i)
    CollectExported(array->children[i], *schema.children[i], out);
  if (array->dictionary != nullptr) CollectExported(array->dictionary, *schema.dictionary, out);
}

/// Points `*list` (`*count` entries) at `copy`, a copy one entry shorter or
/// longer; an added entry repeats the last one, or is `extra`.
template <typename Entry>
void ChangeCount(Rng& rng, Entry** list, int64_t* count, std::vector<Entry>* copy, Entry extra) {
  copy->assign(*list, *list + *count);
  if (rng.Chance(0.5) && *count > 0) {
    copy->pop_back();
  } else {
    copy->push_back(copy->empty() ? extra : copy->back());
  }
  *count = static_cast<int64_t>(copy->size());
  *list = copy->data();
}

/// Breaks one structural rule of the C Data Interface at `node` (always a
/// violation, whatever the data); `buffers` and `children` hold the
/// replacement pointer lists some breaks need. Returns what it did, or ""
/// when the break drawn does not apply to this node.
std::string BreakStructure(Rng& rng, ArrowArray* node, const std::string& format,
                           std::vector<const void*>* buffers, std::vector<ArrowArray*>* children) {
  const bool view = format == "vu" || format == "vz";  // their buffer count varies
  switch (rng.Range(0, 11)) {
    case 0: node->release = nullptr; return "released";
    case 1: node->length = -1 - rng.Range(0, 5); return "negative length";
    case 2: node->offset = -1 - rng.Range(0, 5); return "negative offset";
    case 3:
      if (node->length == 0) return "";
      node->offset = INT64_MAX - rng.Range(0, node->length - 1);
      return "offset + length past INT64_MAX";
    case 4: node->null_count = node->length + 1 + rng.Range(0, 5); return "null_count above length";
    case 5: node->null_count = -2 - rng.Range(0, 5); return "null_count below -1";
    case 6:
      if (view) return "";
      ChangeCount(rng, &node->buffers, &node->n_buffers, buffers,
                  static_cast<const void*>(nullptr));
      return "buffer count changed";
    case 7:
      if (node->n_buffers == 0) return "";
      node->buffers = nullptr;
      return "NULL buffer list";
    case 8: {
      // A data buffer of a non-empty node, or the validity of one with nulls.
      const bool validity = rng.Chance(0.5);
      if (validity ? node->null_count <= 0 || node->n_buffers == 0
                   : node->length == 0 || node->n_buffers < 2)
        return "";
      if (node->buffers[validity ? 0 : 1] == nullptr) return "";
      buffers->assign(node->buffers, node->buffers + node->n_buffers);
      (*buffers)[validity ? 0 : 1] = nullptr;
      node->buffers = buffers->data();
      return validity ? "NULL validity with nulls" : "NULL data buffer";
    }
    case 9:
      ChangeCount(rng, &node->children, &node->n_children, children, node);
      return "child count changed";
    case 10: {
      if (node->n_children == 0) return "";
      children->assign(node->children, node->children + node->n_children);
      (*children)[static_cast<size_t>(rng.Range(0, node->n_children - 1))] = nullptr;
      node->children = children->data();
      return "a NULL child";
    }
    default:
      if (node->dictionary == nullptr) return "";
      node->dictionary = nullptr;
      return "no dictionary";
  }
}

/// One random batch with one structural rule broken at a random node: both
/// validation levels must fail (structure is always checked).
void RunStructureIteration(uint64_t seed) {
  Rng rng(seed);
  std::vector<TestArray> columns;
  std::string description;
  int64_t length = rng.Range(1, 60);
  for (int64_t c = 0, n = rng.Range(1, 4); c < n; ++c) {
    std::string name = "c" + std::to_string(c);
    testing::TypeSpec spec =
        testing::RandomNestedSpec(rng, name, static_cast<int>(rng.Range(1, 3)), false);
    description += " " + name + "=" + testing::DescribeSpec(spec);
    columns.push_back(testing::MakeNestedColumn(rng, spec, length));
  }
  auto exported = testing::ExportBatch(testing::Batch(std::move(columns)));
  std::vector<std::pair<ArrowArray*, std::string>> nodes;
  CollectExported(&exported->array.array, exported->schema.schema, &nodes);
  for (const Validation validation : {Validation::kCheap, Validation::kFull}) {
    const int64_t pick = rng.Range(0, static_cast<int64_t>(nodes.size()) - 1);
    ArrowArray* node = nodes[static_cast<size_t>(pick)].first;
    const ArrowArray saved = *node;
    std::vector<const void*> buffers;
    std::vector<ArrowArray*> children;
    std::string broken;
    while (broken.empty())
      broken =
          BreakStructure(rng, node, nodes[static_cast<size_t>(pick)].second, &buffers, &children);
    SCOPED_TRACE("schema" + description + "; node " + std::to_string(pick) + ": " + broken +
                 ", validation " + std::to_string(static_cast<int>(validation)));
    ConverterOptions options;
    options.validation = validation;
    std::unique_ptr<Converter> converter;
    ASSERT_TRUE(Converter::Make(exported->schema.schema, options, &converter).ok());
    testing::Conversion actual = testing::Drain(*converter, exported->array.array);
    *node = saved;  // the release callbacks need the tree as it was
    ASSERT_FALSE(actual.status.ok()) << "converted " << actual.rows.size() << " rows";
    ASSERT_FALSE(actual.status.message().empty());
  }
}

/// Runs `run` for each iteration's seed (from the environment), each traced
/// with how to run it alone, until one fails; returns the iteration count.
uint64_t ForEachIteration(const std::function<void(uint64_t)>& run) {
  const uint64_t seed = EnvOr("ROWBRIDGE_TEST_SEED", kDefaultSeed);
  const uint64_t iterations = EnvOr("ROWBRIDGE_HOSTILE_ITERATIONS", 2000);
  ::testing::Test::RecordProperty("seed", std::to_string(seed));
  for (uint64_t i = 0; i < iterations; ++i) {
    SCOPED_TRACE("ROWBRIDGE_TEST_SEED=" + std::to_string(seed + i) +
                 " ROWBRIDGE_HOSTILE_ITERATIONS=1 (seed " + std::to_string(seed) + ", iteration " +
                 std::to_string(i) + ")");
    testing::TrackIterationSeed(seed + i);
    run(seed + i);
    if (::testing::Test::HasFailure()) break;
  }
  return iterations;
}

TEST(RandomHostile, DamagedBatchesFailOrConvertToTheReferenceRows) {
  int64_t rejected = 0;
  const uint64_t iterations =
      ForEachIteration([&](uint64_t seed) { RunIteration(seed, &rejected); });
  std::printf("damaged batches rejected: %lld of %llu\n", static_cast<long long>(rejected),
              static_cast<unsigned long long>(iterations));
  // Most damage must reach validation: a harness whose damage always lands
  // in unread bytes would test nothing.
  EXPECT_GE(rejected, static_cast<int64_t>(iterations) / 4);
}

TEST(RandomHostile, BrokenStructuresAreErrorsAtEveryValidationLevel) {
  ForEachIteration(RunStructureIteration);
}

}  // namespace
}  // namespace rowbridge
