// RowEncodeStream against the sequential path: random batches of every type
// (nested to depth 3 in half the iterations) are converted to UnsafeRows,
// cut into batches of random sizes and written twice: decoded and written
// batch by batch by IpcFileWriter, and encoded by the stream's workers. The
// two files must be the same bytes. pyarrow reads the stream's files, and
// its own copy of each, read back by IpcReader, converts to the same rows.
// Errors come back after the batches before them; Close with batches in
// flight leaves nothing behind (ASan, TSan in make test).
//
// ROWBRIDGE_TEST_SEED sets the seed (iteration i uses seed + i) and
// ROWBRIDGE_RANDOM_ITERATIONS the number of schemas (default 60).
#include "rowbridge/row_encode_stream.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "arrow/schema_export.hpp"
#include "decoder/canonical_arrow.hpp"
#include "rowbridge/converter.hpp"
#include "rowbridge/ipc_reader.hpp"
#include "rowbridge/row_decoder.hpp"
#include "support/random_columns.hpp"
#include "support/random_iteration.hpp"
#include "support/random_nested.hpp"
#include "support/row_test_util.hpp"
#include "support/scan_test_files.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge::write {
namespace {

using rowbridge::testing::Bytes;
using rowbridge::testing::Rng;
using rowbridge::testing::TestArray;

constexpr uint64_t kDefaultSeed = 0x5e7d2026;

/// Rows of one batch laid out as RowBatchView lays them out.
struct PackedRows {
  Bytes data;
  std::vector<int64_t> offsets{0};
};

PackedRows Pack(const std::vector<Bytes>& rows, size_t begin, size_t end) {
  PackedRows packed;
  for (size_t r = begin; r < end; ++r) {
    packed.data.insert(packed.data.end(), rows[r].begin(), rows[r].end());
    packed.offsets.push_back(static_cast<int64_t>(packed.data.size()));
  }
  return packed;
}

/// A random batch: flat columns of every type, or nested ones.
TestArray RandomBatch(Rng& rng, std::string* description) {
  const int64_t num_columns = rng.Range(1, 8);
  const bool nested = rng.Chance(0.5);
  const int64_t length = rng.Range(0, nested ? 400 : 1500);
  std::vector<TestArray> columns;
  for (int64_t c = 0; c < num_columns; ++c) {
    const std::string name = "c" + std::to_string(c);
    if (nested && rng.Chance(0.6)) {
      rowbridge::testing::TypeSpec spec = rowbridge::testing::RandomNestedSpec(
          rng, name, static_cast<int>(rng.Range(1, 3)), /*extremes=*/false);
      *description += " " + name + "=" + rowbridge::testing::DescribeSpec(spec);
      columns.push_back(rowbridge::testing::MakeNestedColumn(rng, spec, length));
    } else {
      rowbridge::testing::ColumnSpec spec;
      spec.name = name;
      spec.format = rowbridge::testing::RandomFormat(rng);
      spec.null_rate = rng.Pick(std::vector<double>{0, 0.1, 0.5});
      *description += " " + name + "=" + spec.format;
      columns.push_back(rowbridge::testing::MakeColumn(
          rng, spec, rowbridge::testing::RandomEncoding(rng), length));
    }
  }
  *description += ", " + std::to_string(length) + " rows";
  return rowbridge::testing::Batch(std::move(columns));
}

/// The schema rows of `spark` decode to, nullable throughout.
Status RowsSchema(const SparkType& spark, rowbridge::testing::OwnedSchema* out) {
  ArrowField field;
  ROWBRIDGE_RETURN_NOT_OK(decoder::CanonicalArrowField(spark, "", false, &field));
  rowbridge::testing::MakeNullable(&field);
  return ExportField(field, &out->schema);
}

/// The sequential path: each batch decoded, then written by IpcFileWriter.
Status WriteSequentially(const ArrowSchema& schema, const std::vector<PackedRows>& batches,
                         const ipc::IpcWriteOptions& options, std::vector<uint8_t>* out) {
  std::unique_ptr<RowDecoder> decoder;
  ROWBRIDGE_RETURN_NOT_OK(RowDecoder::Make(schema, &decoder));
  ipc::IpcSink sink = [out](const uint8_t* data, int64_t size) {
    if (data != nullptr) out->insert(out->end(), data, data + size);
    return Status::Ok();
  };
  std::unique_ptr<ipc::IpcFileWriter> writer;
  ROWBRIDGE_RETURN_NOT_OK(ipc::IpcFileWriter::Open(sink, schema, options, &writer));
  for (const PackedRows& batch : batches) {
    rowbridge::testing::OwnedArray array;
    const int64_t num_rows = static_cast<int64_t>(batch.offsets.size()) - 1;
    ROWBRIDGE_RETURN_NOT_OK(
        decoder->Decode(batch.data.data(), batch.offsets.data(), num_rows, &array.array));
    ROWBRIDGE_RETURN_NOT_OK(writer->Write(array.array));
  }
  return writer->Close();
}

void Append(const ipc::IpcMessage& message, std::vector<uint8_t>* out) {
  out->insert(out->end(), message.metadata.begin(), message.metadata.end());
  out->insert(out->end(), message.body.begin(), message.body.end());
}

/// Takes the next message (waiting for it) and appends it to `out`.
Status TakeOne(RowEncodeStream& stream, std::vector<uint8_t>* out) {
  for (;;) {
    const ipc::IpcMessage* message = nullptr;
    bool ready = false;
    ROWBRIDGE_RETURN_NOT_OK(stream.Next(/*wait=*/true, &message, &ready));
    if (ready) {
      Append(*message, out);
      return Status::Ok();
    }
  }
}

/// The stream's path, as a writer task drives it: submit while fewer than
/// K batches wait, take what is ready without waiting, then drain.
Status WriteThroughStream(const ArrowSchema& schema, const std::vector<PackedRows>& batches,
                          const RowEncodeOptions& options, std::vector<uint8_t>* out) {
  std::unique_ptr<RowEncodeStream> stream;
  ROWBRIDGE_RETURN_NOT_OK(RowEncodeStream::Make(schema, options, &stream));
  ROWBRIDGE_RETURN_NOT_OK(stream->Start(out));
  for (const PackedRows& batch : batches) {
    while (stream->pending() >= options.max_ahead) ROWBRIDGE_RETURN_NOT_OK(TakeOne(*stream, out));
    const int64_t num_rows = static_cast<int64_t>(batch.offsets.size()) - 1;
    ROWBRIDGE_RETURN_NOT_OK(stream->Submit(batch.data.data(), batch.offsets.data(), num_rows));
    const ipc::IpcMessage* message = nullptr;
    bool ready = false;
    ROWBRIDGE_RETURN_NOT_OK(stream->Next(/*wait=*/false, &message, &ready));
    if (ready) Append(*message, out);
  }
  while (stream->pending() > 0) ROWBRIDGE_RETURN_NOT_OK(TakeOne(*stream, out));
  std::vector<uint8_t> end;
  ROWBRIDGE_RETURN_NOT_OK(stream->Finish(&end));
  out->insert(out->end(), end.begin(), end.end());
  if (stream->position() != static_cast<int64_t>(out->size())) {
    return Status::Internal("the stream's position is not the output's size");
  }
  return Status::Ok();
}

/// The rows of every batch of the IPC file `path`, converted by `converter`.
Status RowsOfFile(const std::string& path, Converter& converter, std::vector<Bytes>* rows) {
  std::unique_ptr<ipc::IpcReader> reader;
  ROWBRIDGE_RETURN_NOT_OK(ipc::IpcReader::Open(path, ipc::IpcReadOptions(), &reader));
  for (;;) {
    rowbridge::testing::OwnedArray array;
    bool end = false;
    ROWBRIDGE_RETURN_NOT_OK(reader->ReadNext(&array.array, &end));
    if (end) return Status::Ok();
    rowbridge::testing::Conversion converted =
        rowbridge::testing::Drain(converter, array.array, nullptr);
    ROWBRIDGE_RETURN_NOT_OK(converted.status);
    rows->insert(rows->end(), converted.rows.begin(), converted.rows.end());
  }
}

std::shared_ptr<stream::WorkerPool> TwoWorkers() {
  static std::shared_ptr<stream::WorkerPool> pool = [] {
    std::shared_ptr<stream::WorkerPool> made;
    EXPECT_TRUE(stream::WorkerPool::Make(2, &made).ok());
    return made;
  }();
  return pool;
}

struct WrittenFile {
  std::string path;
  std::vector<Bytes> rows;
  std::string schema;
};

void RunIteration(uint64_t seed, const std::string& directory, std::vector<WrittenFile>* files) {
  Rng rng(seed);
  std::string description;
  TestArray batch = RandomBatch(rng, &description);
  SCOPED_TRACE("columns" + description);
  rowbridge::testing::Conversion first =
      rowbridge::testing::Convert(batch, rowbridge::testing::IterationOptions(seed));
  if (first.status.code() == StatusCode::kOverflow) return;  // drawn beyond its Spark type
  ASSERT_TRUE(first.status.ok()) << first.status.message();
  auto exported = rowbridge::testing::ExportBatch(batch);
  std::shared_ptr<const RowPlan> plan;
  ASSERT_TRUE(RowPlan::Compile(exported->schema.schema, &plan).ok());
  rowbridge::testing::OwnedSchema schema;
  Status status = RowsSchema(plan->spark_schema(), &schema);
  ASSERT_TRUE(status.ok()) << status.message();

  std::vector<PackedRows> batches;
  for (size_t begin = 0; begin < first.rows.size() || batches.empty();) {
    const size_t size = static_cast<size_t>(rng.Range(0, 500));
    const size_t end = std::min(first.rows.size(), begin + size);
    batches.push_back(Pack(first.rows, begin, end));
    begin = end;
  }
  RowEncodeOptions options;
  options.ipc.codec = rng.Pick(std::vector<ipc::IpcCodec>{
      ipc::IpcCodec::kNone, ipc::IpcCodec::kLz4Frame, ipc::IpcCodec::kZstd});
  options.max_ahead = static_cast<int32_t>(rng.Range(1, 3));
  options.pool = TwoWorkers();
  SCOPED_TRACE(std::to_string(batches.size()) + " batches, codec " +
               std::to_string(static_cast<int>(options.ipc.codec)) + ", K " +
               std::to_string(options.max_ahead));
  std::vector<uint8_t> expected;
  status = WriteSequentially(schema.schema, batches, options.ipc, &expected);
  ASSERT_TRUE(status.ok()) << status.message();
  std::vector<uint8_t> written;
  status = WriteThroughStream(schema.schema, batches, options, &written);
  ASSERT_TRUE(status.ok()) << status.message();
  ASSERT_EQ(written.size(), expected.size());
  ASSERT_TRUE(written == expected) << "the stream's file differs from the sequential writer's";

  WrittenFile file;
  file.path = directory + "/" + std::to_string(seed) + ".arrow";
  std::ofstream(file.path, std::ios::binary)
      .write(reinterpret_cast<const char*>(written.data()),
             static_cast<std::streamsize>(written.size()));
  file.rows = first.rows;
  file.schema = description;
  files->push_back(std::move(file));
}

TEST(RowEncodeStream, FilesEqualTheSequentialWritersAndPyarrowReadsThem) {
  const uint64_t seed = rowbridge::testing::EnvOr("ROWBRIDGE_TEST_SEED", kDefaultSeed);
  const uint64_t iterations = rowbridge::testing::EnvOr("ROWBRIDGE_RANDOM_ITERATIONS", 60);
  std::fprintf(stderr, "RowEncodeStream: ROWBRIDGE_TEST_SEED=%llu, %llu iterations\n",
               static_cast<unsigned long long>(seed), static_cast<unsigned long long>(iterations));
  const std::string python = stream::testing::FindPython();
  ASSERT_FALSE(python.empty()) << "no Python with pyarrow (make deps)";
  const std::string directory = std::filesystem::temp_directory_path().string() +
                                "/rowbridge-encode." + std::to_string(getpid());
  std::filesystem::create_directories(directory);
  std::vector<WrittenFile> files;
  for (uint64_t i = 0; i < iterations; ++i) {
    SCOPED_TRACE("ROWBRIDGE_TEST_SEED=" + std::to_string(seed + i) +
                 " ROWBRIDGE_RANDOM_ITERATIONS=1");
    rowbridge::testing::TrackIterationSeed(seed + i);
    RunIteration(seed + i, directory, &files);
    if (::testing::Test::HasFailure()) break;
  }
  ASSERT_GT(files.size(), iterations / 2);
  // pyarrow reads every file, checks its structure and writes its own copy
  // (not a full check: random strings need not be UTF-8, as in Spark).
  // The paths go in a file: thousands of them would not fit one command line.
  const std::string list = directory + "/files.txt";
  {
    std::ofstream paths(list);
    for (const WrittenFile& file : files) paths << file.path << "\n";
  }
  std::string script =
      "import sys, pyarrow as pa\n"
      "for path in open(sys.argv[1]).read().split():\n"
      "    table = pa.ipc.open_file(path).read_all()\n"
      "    table.validate()\n"
      "    with pa.ipc.new_file(path + '.pyarrow', table.schema) as out:\n"
      "        out.write_table(table)\n";
  std::string command = stream::testing::Quote(python) + " -c " + stream::testing::Quote(script) +
                        " " + stream::testing::Quote(list);
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  // pyarrow's copy holds the same rows.
  for (const WrittenFile& file : files) {
    SCOPED_TRACE(file.path + ":" + file.schema);
    std::unique_ptr<ipc::IpcReader> reader;
    ASSERT_TRUE(ipc::IpcReader::Open(file.path + ".pyarrow", ipc::IpcReadOptions(), &reader).ok());
    rowbridge::testing::OwnedSchema copy_schema;
    ASSERT_TRUE(reader->ExportSchema(&copy_schema.schema).ok());
    std::unique_ptr<Converter> converter;
    Status status =
        Converter::Make(copy_schema.schema, ConverterOptions{Validation::kFull}, &converter);
    ASSERT_TRUE(status.ok()) << status.message();
    std::vector<Bytes> rows;
    status = RowsOfFile(file.path + ".pyarrow", *converter, &rows);
    ASSERT_TRUE(status.ok()) << status.message();
    ASSERT_EQ(rows.size(), file.rows.size());
    for (size_t r = 0; r < rows.size(); ++r) {
      ASSERT_EQ(rowbridge::testing::Hex(rows[r]), rowbridge::testing::Hex(file.rows[r]))
          << "row " << r;
    }
  }
  std::filesystem::remove_all(directory);
}

/// Rows of one int64 column: value i in row i.
std::vector<Bytes> LongRows(int64_t count) {
  std::vector<Bytes> rows;
  for (int64_t i = 0; i < count; ++i) {
    Bytes row(16, 0);
    std::memcpy(row.data() + 8, &i, 8);
    rows.push_back(row);
  }
  return rows;
}

Status LongSchema(rowbridge::testing::OwnedSchema* out) {
  SparkType spark;
  spark.id = SparkTypeId::kStruct;
  SparkType id;
  id.id = SparkTypeId::kLong;
  spark.fields.push_back(SparkField{"id", id, false});
  return RowsSchema(spark, out);
}

TEST(RowEncodeStream, AnErrorComesAfterTheBatchesBeforeIt) {
  rowbridge::testing::OwnedSchema schema;
  ASSERT_TRUE(LongSchema(&schema).ok());
  RowEncodeOptions options;
  options.max_ahead = 3;
  options.pool = TwoWorkers();
  std::unique_ptr<RowEncodeStream> stream;
  ASSERT_TRUE(RowEncodeStream::Make(schema.schema, options, &stream).ok());
  std::vector<uint8_t> out;
  ASSERT_TRUE(stream->Start(&out).ok());
  PackedRows good = Pack(LongRows(100), 0, 100);
  PackedRows damaged = good;
  damaged.offsets[7] -= 3;  // row 6 is 13 bytes: too short for a row of one long
  ASSERT_TRUE(stream->Submit(good.data.data(), good.offsets.data(), 100).ok());
  ASSERT_TRUE(stream->Submit(damaged.data.data(), damaged.offsets.data(), 100).ok());
  ASSERT_TRUE(stream->Submit(good.data.data(), good.offsets.data(), 100).ok());
  Status refused = stream->Submit(good.data.data(), good.offsets.data(), 100);
  EXPECT_EQ(refused.code(), StatusCode::kInvalid) << "K = 3 batches already wait";
  ASSERT_TRUE(TakeOne(*stream, &out).ok());
  Status failed = TakeOne(*stream, &out);
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.message().find("batch 1"), std::string::npos) << failed.message();
  EXPECT_NE(failed.message().find("row 6"), std::string::npos) << failed.message();
  EXPECT_EQ(TakeOne(*stream, &out).message(), failed.message()) << "the error stays";
  std::vector<uint8_t> end;
  EXPECT_FALSE(stream->Finish(&end).ok());
  // The stream borrows the rows until it lets go of them: a worker may still be decoding the
  // third batch, so close it before `good` and `damaged` (declared after it) are freed.
  stream->Close();
}

