// Test-only helpers shared by the converter tests: the options a test starts
// from, export a TestArray batch, drain every chunk of a conversion into
// owned rows, compare rows with expected hexadecimal, and check error
// statuses. Header-only, so that test files use it without a change to the
// build.
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "arrow/arrow_field.hpp"
#include "rowbridge/converter.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge::testing {

/// The kernels and nested writer the test binary's command line forces
/// (--rowbridge_kernels=, --rowbridge_nested_writer=, read by
/// tests/support/test_main.cpp before any test runs); kAuto where it forces
/// none.
struct ForcedChoices {
  Kernels kernels = Kernels::kAuto;
  NestedWriter nested_writer = NestedWriter::kAuto;
};

inline ForcedChoices& Forced() {
  static ForcedChoices forced;
  return forced;
}

/// The options a test starts from: the defaults, with the kernels and the
/// nested writer the command line forces. A test that compares writers or
/// kernels sets its own instead, which the command line does not change.
inline ConverterOptions TestConverterOptions() {
  ConverterOptions options;
  options.kernels = Forced().kernels;
  options.nested_writer = Forced().nested_writer;
  return options;
}

/// What the converters made by Convert (and by tests that call
/// TallyForcedRun themselves) with a forced choice did, for
/// test_main.cpp's check that a forced run really ran the forced writer and
/// kernels.
struct ForcedRunTally {
  int64_t writer_converters = 0;  // made with the forced nested writer
  int64_t depth_first_tiles = 0;  // written by those
  int64_t kernel_converters = 0;  // made with the forced kernels
  int64_t other_kernels = 0;      // of those, plans compiled with other kernels
};

inline ForcedRunTally& Tally() {
  static ForcedRunTally tally;
  return tally;
}

/// An exported schema and array of the same TestArray.
struct ExportedBatch {
  OwnedSchema schema;
  OwnedArray array;
};

inline std::unique_ptr<ExportedBatch> ExportBatch(const TestArray& batch) {
  auto out = std::make_unique<ExportedBatch>();
  ExportSchema(batch, &out->schema.schema);
  ExportArray(batch, &out->array.array);
  return out;
}

/// The Spark schema a converter gives `batch`'s schema, or "error: " and why.
inline std::string SparkSchemaOf(const TestArray& batch) {
  auto exported = ExportBatch(batch);
  std::unique_ptr<Converter> converter;
  Status status = Converter::Make(exported->schema.schema, TestConverterOptions(), &converter);
  if (!status.ok()) return "error: " + status.message();
  return converter->plan().spark_schema().ToString();
}

