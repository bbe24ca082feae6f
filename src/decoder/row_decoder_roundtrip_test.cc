// Randomized round trip of the row decoder: random Arrow batches (every flat
// type, dictionary and run-end encodings, slices; nested columns up to four
// levels deep in half the iterations) are converted to UnsafeRows by the
// Converter, decoded by RowDecoder, and the decoded arrays converted again:
// the second rows must equal the first byte for byte. The converter's bytes
// are Spark's (golden and reference tests), so equal rows mean the decoder
// kept every value, null and nesting level. The decoder's target types are
// the canonical ones, with 64-bit offsets drawn at random (large_utf8,
// large_binary, large_list) for every string, binary and list node. The
// decoded batch is also written by the IPC writer (a random codec) and read
// back: its rows must be the same. The same rows decoded by DecodeInto into
// caller-owned buffers convert to the same rows too, and every kernel set
// the CPU runs decodes them to the same bytes.
//
// The same rows damaged (random bytes, words replaced by slot-like values,
// rows cut short) must decode to arrays the converter accepts at full
// validation or be an error; the rows sit in a buffer of their exact size,
// so that under AddressSanitizer (make test) any read past them fails.
//
// ROWBRIDGE_TEST_SEED sets the seed (iteration i uses seed + i) and
// ROWBRIDGE_RANDOM_ITERATIONS the number of schemas (default 300).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "arrow/schema_export.hpp"
#include "decoder/canonical_arrow.hpp"
#include "rowbridge/converter.hpp"
#include "rowbridge/ipc_reader.hpp"
#include "rowbridge/ipc_writer.hpp"
#include "rowbridge/row_decoder.hpp"
#include "support/random_columns.hpp"
#include "support/random_iteration.hpp"
#include "support/random_nested.hpp"
#include "support/row_test_util.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge {
namespace {

using testing::Bytes;
using testing::Rng;
using testing::TestArray;

constexpr uint64_t kDefaultSeed = 0x7e7e2026;

/// Rows laid out as a RowBatchView lays them out.
struct PackedRows {
  Bytes data;
  std::vector<int64_t> offsets{0};
};

PackedRows Pack(const std::vector<Bytes>& rows) {
  PackedRows packed;
  for (const Bytes& row : rows) {
    packed.data.insert(packed.data.end(), row.begin(), row.end());
    packed.offsets.push_back(static_cast<int64_t>(packed.data.size()));
  }
  return packed;
}

/// Switches string, binary and list nodes of `field` to 64-bit offsets
/// with probability 1/2 each.
void WidenOffsets(Rng& rng, ArrowField* field) {
  if (rng.Chance(0.5)) {
    const char* wide = field->format == "u"    ? "U"
                       : field->format == "z"  ? "Z"
                       : field->format == "+l" ? "+L"
                                               : nullptr;
    if (wide != nullptr) {
      field->format = wide;
      ASSERT_TRUE(ParseFormat(field->format.c_str(), &field->type).ok());
    }
  }
  for (ArrowField& child : field->children) WidenOffsets(rng, &child);
}

/// A decoder for `spark` rows with canonical target types, some widened.
std::unique_ptr<RowDecoder> MakeDecoder(Rng& rng, const SparkType& spark) {
  ArrowField field;
  Status status = decoder::CanonicalArrowField(spark, "", false, &field);
  EXPECT_TRUE(status.ok()) << status.message();
  WidenOffsets(rng, &field);
  testing::MakeNullable(&field);
  testing::OwnedSchema schema;
  status = ExportField(field, &schema.schema);
  EXPECT_TRUE(status.ok()) << status.message();
  std::unique_ptr<RowDecoder> decoder;
  status = RowDecoder::Make(schema.schema, &decoder);
  EXPECT_TRUE(status.ok()) << status.message();
  return decoder;
}

/// ArrowArrays over the buffers RowDecoder::DecodeInto filled: the nodes of
/// `schema` in preorder take targets in order, as a JVM caller's vectors do.
class TargetArrays {
 public:
  TargetArrays(const ArrowSchema& schema, const std::vector<DecodeTarget>& targets,
               int64_t num_rows)
      : targets_(targets) {
    nodes_.reserve(256);
    root_ = NewNode(num_rows, 0, 1, schema.n_children);
    root_->buffers[0] = nullptr;
    for (int64_t i = 0; i < schema.n_children; ++i) root_->children[i] = Build(*schema.children[i]);
    EXPECT_EQ(next_target_, targets_.size());
  }
  const ArrowArray& array() const { return *root_; }