TEST(RowEncodeStream, CloseWithBatchesInFlightReleasesTheRows) {
  rowbridge::testing::OwnedSchema schema;
  ASSERT_TRUE(LongSchema(&schema).ok());
  for (int round = 0; round < 20; ++round) {
    RowEncodeOptions options;
    options.max_ahead = 2;
    options.pool = TwoWorkers();
    options.ipc.codec = ipc::IpcCodec::kZstd;
    std::unique_ptr<RowEncodeStream> stream;
    ASSERT_TRUE(RowEncodeStream::Make(schema.schema, options, &stream).ok());
    auto rows = std::make_unique<PackedRows>(Pack(LongRows(20000), 0, 20000));
    ASSERT_TRUE(stream->Submit(rows->data.data(), rows->offsets.data(), 20000).ok());
    ASSERT_TRUE(stream->Submit(rows->data.data(), rows->offsets.data(), 20000).ok());
    if (round % 2 == 1) stream->Cancel();
    stream->Close();  // the workers have let go of the rows
    rows.reset();
    const ipc::IpcMessage* message = nullptr;
    bool ready = false;
    EXPECT_FALSE(stream->Next(true, &message, &ready).ok());
    EXPECT_EQ(stream->bytes_held(), 0);
  }
}

/// The schema of one nullable struct column "struct" whose fields are `spark`'s.
Status OneColumnSchema(const SparkType& spark, rowbridge::testing::OwnedSchema* out) {
  SparkType outer;
  outer.id = SparkTypeId::kStruct;
  outer.fields.push_back(SparkField{"struct", spark, true});
  return RowsSchema(outer, out);
}

