// Corrupt input arrays: every case must return an error that names the
// column (and the row, for value errors) and the broken rule, never crash
// and never misread; the converter keeps working afterwards.
#include <gtest/gtest.h>

#include <cctype>
#include <functional>

#include "rowbridge/converter.hpp"
#include "support/row_test_util.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge {
namespace {

using testing::Batch;
using testing::IsError;
using testing::Primitive;
using testing::TestArray;

constexpr Validation kBoth[] = {Validation::kCheap, Validation::kFull};

/// Exports `batch`, lets `corrupt` damage the exported C structs, converts
/// with `validation`, then undoes the damage to the structs (so the
/// producer's release callbacks still free everything) and checks that the
/// same converter then converts a fresh export of `good` (default: `batch`).
Status ConvertCorrupted(const TestArray& batch, Validation validation,
                        const std::function<void(ArrowArray*)>& corrupt,
                        const TestArray* good = nullptr) {
  auto exported = testing::ExportBatch(batch);
  ArrowArray& root = exported->array.array;
  // Snapshot every node and buffer list, so any corruption can be undone.
  std::vector<std::pair<ArrowArray*, ArrowArray>> nodes;
  std::vector<std::pair<const void**, std::vector<const void*>>> lists;
  std::function<void(ArrowArray*)> snapshot = [&](ArrowArray* node) {
    nodes.emplace_back(node, *node);
    if (node->buffers != nullptr) {
      lists.emplace_back(node->buffers,
                         std::vector<const void*>(node->buffers, node->buffers + node->n_buffers));
    }
    for (int64_t i = 0; i < node->n_children; ++i) snapshot(node->children[i]);
    if (node->dictionary != nullptr) snapshot(node->dictionary);
  };
  snapshot(&root);
  std::vector<ArrowArray*> children(root.children, root.children + root.n_children);

  ConverterOptions options;
  options.validation = validation;
  std::unique_ptr<Converter> converter;
  Status make = Converter::Make(exported->schema.schema, options, &converter);
  EXPECT_TRUE(make.ok()) << make.message();
  if (!make.ok()) return make;
  corrupt(&root);
  testing::Conversion conversion = testing::Drain(*converter, root);

  for (auto& [node, saved] : nodes) *node = saved;
  for (size_t i = 0; i < children.size(); ++i) root.children[i] = children[i];
  for (auto& [list, saved] : lists) std::copy(saved.begin(), saved.end(), list);
  auto fresh = testing::ExportBatch(good != nullptr ? *good : batch);
  testing::Conversion intact = testing::Drain(*converter, fresh->array.array);
  EXPECT_TRUE(intact.status.ok()) << "after the error: " << intact.status.message();
  return conversion.status;
}

/// Succeeds when the message names batch row (or element) `row`.
::testing::AssertionResult NamesRow(const Status& status, int64_t row) {
  const std::string& m = status.message();
  for (const std::string word : {"row ", "element "}) {
    std::string needle = word + std::to_string(row);
    size_t at = m.find(needle);
    if (at != std::string::npos &&
        (at + needle.size() == m.size() ||
         !std::isdigit(static_cast<unsigned char>(m[at + needle.size()])))) {
      return ::testing::AssertionSuccess();
    }
  }
  return ::testing::AssertionFailure() << "'" << m << "' does not name row " << row;
}

TestArray Ints() {
  return Batch({Primitive<int64_t>("l", "id", {1, 2, 3, 4, 5}),
                Primitive<int32_t>("i", "a", {1, std::nullopt, 3, 4, 5})});
}
TestArray Texts() {
  return Batch({Primitive<int64_t>("l", "id", {1, 2, 3, 4}),
                testing::Strings("u", "s", {"ab", "cde", "", "fghij"})});
}
TestArray ViewBatch() {
  return Batch(
      {Primitive<int64_t>("l", "id", {1, 2, 3}),
       testing::Views("vu", "v", {"short", "a string longer than twelve", "another long value!"},
                      1024)});
}
TestArray RunEndBatch(std::vector<std::optional<int32_t>> ends, int64_t length = 6) {
  std::vector<std::optional<std::string>> values;
  for (size_t i = 0; i < ends.size(); ++i) values.push_back(std::string(i + 1, 'v'));
  std::vector<std::optional<int64_t>> ids(static_cast<size_t>(length), int64_t{0});
  return Batch({Primitive<int64_t>("l", "id", ids),
                testing::RunEnd("r", length, Primitive<int32_t>("i", "", ends),
                                testing::Strings("u", "", values))});
}
TestArray DictionaryBatch() {
  return Batch({Primitive<int64_t>("l", "id", {1, 2, 3}),
                testing::Dictionary(Primitive<int16_t>("s", "d", {0, 1, 0}),
                                    testing::Strings("u", "", {"x", "y"}))});
}

template <typename T>
T* Mutable(const void* buffer) {
  return static_cast<T*>(const_cast<void*>(buffer));
}

TEST(Validation, WrongBufferCount) {
  for (Validation v : kBoth) {
    for (int64_t n : {0, 1, 3}) {
      Status s = ConvertCorrupted(Ints(), v, [n](ArrowArray* b) { b->children[1]->n_buffers = n; });
      EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'a'", "buffers"})) << n;
    }
  }
}

TEST(Validation, WrongChildCount) {
  for (Validation v : kBoth) {
    Status s = ConvertCorrupted(Ints(), v, [](ArrowArray* b) { b->children[1]->n_children = 1; });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'a'", "children"}));
    s = ConvertCorrupted(RunEndBatch({2, 6}), v,
                         [](ArrowArray* b) { b->children[1]->n_children = 1; });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'r'", "children"}));
  }
}

TEST(Validation, NullCountOutsideItsRange) {
  for (Validation v : kBoth) {
    for (int64_t n : {6, 100, -2}) {
      Status s =
          ConvertCorrupted(Ints(), v, [n](ArrowArray* b) { b->children[1]->null_count = n; });
      EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'a'", "null_count"})) << n;
    }
  }
}

TEST(Validation, NullsWithoutAValidityBitmap) {
  for (Validation v : kBoth) {
    Status s = ConvertCorrupted(Texts(), v, [](ArrowArray* b) { b->children[1]->null_count = 1; });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'s'", "validity"}));
  }
}

TEST(Validation, NullDataBuffers) {
  for (Validation v : kBoth) {
    Status s =
        ConvertCorrupted(Ints(), v, [](ArrowArray* b) { b->children[1]->buffers[1] = nullptr; });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'a'", "NULL"}));
    s = ConvertCorrupted(Texts(), v, [](ArrowArray* b) { b->children[1]->buffers[1] = nullptr; });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'s'", "NULL"}));
    s = ConvertCorrupted(Texts(), v, [](ArrowArray* b) { b->children[1]->buffers[2] = nullptr; });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'s'", "NULL"}));
    s = ConvertCorrupted(Ints(), v, [](ArrowArray* b) { b->children[1]->buffers = nullptr; });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'a'"}));
    s = ConvertCorrupted(DictionaryBatch(), v,
                         [](ArrowArray* b) { b->children[1]->dictionary->buffers[1] = nullptr; });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'d'", "NULL"}));
  }
}

TEST(Validation, ReleasedArrays) {
  for (Validation v : kBoth) {
    Status s =
        ConvertCorrupted(Ints(), v, [](ArrowArray* b) { b->children[1]->release = nullptr; });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'a'", "released"}));
    s = ConvertCorrupted(Ints(), v, [](ArrowArray* b) { b->release = nullptr; });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"released"}));
    s = ConvertCorrupted(DictionaryBatch(), v,
                         [](ArrowArray* b) { b->children[1]->dictionary->release = nullptr; });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'d'", "released"}));
  }
}