 private:
  struct Node {
    ArrowArray array{};
    std::vector<const void*> buffers;
    std::vector<ArrowArray*> children;
  };

  ArrowArray* NewNode(int64_t length, int64_t null_count, int64_t num_buffers,
                      int64_t num_children) {
    nodes_.push_back(std::make_unique<Node>());
    Node& node = *nodes_.back();
    node.buffers.resize(static_cast<size_t>(num_buffers));
    node.children.resize(static_cast<size_t>(num_children));
    node.array.length = length;
    node.array.null_count = null_count;
    node.array.n_buffers = num_buffers;
    node.array.n_children = num_children;
    node.array.buffers = node.buffers.data();
    node.array.children = node.children.data();
    node.array.release = [](ArrowArray* array) { array->release = nullptr; };
    return &node.array;
  }

  ArrowArray* Build(const ArrowSchema& field) {
    const DecodeTarget& target = targets_[next_target_++];
    const std::string format = field.format;
    auto address = [](int64_t a) { return reinterpret_cast<const void*>(a); };
    if (format == "n") return NewNode(target.length, target.length, 0, 0);
    if (format == "+m") {
      ArrowArray* map = NewNode(target.length, target.null_count, 2, 1);
      map->buffers[0] = address(target.validity_address);
      map->buffers[1] = address(target.values_address);
      const ArrowSchema& entries = *field.children[0];
      const DecodeTarget& key = targets_[next_target_];
      ArrowArray* entries_array = NewNode(key.length, 0, 1, 2);
      entries_array->buffers[0] = address(target.entries_validity_address);
      entries_array->children[0] = Build(*entries.children[0]);
      entries_array->children[1] = Build(*entries.children[1]);
      map->children[0] = entries_array;
      return map;
    }
    const bool nested = format[0] == '+';
    const bool strings = format == "u" || format == "z" || format == "U" || format == "Z";
    const int64_t num_buffers = format == "+s" ? 1 : strings ? 3 : 2;
    ArrowArray* array =
        NewNode(target.length, target.null_count, num_buffers, nested ? field.n_children : 0);
    array->buffers[0] = address(target.validity_address);
    if (num_buffers > 1) array->buffers[1] = address(target.values_address);
    if (num_buffers > 2) array->buffers[2] = address(target.data_address);
    for (int64_t i = 0; nested && i < field.n_children; ++i)
      array->children[i] = Build(*field.children[i]);
    return array;
  }