// Rows in one column: each batch is the plain batch as a struct column without
// nulls. pyarrow reads both files and compares the column's fields with the
// plain file's columns, as the IPC bytes of each column alone.
TEST(RowEncodeStream, RowsInOneColumnAreThePlainBatchAsAStructColumn) {
  const uint64_t seed = rowbridge::testing::EnvOr("ROWBRIDGE_TEST_SEED", kDefaultSeed);
  std::fprintf(stderr, "RowEncodeStream one column: ROWBRIDGE_TEST_SEED=%llu\n",
               static_cast<unsigned long long>(seed));
  const std::string python = stream::testing::FindPython();
  ASSERT_FALSE(python.empty()) << "no Python with pyarrow (make deps)";
  const std::string directory = std::filesystem::temp_directory_path().string() +
                                "/rowbridge-one-column." + std::to_string(getpid());
  std::filesystem::create_directories(directory);
  const std::string list = directory + "/files.txt";
  std::ofstream paths(list);
  int written_files = 0;
  for (uint64_t i = 0; i < 12; ++i) {
    SCOPED_TRACE("ROWBRIDGE_TEST_SEED=" + std::to_string(seed + i));
    Rng rng(seed + i);
    std::string description;
    TestArray batch = RandomBatch(rng, &description);
    SCOPED_TRACE("columns" + description);
    rowbridge::testing::Conversion rows =
        rowbridge::testing::Convert(batch, rowbridge::testing::IterationOptions(seed + i));
    if (rows.status.code() == StatusCode::kOverflow) continue;  // beyond its Spark type
    ASSERT_TRUE(rows.status.ok()) << rows.status.message();
    auto exported = rowbridge::testing::ExportBatch(batch);
    std::shared_ptr<const RowPlan> plan;
    ASSERT_TRUE(RowPlan::Compile(exported->schema.schema, &plan).ok());
    rowbridge::testing::OwnedSchema plain_schema;
    rowbridge::testing::OwnedSchema one_schema;
    ASSERT_TRUE(RowsSchema(plan->spark_schema(), &plain_schema).ok());
    ASSERT_TRUE(OneColumnSchema(plan->spark_schema(), &one_schema).ok());
    const size_t half = rows.rows.size() / 2;
    std::vector<PackedRows> batches{Pack(rows.rows, 0, half),
                                    Pack(rows.rows, half, rows.rows.size())};
    RowEncodeOptions options;
    options.pool = TwoWorkers();
    options.ipc.codec =
        rng.Pick(std::vector<ipc::IpcCodec>{ipc::IpcCodec::kNone, ipc::IpcCodec::kZstd});
    std::vector<uint8_t> plain;
    Status status = WriteThroughStream(plain_schema.schema, batches, options, &plain);
    ASSERT_TRUE(status.ok()) << status.message();
    options.rows_in_one_column = true;
    std::vector<uint8_t> one;
    status = WriteThroughStream(one_schema.schema, batches, options, &one);
    ASSERT_TRUE(status.ok()) << status.message();
    const std::string base = directory + "/" + std::to_string(seed + i);
    std::ofstream(base + ".plain.arrow", std::ios::binary)
        .write(reinterpret_cast<const char*>(plain.data()),
               static_cast<std::streamsize>(plain.size()));
    std::ofstream(base + ".one.arrow", std::ios::binary)
        .write(reinterpret_cast<const char*>(one.data()), static_cast<std::streamsize>(one.size()));
    paths << base << "\n";
    ++written_files;
  }
  paths.close();
  ASSERT_GT(written_files, 6);
  std::string script =
      "import sys, pyarrow as pa\n"
      "def ipc_bytes(column):\n"
      "    table = pa.table({'c': column})\n"
      "    sink = pa.BufferOutputStream()\n"
      "    with pa.ipc.new_stream(sink, table.schema) as out:\n"
      "        out.write_table(table)\n"
      "    return sink.getvalue().to_pybytes()\n"
      "for base in open(sys.argv[1]).read().split():\n"
      "    plain = pa.ipc.open_file(base + '.plain.arrow').read_all()\n"
      "    one = pa.ipc.open_file(base + '.one.arrow').read_all()\n"
      "    one.validate()\n"
      "    assert one.schema.names == ['struct'], (base, one.schema)\n"
      "    column = one.column(0)\n"
      "    assert column.null_count == 0, base\n"
      "    assert column.type == pa.struct(list(plain.schema)), (base, column.type)\n"
      "    assert [len(b) for b in one.to_batches()] == [len(b) for b in plain.to_batches()]\n"
      "    for i, name in enumerate(plain.schema.names):\n"
      "        fields = pa.chunked_array([c.field(i) for c in column.chunks], "
      "plain.schema[i].type)\n"
      "        assert ipc_bytes(fields) == ipc_bytes(plain.column(i)), (base, name)\n";
  std::string command = stream::testing::Quote(python) + " -c " + stream::testing::Quote(script) +
                        " " + stream::testing::Quote(list);
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  std::filesystem::remove_all(directory);
}