TEST(Validation, ColumnShorterThanTheBatch) {
  for (Validation v : kBoth) {
    Status s = ConvertCorrupted(Ints(), v, [](ArrowArray* b) { b->children[1]->length = 4; });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'a'", "length 4"}));
    // With a batch offset, the column must cover offset + length.
    s = ConvertCorrupted(Ints(), v, [](ArrowArray* b) {
      b->offset = 2;
      b->length = 3;
      b->children[1]->length = 4;
    });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'a'", "length 4"}));
    s = ConvertCorrupted(RunEndBatch({2, 6}), v, [](ArrowArray* b) { b->children[1]->length = 5; });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'r'"}));
    // Run-end values shorter than the run ends.
    s = ConvertCorrupted(RunEndBatch({2, 4, 6}), v,
                         [](ArrowArray* b) { b->children[1]->children[1]->length = 2; });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'r'"}));
  }
}

TEST(Validation, NegativeLengthOrOffset) {
  for (Validation v : kBoth) {
    Status s = ConvertCorrupted(Ints(), v, [](ArrowArray* b) { b->children[1]->length = -1; });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'a'"}));
    s = ConvertCorrupted(Ints(), v, [](ArrowArray* b) { b->children[1]->offset = -1; });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'a'"}));
    s = ConvertCorrupted(Ints(), v, [](ArrowArray* b) { b->children[1]->offset = INT64_MAX; });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'a'"}));
    s = ConvertCorrupted(Ints(), v, [](ArrowArray* b) { b->length = -5; });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"length"}));
    s = ConvertCorrupted(Ints(), v, [](ArrowArray* b) { b->offset = -1; });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"offset"}));
  }
}