/// Keeps the hexadecimal digits of `text` (lower-cased), dropping spaces, so
/// expected bytes can be written as "ff ff ff ff 00 00 00 00".
inline std::string CleanHex(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (std::isxdigit(static_cast<unsigned char>(c))) {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return out;
}

inline std::string Hex(const Bytes& bytes) { return Hex(bytes.data(), bytes.size()); }

/// The outcome of converting one batch, every chunk drained.
struct Conversion {
  Status status;                    // the first error, or OK
  std::vector<Bytes> rows;          // rows returned before any error
  std::vector<int64_t> chunk_rows;  // rows of each non-empty chunk
  /// The converter's statistics after the batch (its earlier batches
  /// counted too) and its plan's kernels; defaults when no converter was
  /// made.
  ConverterStats stats;
  Kernels kernels = Kernels::kAuto;
};

/// Converts `array` (and its chunks) with `converter`, checking the chunk
/// invariants of RowBatchView on the way.
inline Conversion Drain(Converter& converter, const ArrowArray& array,
                        const ArrowSchema* batch_schema = nullptr) {
  Conversion result;
  RowBatchView view;
  result.status = converter.Convert(array, batch_schema, &view);
  while (result.status.ok() && view.num_rows > 0) {
    EXPECT_EQ(view.first_row, static_cast<int64_t>(result.rows.size()));
    EXPECT_EQ(view.row_offsets[0], 0);
    EXPECT_EQ(view.row_offsets[view.num_rows], view.data_size);
    for (int64_t k = 0; k < view.num_rows; ++k) {
      EXPECT_EQ(view.row_offsets[k] % 8, 0);
      result.rows.emplace_back(view.data + view.row_offsets[k],
                               view.data + view.row_offsets[k + 1]);
    }
    result.chunk_rows.push_back(view.num_rows);
    if (!converter.HasMoreChunks()) break;
    result.status = converter.NextChunk(&view);
  }
  result.stats = converter.stats();
  result.kernels = converter.plan().kernels();
  return result;
}

/// Adds `converter`, made with `options` and done converting, to Tally()
/// when they hold a forced choice. A converter made with a forced kLevels
/// writes no depth-first tile.
inline void TallyForcedRun(const ConverterOptions& options, const Converter& converter) {
  const ForcedChoices& forced = Forced();
  ForcedRunTally& tally = Tally();
  if (forced.nested_writer != NestedWriter::kAuto &&
      options.nested_writer == forced.nested_writer) {
    ++tally.writer_converters;
    tally.depth_first_tiles += converter.stats().depth_first_tiles;
    if (forced.nested_writer == NestedWriter::kLevels) {
      EXPECT_EQ(converter.stats().depth_first_tiles, 0) << "a forced level writer ran depth-first";
    }
  }
  if (forced.kernels != Kernels::kAuto && options.kernels == forced.kernels) {
    ++tally.kernel_converters;
    if (converter.plan().kernels() != forced.kernels) ++tally.other_kernels;
  }
}

/// Registers the schema of `batch` and converts `batch` with `options`.
inline Conversion Convert(const TestArray& batch,
                          const ConverterOptions& options = TestConverterOptions()) {
  auto exported = ExportBatch(batch);
  std::unique_ptr<Converter> converter;
  Conversion result;
  result.status = Converter::Make(exported->schema.schema, options, &converter);
  if (!result.status.ok()) return result;
  result = Drain(*converter, exported->array.array);
  TallyForcedRun(options, *converter);
  return result;
}

inline std::vector<std::string> RowsHex(const Conversion& conversion) {
  std::vector<std::string> out;
  for (const Bytes& row : conversion.rows) out.push_back(Hex(row));
  return out;
}

/// Converts `batch` and expects exactly `expected` rows, each given as hex
/// (whitespace ignored).
inline void ExpectRows(const TestArray& batch, const std::vector<std::string>& expected,
                       const ConverterOptions& options = TestConverterOptions()) {
  Conversion conversion = Convert(batch, options);
  ASSERT_TRUE(conversion.status.ok()) << conversion.status.message();
  ASSERT_EQ(conversion.rows.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(Hex(conversion.rows[i]), CleanHex(expected[i])) << "row " << i;
  }
}

/// Succeeds when `status` has `code` and its message contains every part.
inline ::testing::AssertionResult IsError(const Status& status, StatusCode code,
                                          std::initializer_list<std::string> parts) {
  if (status.ok()) return ::testing::AssertionFailure() << "expected an error, got OK";
  if (status.code() != code) {
    return ::testing::AssertionFailure()
           << "expected code " << static_cast<int>(code) << ", got "
           << static_cast<int>(status.code()) << ": " << status.message();
  }
  for (const std::string& part : parts) {
    if (status.message().find(part) == std::string::npos) {
      return ::testing::AssertionFailure()
             << "message '" << status.message() << "' lacks '" << part << "'";
    }
  }
  return ::testing::AssertionSuccess();
}

/// A schema-only node (for registering a schema that differs from a batch's).
inline TestArray SchemaNode(const std::string& format, const std::string& name,
                            std::vector<TestArray> children = {}) {
  TestArray node;
  node.format = format;
  node.name = name;
  node.children = std::move(children);
  return node;
}

/// A column of `n` int32 values produced by `f(i)` (nullopt = null).
template <typename F>
TestArray Int32Column(const std::string& name, int64_t n, F f) {
  std::vector<std::optional<int32_t>> values;
  for (int64_t i = 0; i < n; ++i) values.push_back(f(i));
  return Primitive<int32_t>("i", name, values);
}

/// Marks every field of `field` nullable, as random batches need: they hold
/// nulls under non-nullable fields too (their bitmaps decide, as in Spark's
/// Arrow reader). A map's entries and keys stay non-nullable.
inline void MakeNullable(ArrowField* field) {
  field->nullable = true;
  for (ArrowField& child : field->children) MakeNullable(&child);
  if (field->format == "+m") {
    field->children[0].nullable = false;
    field->children[0].children[0].nullable = false;
  }
}

}  // namespace rowbridge::testing