TEST(RowEncodeStream, RowsInOneColumnNeedOneStructColumn) {
  rowbridge::testing::OwnedSchema schema;
  ASSERT_TRUE(LongSchema(&schema).ok());
  RowEncodeOptions options;
  options.rows_in_one_column = true;
  std::unique_ptr<RowEncodeStream> stream;
  Status status = RowEncodeStream::Make(schema.schema, options, &stream);
  EXPECT_EQ(status.code(), StatusCode::kInvalid);
  EXPECT_NE(status.message().find("one struct column"), std::string::npos) << status.message();
}

TEST(RowEncodeStream, BadSchemasAndOptionsAreNamedErrors) {
  rowbridge::testing::OwnedSchema schema;
  ASSERT_TRUE(LongSchema(&schema).ok());
  RowEncodeOptions options;
  options.max_ahead = 0;
  std::unique_ptr<RowEncodeStream> stream;
  Status status = RowEncodeStream::Make(schema.schema, options, &stream);
  EXPECT_NE(status.message().find("max_ahead"), std::string::npos) << status.message();
  options.max_ahead = 1;
  options.ipc.codec = static_cast<ipc::IpcCodec>(9);
  status = RowEncodeStream::Make(schema.schema, options, &stream);
  EXPECT_NE(status.message().find("codec"), std::string::npos) << status.message();
}

}  // namespace
}  // namespace rowbridge::write