TEST(Validation, BatchShape) {
  for (Validation v : kBoth) {
    Status s = ConvertCorrupted(Ints(), v, [](ArrowArray* b) { b->null_count = 1; });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"null rows"}));
    s = ConvertCorrupted(Ints(), v, [](ArrowArray* b) { b->n_children = 1; });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"columns"}));
    s = ConvertCorrupted(Ints(), v, [](ArrowArray* b) { b->children = nullptr; });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"NULL"}));
    s = ConvertCorrupted(Ints(), v, [](ArrowArray* b) { b->children[1] = nullptr; });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"1", "NULL"}));
    s = ConvertCorrupted(Ints(), v, [](ArrowArray* b) { b->null_count = -2; });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"null_count -2"}));
    s = ConvertCorrupted(Ints(), v, [](ArrowArray* b) { b->n_buffers = 0; });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"0 buffers", "a struct has 1"}));
    s = ConvertCorrupted(Ints(), v, [](ArrowArray* b) { b->buffers = nullptr; });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"NULL buffer list"}));
  }
}

TEST(Validation, DecreasingOffsets) {
  // Offsets 0, 2, 5, 5, 10 become 0, 2, 1, 5, 10: row 1 has length -1.
  for (Validation v : kBoth) {
    Status s = ConvertCorrupted(
        Texts(), v, [](ArrowArray* b) { Mutable<int32_t>(b->children[1]->buffers[1])[2] = 1; });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'s'", "offsets decrease"}));
    EXPECT_TRUE(NamesRow(s, 1));
  }
  // Large offsets, and a decrease in the last row.
  for (Validation v : kBoth) {
    auto batch = Batch({testing::Strings("U", "big", {"ab", "cde", "f"})});
    Status s = ConvertCorrupted(
        batch, v, [](ArrowArray* b) { Mutable<int64_t>(b->children[0]->buffers[1])[3] = 0; });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'big'", "offsets decrease"}));
    EXPECT_TRUE(NamesRow(s, 2));
  }
}

TEST(Validation, DecreasingOffsetsInASlicedBatchNameTheBatchRow) {
  for (Validation v : kBoth) {
    Status s = ConvertCorrupted(Texts(), v, [](ArrowArray* b) {
      b->offset = 1;
      b->length = 3;
      Mutable<int32_t>(b->children[1]->buffers[1])[3] = 1;  // batch row 1 (column row 2)
    });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'s'", "offsets decrease"}));
    EXPECT_TRUE(NamesRow(s, 1));
  }
}

TEST(Validation, NegativeFirstOffsetFull) {
  Status s = ConvertCorrupted(Texts(), Validation::kFull, [](ArrowArray* b) {
    Mutable<int32_t>(b->children[1]->buffers[1])[0] = -4;
  });
  EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'s'", "negative offset"}));
  EXPECT_TRUE(NamesRow(s, 0));
}