  const std::vector<DecodeTarget>& targets_;
  size_t next_target_ = 0;
  std::vector<std::unique_ptr<Node>> nodes_;
  ArrowArray* root_ = nullptr;
};

/// Decodes `packed` with DecodeInto into buffers of exactly the sizes it
/// asks for (so that AddressSanitizer catches a write past them), held by
/// `storage`; returns the targets.
std::vector<DecodeTarget> DecodeIntoExactBuffers(RowDecoder& decoder, const PackedRows& packed,
                                                 int64_t num_rows,
                                                 std::vector<std::unique_ptr<uint8_t[]>>* storage) {
  std::vector<DecodeTarget> targets(static_cast<size_t>(decoder.num_targets()));
  bool decoded = true;
  Status status = decoder.DecodeInto(packed.data.data(), packed.offsets.data(), num_rows,
                                     targets.data(), decoder.num_targets(), &decoded);
  EXPECT_TRUE(status.ok()) << status.message();
  bool any_needed = false;  // a batch of null-type columns needs no buffer at all
  for (const DecodeTarget& target : targets) {
    any_needed |= target.validity_needed > 0 || target.values_needed > 0 ||
                  target.data_needed > 0 || target.entries_validity_needed > 0;
  }
  EXPECT_EQ(decoded, !any_needed)
      << "decoded without the buffers it needs, or refused with none needed";
  auto lend = [storage](int64_t needed, int64_t* address, int64_t* capacity) {
    if (needed == 0) return;
    storage->emplace_back(new uint8_t[static_cast<size_t>(needed)]);
    std::memset(storage->back().get(), 0xa5, static_cast<size_t>(needed));  // not zeroed
    *address = reinterpret_cast<int64_t>(storage->back().get());
    *capacity = needed;
  };
  for (DecodeTarget& target : targets) {
    lend(target.validity_needed, &target.validity_address, &target.validity_capacity);
    lend(target.values_needed, &target.values_address, &target.values_capacity);
    lend(target.data_needed, &target.data_address, &target.data_capacity);
    lend(target.entries_validity_needed, &target.entries_validity_address,
         &target.entries_validity_capacity);
  }
  status = decoder.DecodeInto(packed.data.data(), packed.offsets.data(), num_rows, targets.data(),
                              decoder.num_targets(), &decoded);
  EXPECT_TRUE(status.ok() && decoded) << status.message();
  return targets;
}

/// A random batch of `rng`'s drawing (and its description).
TestArray RandomBatch(Rng& rng, std::string* description) {
  const int64_t num_columns = rng.Chance(0.05) ? rng.Range(60, 80) : rng.Range(1, 10);
  const bool nested_iteration = rng.Chance(0.5);
  std::vector<TestArray> columns;
  const int64_t length =
      rng.Chance(0.1) ? rng.Range(0, 1) : rng.Range(0, nested_iteration ? 120 : 300);
  const int64_t batch_offset = rng.Chance(0.25) ? rng.Range(1, 20) : 0;
  for (int64_t c = 0; c < num_columns; ++c) {
    const std::string name = "c" + std::to_string(c);
    if (nested_iteration && rng.Chance(0.5)) {
      testing::TypeSpec spec = testing::RandomNestedSpec(
          rng, name, static_cast<int>(rng.Range(1, 4)), /*extremes=*/false);
      *description += " " + name + "=" + testing::DescribeSpec(spec);
      columns.push_back(testing::MakeNestedColumn(rng, spec, batch_offset + length));
    } else {
      testing::ColumnSpec spec;
      spec.name = name;
      spec.format = RandomFormat(rng);
      spec.null_rate = rng.Pick(std::vector<double>{0, 0, 0.1, 0.5, 0.95});
      *description += " " + name + "=" + spec.format;
      columns.push_back(MakeColumn(rng, spec, RandomEncoding(rng), batch_offset + length));
    }
  }
  TestArray batch = testing::Batch(std::move(columns));
  if (batch_offset > 0) batch = testing::Slice(batch, batch_offset, length);
  *description += ", " + std::to_string(length) + " rows";
  return batch;
}

/// `array` (of `schema`) written as an uncompressed Arrow IPC file: every
/// buffer's bytes, values under nulls included.
std::vector<uint8_t> IpcFileBytes(const ArrowSchema& schema, const ArrowArray& array) {
  std::vector<uint8_t> file;
  ipc::IpcSink sink = [&file](const uint8_t* data, int64_t size) {
    if (data != nullptr) file.insert(file.end(), data, data + size);
    return Status::Ok();
  };
  std::unique_ptr<ipc::IpcFileWriter> writer;
  Status status = ipc::IpcFileWriter::Open(sink, schema, ipc::IpcWriteOptions(), &writer);
  if (status.ok()) status = writer->Write(array);
  if (status.ok()) status = writer->Close();
  EXPECT_TRUE(status.ok()) << status.message();
  return file;
}

/// The rows decoded by every kernel set this CPU runs are the bytes `decoded`
/// holds (decoded with the default set).
void ExpectEveryKernelSetDecodesTheSame(const ArrowSchema& schema, const PackedRows& packed,
                                        int64_t num_rows, const ArrowArray& decoded) {
  const std::vector<uint8_t> expected = IpcFileBytes(schema, decoded);
  for (Kernels kernels : {Kernels::kPortable, Kernels::kAvx2, Kernels::kAvx512}) {
    std::unique_ptr<RowDecoder> decoder;
    if (!RowDecoder::Make(schema, kernels, &decoder).ok()) continue;  // the CPU lacks the set
    testing::OwnedArray other;
    Status status =
        decoder->Decode(packed.data.data(), packed.offsets.data(), num_rows, &other.array);
    ASSERT_TRUE(status.ok()) << status.message();
    ASSERT_EQ(IpcFileBytes(schema, other.array), expected)
        << "kernels " << static_cast<int>(kernels) << " decode other bytes";
  }
}

/// One random batch; sets *compared when its rows went round the trip.
void RunIteration(uint64_t seed, bool* compared) {
  ConverterOptions options = testing::IterationOptions(seed);
  Rng rng(seed);
  std::string description;
  TestArray batch = RandomBatch(rng, &description);
  const int64_t length = batch.length;
  SCOPED_TRACE("columns" + description);

  testing::Conversion first = testing::Convert(batch, options);
  // A value the random generator drew beyond its Spark type (a dictionary's
  // decimal, say) fails the first conversion: the differential tests cover
  // that; such a batch has no rows to decode.
  if (first.status.code() == StatusCode::kOverflow) return;
  ASSERT_TRUE(first.status.ok()) << first.status.message();
  auto exported = testing::ExportBatch(batch);
  std::shared_ptr<const RowPlan> plan;
  ASSERT_TRUE(RowPlan::Compile(exported->schema.schema, &plan).ok());

  std::unique_ptr<RowDecoder> decoder = MakeDecoder(rng, plan->spark_schema());
  ASSERT_NE(decoder, nullptr);
  ASSERT_EQ(decoder->spark_schema().ToString(), plan->spark_schema().ToString());
  PackedRows packed = Pack(first.rows);
  testing::OwnedArray decoded;
  Status status =
      decoder->Decode(packed.data.data(), packed.offsets.data(), length, &decoded.array);
  ASSERT_TRUE(status.ok()) << status.message();
  ASSERT_EQ(decoded.array.length, length);

  testing::OwnedSchema decoded_schema;
  ASSERT_TRUE(decoder->ExportSchema(&decoded_schema.schema).ok());
  ExpectEveryKernelSetDecodesTheSame(decoded_schema.schema, packed, length, decoded.array);
  ASSERT_FALSE(::testing::Test::HasFailure());
  std::unique_ptr<Converter> again;
  options.validation = Validation::kFull;
  status = Converter::Make(decoded_schema.schema, options, &again);
  ASSERT_TRUE(status.ok()) << status.message();
  testing::Conversion second = testing::Drain(*again, decoded.array, nullptr);
  ASSERT_TRUE(second.status.ok()) << second.status.message();
  ASSERT_EQ(second.rows.size(), first.rows.size());
  for (size_t r = 0; r < first.rows.size(); ++r) {
    ASSERT_EQ(testing::Hex(second.rows[r]), testing::Hex(first.rows[r])) << "row " << r;
  }
  // Decoded into caller-owned buffers, the batch converts to the same rows.
  {
    std::vector<std::unique_ptr<uint8_t[]>> storage;
    std::vector<DecodeTarget> targets = DecodeIntoExactBuffers(*decoder, packed, length, &storage);
    ASSERT_FALSE(::testing::Test::HasFailure());
    TargetArrays lent(decoded_schema.schema, targets, length);
    ASSERT_FALSE(::testing::Test::HasFailure());
    testing::Conversion into = testing::Drain(*again, lent.array(), nullptr);
    ASSERT_TRUE(into.status.ok()) << into.status.message();
    ASSERT_EQ(into.rows.size(), first.rows.size());
    for (size_t r = 0; r < first.rows.size(); ++r) {
      ASSERT_EQ(testing::Hex(into.rows[r]), testing::Hex(first.rows[r]))
          << "decoded into, row " << r;
    }
  }
  // The decoded batch written as an Arrow IPC file and read back converts to
  // the same rows: the writer takes every type the decoder makes.
  ipc::IpcWriteOptions write;
  write.codec = rng.Pick(std::vector<ipc::IpcCodec>{ipc::IpcCodec::kNone, ipc::IpcCodec::kLz4Frame,
                                                    ipc::IpcCodec::kZstd});
  auto file = std::make_shared<std::vector<uint8_t>>();
  ipc::IpcSink sink = [&file](const uint8_t* data, int64_t size) {
    if (data != nullptr) file->insert(file->end(), data, data + size);
    return Status::Ok();
  };
  std::unique_ptr<ipc::IpcFileWriter> writer;
  status = ipc::IpcFileWriter::Open(sink, decoded_schema.schema, write, &writer);
  ASSERT_TRUE(status.ok()) << status.message();
  ASSERT_TRUE(writer->Write(decoded.array).ok());
  ASSERT_TRUE(writer->Close().ok());
  std::unique_ptr<ipc::IpcReader> reader;
  status = ipc::IpcReader::OpenBytes(file, "written", ipc::IpcReadOptions(), &reader);
  ASSERT_TRUE(status.ok()) << status.message();
  testing::OwnedArray read;
  bool end = false;
  status = reader->ReadNext(&read.array, &end);
  ASSERT_TRUE(status.ok() && !end) << status.message();
  testing::Conversion third = testing::Drain(*again, read.array, nullptr);
  ASSERT_TRUE(third.status.ok()) << third.status.message();
  ASSERT_EQ(third.rows.size(), first.rows.size());
  for (size_t r = 0; r < first.rows.size(); ++r) {
    ASSERT_EQ(testing::Hex(third.rows[r]), testing::Hex(first.rows[r])) << "written, row " << r;
  }
  *compared = true;
}

TEST(RowDecoderRoundTrip, DecodedArraysConvertToTheSameRows) {
  const uint64_t seed = testing::EnvOr("ROWBRIDGE_TEST_SEED", kDefaultSeed);
  const uint64_t iterations = testing::EnvOr("ROWBRIDGE_RANDOM_ITERATIONS", 300);
  RecordProperty("seed", std::to_string(seed));
  std::fprintf(stderr, "RowDecoderRoundTrip: ROWBRIDGE_TEST_SEED=%llu, %llu iterations\n",
               static_cast<unsigned long long>(seed), static_cast<unsigned long long>(iterations));
  uint64_t compared = 0;
  for (uint64_t i = 0; i < iterations; ++i) {
    SCOPED_TRACE("ROWBRIDGE_TEST_SEED=" + std::to_string(seed + i) +
                 " ROWBRIDGE_RANDOM_ITERATIONS=1");
    testing::TrackIterationSeed(seed + i);
    bool done = false;
    RunIteration(seed + i, &done);
    if (::testing::Test::HasFailure()) return;
    compared += done ? 1 : 0;
  }
  // Batches whose first conversion overflowed are few; the rest went round.
  EXPECT_GE(compared * 10, iterations * 8)
      << compared << " of " << iterations << " iterations compared";
}

}  // namespace
}  // namespace rowbridge