TEST(Validation, DecreasingOffsetsInADictionaryFull) {
  auto batch = Batch({testing::Dictionary(Primitive<int8_t>("c", "d", {0, 1}),
                                          testing::Strings("u", "", {"x", "yy", "zzz"}))});
  Status s = ConvertCorrupted(batch, Validation::kFull, [](ArrowArray* b) {
    Mutable<int32_t>(b->children[0]->dictionary->buffers[1])[3] =
        0;  // value 2 (unused) has length -3
  });
  EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'d'", "offsets decrease"}));
}

TEST(Validation, ViewOutsideItsBufferFull) {
  // Row 1's view points 100 bytes into a data buffer of 46 bytes.
  Status s = ConvertCorrupted(ViewBatch(), Validation::kFull, [](ArrowArray* b) {
    Mutable<int32_t>(b->children[1]->buffers[1])[4 + 3] = 100;
  });
  EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'v'", "outside"}));
  EXPECT_TRUE(NamesRow(s, 1));
  // Row 2's view ends one byte past the buffer.
  s = ConvertCorrupted(ViewBatch(), Validation::kFull, [](ArrowArray* b) {
    Mutable<int32_t>(b->children[1]->buffers[1])[8 + 3] += 1;
  });
  EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'v'", "outside"}));
  EXPECT_TRUE(NamesRow(s, 2));
  // A negative offset.
  s = ConvertCorrupted(ViewBatch(), Validation::kFull, [](ArrowArray* b) {
    Mutable<int32_t>(b->children[1]->buffers[1])[4 + 3] = -1;
  });
  EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'v'"}));
  EXPECT_TRUE(NamesRow(s, 1));
}

TEST(Validation, ViewToAMissingBufferFull) {
  for (int32_t index : {1, 7, -1}) {
    Status s = ConvertCorrupted(ViewBatch(), Validation::kFull, [index](ArrowArray* b) {
      Mutable<int32_t>(b->children[1]->buffers[1])[8 + 2] = index;  // row 2's buffer index
    });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'v'", "buffer"})) << index;
    EXPECT_TRUE(NamesRow(s, 2));
  }
  Status s = ConvertCorrupted(ViewBatch(), Validation::kFull,
                              [](ArrowArray* b) { b->children[1]->buffers[2] = nullptr; });
  EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'v'", "NULL"}));
  s = ConvertCorrupted(ViewBatch(), Validation::kFull,
                       [](ArrowArray* b) { b->children[1]->buffers[3] = nullptr; });
  EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'v'"}));  // the variadic sizes
}

TEST(Validation, NegativeViewLength) {
  for (Validation v : kBoth) {
    Status s = ConvertCorrupted(ViewBatch(), v, [](ArrowArray* b) {
      Mutable<int32_t>(b->children[1]->buffers[1])[0] = -3;
    });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'v'"}));
    EXPECT_TRUE(NamesRow(s, 0));
  }
}

TEST(Validation, RunEndsNotIncreasingFull) {
  struct Case {
    std::vector<std::optional<int32_t>> ends;
    const char* expected;
  };
  for (const Case& c : {Case{{2, 2, 6}, "run 1: run end 2 is not greater than the previous (2)"},
                        Case{{4, 2, 6}, "run 1: run end 2 is not greater than the previous (4)"},
                        Case{{0, 3, 6}, "run 0: run end 0 is not positive"},
                        Case{{-1, 6}, "run 0: run end -1 is not positive"}}) {
    TestArray good = RunEndBatch({2, 6});
    Status s = ConvertCorrupted(
        RunEndBatch(c.ends), Validation::kFull, [](ArrowArray*) {}, &good);
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'r'", c.expected})) << s.message();
    // Cheap validation may convert, but must neither crash nor read out of bounds.
    (void)ConvertCorrupted(
        RunEndBatch(c.ends), Validation::kCheap, [](ArrowArray*) {}, &good);
  }
}

TEST(Validation, RunEndsTooShort) {
  TestArray good = RunEndBatch({2, 6});
  for (Validation v : kBoth) {
    Status s = ConvertCorrupted(
        RunEndBatch({2, 3}), v, [](ArrowArray*) {}, &good);
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'r'", "past the last run end"}));
    EXPECT_TRUE(NamesRow(s, 3));
    s = ConvertCorrupted(
        RunEndBatch({}), v, [](ArrowArray*) {}, &good);
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'r'"}));
  }
}

TEST(Validation, RunEndEncodedNullsAreInvalid) {
  for (Validation v : kBoth) {
    Status s = ConvertCorrupted(RunEndBatch({2, 6}), v,
                                [](ArrowArray* b) { b->children[1]->null_count = 1; });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'r'"}));
    s = ConvertCorrupted(RunEndBatch({2, 6}), v,
                         [](ArrowArray* b) { b->children[1]->children[0]->null_count = 1; });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'r'"}));
  }
}

TEST(Validation, DictionaryStructure) {
  for (Validation v : kBoth) {
    Status s = ConvertCorrupted(DictionaryBatch(), v,
                                [](ArrowArray* b) { b->children[1]->dictionary = nullptr; });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'d'", "dictionary"}));
    s = ConvertCorrupted(DictionaryBatch(), v,
                         [](ArrowArray* b) { b->children[1]->dictionary->n_buffers = 2; });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'d'", "buffers"}));
    s = ConvertCorrupted(DictionaryBatch(), v, [](ArrowArray* b) {
      Mutable<int16_t>(b->children[1]->buffers[1])[2] = 2;
    });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'d'", "row 2", "dictionary"}));
    s = ConvertCorrupted(DictionaryBatch(), v,
                         [](ArrowArray* b) { b->children[1]->dictionary->length = 1; });
    EXPECT_TRUE(IsError(s, StatusCode::kInvalid, {"'d'", "row 1"}));
  }
}

// CONTRACTS.md §2: nulls come from the validity bitmap whatever the declared
// nullability; full validation additionally rejects a null under a
// non-nullable field, naming the column and the row.
TEST(Validation, NullUnderANonNullableFieldFull) {
  TestArray column = Primitive<int32_t>("i", "strict", {1, 2, std::nullopt, 4});
  column.nullable = false;
  TestArray batch = Batch({Primitive<int64_t>("l", "id", {1, 2, 3, 4}), column});
  ConverterOptions full;
  full.validation = Validation::kFull;
  testing::Conversion conversion = testing::Convert(batch, full);
  EXPECT_TRUE(IsError(conversion.status, StatusCode::kInvalid, {"'strict'"}));
  EXPECT_TRUE(NamesRow(conversion.status, 2));
  EXPECT_TRUE(conversion.rows.empty());
  // Cheap validation converts it, with the null bit from the bitmap.
  conversion = testing::Convert(batch);
  ASSERT_TRUE(conversion.status.ok()) << conversion.status.message();
  ASSERT_EQ(conversion.rows.size(), 4u);
  EXPECT_EQ(testing::Hex(conversion.rows[2]),
            testing::CleanHex("0200000000000000"     // null bits: strict
                              "0300000000000000"     // id = 3
                              "0000000000000000"));  // strict: null
}

TEST(Validation, NullFromADictionaryUnderANonNullableFieldFull) {
  TestArray column = testing::Dictionary(Primitive<int8_t>("c", "strict", {0, 1}),
                                         testing::Strings("u", "", {"x", std::nullopt}));
  column.nullable = false;
  ConverterOptions full;
  full.validation = Validation::kFull;
  testing::Conversion conversion = testing::Convert(Batch({column}), full);
  EXPECT_TRUE(IsError(conversion.status, StatusCode::kInvalid, {"'strict'"}));
  EXPECT_TRUE(NamesRow(conversion.status, 1));
}

TEST(Validation, NonNullableFieldWithoutNullsIsFine) {
  TestArray column = Primitive<int32_t>("i", "strict", {1, 2});
  column.nullable = false;
  ConverterOptions full;
  full.validation = Validation::kFull;
  EXPECT_TRUE(testing::Convert(Batch({column}), full).status.ok());
}

}  // namespace
}  // namespace rowbridge