namespace rowbridge {
namespace {

/// Damages `packed` in place: a few random bytes, words set to slot-like
/// values, or the last row cut short.
void Damage(Rng& rng, PackedRows* packed) {
  Bytes& data = packed->data;
  const int64_t size = static_cast<int64_t>(data.size());
  const int64_t edits = rng.Range(1, 4);
  for (int64_t e = 0; e < edits && size > 0; ++e) {
    const int64_t at = rng.Range(0, size - 1);
    switch (rng.Range(0, 3)) {
      case 0: data[static_cast<size_t>(at)] = static_cast<uint8_t>(rng.Next()); break;
      case 1: data[static_cast<size_t>(at)] ^= static_cast<uint8_t>(1u << rng.Range(0, 7)); break;
      default: {
        // An 8-byte-aligned word: an offset and size near the row's, or a
        // small count.
        const int64_t word = at & ~int64_t{7};
        if (word + 8 > size) break;
        const uint64_t value = rng.Chance(0.5) ? (static_cast<uint64_t>(rng.Range(0, 300)) << 32) |
                                                     static_cast<uint64_t>(rng.Range(0, 300))
                                               : static_cast<uint64_t>(rng.Range(-2, 70));
        std::memcpy(data.data() + word, &value, 8);
      }
    }
  }
  if (rng.Chance(0.2) && packed->offsets.size() > 1 && packed->offsets.back() > 0) {
    const int64_t cut = rng.Range(1, 16);
    packed->offsets.back() =
        std::max(packed->offsets[packed->offsets.size() - 2], packed->offsets.back() - cut);
    data.resize(static_cast<size_t>(packed->offsets.back()));
  }
}

void RunDamagedIteration(uint64_t seed, int64_t* errors, int64_t* decoded) {
  ConverterOptions options = testing::IterationOptions(seed);
  Rng rng(seed);
  std::string description;
  TestArray batch = RandomBatch(rng, &description);
  SCOPED_TRACE("columns" + description);
  testing::Conversion first = testing::Convert(batch, options);
  if (!first.status.ok() || first.rows.empty()) return;
  auto exported = testing::ExportBatch(batch);
  std::shared_ptr<const RowPlan> plan;
  ASSERT_TRUE(RowPlan::Compile(exported->schema.schema, &plan).ok());
  std::unique_ptr<RowDecoder> decoder = MakeDecoder(rng, plan->spark_schema());
  ASSERT_NE(decoder, nullptr);
  for (int round = 0; round < 4; ++round) {
    PackedRows packed = Pack(first.rows);
    Damage(rng, &packed);
    std::unique_ptr<uint8_t[]> exact(new uint8_t[packed.data.size() + 1]);
    std::memcpy(exact.get(), packed.data.data(), packed.data.size());
    testing::OwnedArray out;
    const int64_t rows = static_cast<int64_t>(packed.offsets.size()) - 1;
    Status status = decoder->Decode(exact.get(), packed.offsets.data(), rows, &out.array);
    if (!status.ok()) {
      ASSERT_TRUE(status.code() == StatusCode::kInvalid || status.code() == StatusCode::kOverflow ||
                  status.code() == StatusCode::kCapacity)
          << status.message();
      ASSERT_NE(status.message().find("row "), std::string::npos) << status.message();
      ASSERT_EQ(out.array.release, nullptr);
      ++*errors;
      continue;
    }
    ++*decoded;
    // Whatever the damaged rows held, the arrays are well-formed Arrow.
    testing::OwnedSchema schema;
    ASSERT_TRUE(decoder->ExportSchema(&schema.schema).ok());
    std::unique_ptr<Converter> again;
    options.validation = Validation::kFull;
    ASSERT_TRUE(Converter::Make(schema.schema, options, &again).ok());
    testing::Conversion second = testing::Drain(*again, out.array, nullptr);
    ASSERT_TRUE(second.status.ok()) << second.status.message();
    ASSERT_EQ(static_cast<int64_t>(second.rows.size()), rows);
  }
}

TEST(RowDecoderRoundTrip, DamagedRowsDecodeToValidArraysOrFail) {
  const uint64_t seed = testing::EnvOr("ROWBRIDGE_TEST_SEED", kDefaultSeed) ^ 0xdada;
  const uint64_t iterations = testing::EnvOr("ROWBRIDGE_RANDOM_ITERATIONS", 300);
  RecordProperty("seed", std::to_string(seed));
  std::fprintf(stderr, "RowDecoderRoundTrip damaged: seed %llu, %llu iterations\n",
               static_cast<unsigned long long>(seed), static_cast<unsigned long long>(iterations));
  int64_t errors = 0;
  int64_t decoded = 0;
  for (uint64_t i = 0; i < iterations; ++i) {
    SCOPED_TRACE("seed " + std::to_string(seed + i) + " (ROWBRIDGE_TEST_SEED=" +
                 std::to_string((seed ^ 0xdada) + i) + " ROWBRIDGE_RANDOM_ITERATIONS=1)");
    testing::TrackIterationSeed(seed + i);
    RunDamagedIteration(seed + i, &errors, &decoded);
    if (::testing::Test::HasFailure()) return;
  }
  // Both outcomes are exercised.
  EXPECT_GT(errors, static_cast<int64_t>(iterations / 4));
  EXPECT_GT(decoded, static_cast<int64_t>(iterations / 10));
}

}  // namespace
}  // namespace rowbridge
