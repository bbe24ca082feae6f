// Every byte-copying kernel this machine runs (portable, AVX-512) on the
// same inputs: strings of every length from 0 to 200 as columns and as array
// elements, in every layout, and arrays of 0 to 140 fixed-width elements,
// compared with the reference writer; nested array elements placed; and values
// that end at the last byte before an unmapped page, which a kernel reading
// past a value would fault on. The randomized differential test alternates
// the kernels too.
#include "row/kernel_isa.hpp"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "support/reference_row_writer.hpp"
#include "support/row_test_util.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge {
namespace {

using row::KernelIsa;
using testing::TestArray;

std::vector<KernelIsa> AvailableKernels() {
  std::vector<KernelIsa> kernels;
  for (KernelIsa isa : row::kKernelIsas) {
    if (row::KernelIsaAvailable(isa)) kernels.push_back(isa);
  }
  return kernels;
}

std::string KernelName(KernelIsa isa) { return row::KernelIsaName(isa); }

/// The test options with the kernels of `isa`.
ConverterOptions KernelOptions(KernelIsa isa) {
  ConverterOptions options = testing::TestConverterOptions();
  options.kernels = row::KernelsOf(isa);
  return options;
}

/// Converts `batch` under every kernel this machine runs and expects the
/// reference writer's rows from each.
void ExpectEveryKernelWritesTheReference(const TestArray& batch) {
  testing::ReferenceRows reference = testing::ReferenceConvert(batch);
  ASSERT_EQ(reference.error, "");
  for (KernelIsa isa : AvailableKernels()) {
    SCOPED_TRACE("kernel " + KernelName(isa));
    testing::Conversion conversion = testing::Convert(batch, KernelOptions(isa));
    ASSERT_TRUE(conversion.status.ok()) << conversion.status.message();
    ASSERT_EQ(conversion.rows.size(), reference.rows.size());
    for (size_t r = 0; r < reference.rows.size(); ++r) {
      ASSERT_EQ(testing::Hex(conversion.rows[r]), testing::Hex(reference.rows[r])) << "row " << r;
    }
  }
}

/// Values of every length 0..200 (every 7th null), bytes from a simple generator.
std::vector<std::optional<std::string>> EveryLength() {
  std::vector<std::optional<std::string>> values;
  uint32_t state = 12345;
  for (int length = 0; length <= 200; ++length) {
    if (length % 7 == 3) {
      values.push_back(std::nullopt);
      continue;
    }
    std::string value(static_cast<size_t>(length), '\0');
    for (char& c : value) {
      state = state * 1103515245u + 12345u;
      c = static_cast<char>(state >> 24);
    }
    values.push_back(value);
  }
  return values;
}

TEST(KernelIsa, EveryKernelCopiesValuesOfEveryLength) {
  const auto values = EveryLength();
  const int64_t n = static_cast<int64_t>(values.size());
  std::vector<std::optional<int64_t>> lengths;  // arrays of 0..5 elements over the values
  for (int64_t used = 0, k = 0; used < n; ++k) {
    int64_t length = std::min<int64_t>(k % 6, n - used);
    lengths.push_back(length);
    used += length;
  }
  std::vector<std::optional<std::string>> fixed;
  for (int64_t i = 0; i < n; ++i) {
    if (values[static_cast<size_t>(i)])
      fixed.push_back(std::string(13, static_cast<char>('a' + i % 26)));
    else fixed.push_back(std::nullopt);
  }
  TestArray flat =
      testing::Batch({testing::Strings("u", "s", values), testing::Strings("Z", "b", values),
                      testing::Views("vu", "v", values), testing::FixedSizeBinary("f", 13, fixed)});
  const int64_t arrays = static_cast<int64_t>(lengths.size());
  TestArray nested = testing::Batch(
      {testing::ListOfLengths("ls", testing::Strings("u", "element", values), lengths),
       testing::ListOfLengths("lv", testing::Views("vz", "element", values), lengths),
       testing::Slice(
           testing::ListOfLengths("sliced", testing::Strings("U", "element", values), lengths), 0,
           arrays)});
  ExpectEveryKernelWritesTheReference(flat);
  ExpectEveryKernelWritesTheReference(nested);
}

TEST(KernelIsa, LongBatchesOfPredictableLengthsTakeTheBranchyCopy) {
  // Batches of 1024 rows or more whose first lengths share one copy class take
  // the portable string writer even under the AVX-512 kernels; later values
  // may leave that class. Both must give the reference bytes.
  std::vector<std::optional<std::string>> values;
  for (int64_t i = 0; i < 3000; ++i) {
    if (i % 97 == 5 && i > 64) values.push_back(std::nullopt);
    else if (i < 1500) values.push_back("value_" + std::to_string(100000 + i));
    else
      values.push_back(std::string(static_cast<size_t>(i % 70), static_cast<char>('a' + i % 26)));
  }
  TestArray several = testing::Batch(
      {testing::Strings("u", "s", values), testing::Strings("Z", "b", values),
       testing::Primitive<int64_t>("l", "n", std::vector<std::optional<int64_t>>(3000, 7))});
  TestArray alone = testing::Batch({testing::Strings("u", "s", values)});
  ExpectEveryKernelWritesTheReference(several);
  ExpectEveryKernelWritesTheReference(alone);
}

/// `count` values of T (every `null_every`th null when not 0) with the
/// garbage value 0x5a.. under nulls.
template <typename T>
TestArray Numbers(const std::string& format, int64_t count, int64_t null_every) {
  std::vector<std::optional<T>> values;
  for (int64_t i = 0; i < count; ++i) {
    if (null_every != 0 && i % null_every == null_every - 1) values.push_back(std::nullopt);
    else values.push_back(static_cast<T>(i * 37 - 1000));
  }
  TestArray array = testing::Primitive<T>(format, "element", values);
  // Garbage under the nulls, which must not reach the rows.
  for (int64_t i = 0; i < count; ++i) {
    if (values[static_cast<size_t>(i)]) continue;
    std::memset(array.buffers[1]->data() + i * static_cast<int64_t>(sizeof(T)), 0x5a, sizeof(T));
  }
  return array;
}

TEST(KernelIsa, EveryKernelCopiesFixedWidthElementArrays) {
  // Arrays of 0..140 elements over 1, 2, 4 and 8-byte children, with and without nulls.
  std::vector<std::optional<int64_t>> lengths;
  int64_t total = 0;
  for (int64_t n = 0; n <= 140; n += (n < 20 ? 1 : 13)) {
    lengths.push_back(n);
    total += n;
  }
  lengths.push_back(std::nullopt);
  std::vector<TestArray> columns;
  for (int64_t null_every : {0, 3, 10}) {
    std::string suffix = std::to_string(null_every);
    columns.push_back(
        testing::ListOfLengths("b" + suffix, Numbers<int8_t>("c", total, null_every), lengths));
    columns.push_back(
        testing::ListOfLengths("s" + suffix, Numbers<int16_t>("s", total, null_every), lengths));
    columns.push_back(
        testing::ListOfLengths("i" + suffix, Numbers<int32_t>("i", total, null_every), lengths));
    columns.push_back(
        testing::ListOfLengths("l" + suffix, Numbers<int64_t>("l", total, null_every), lengths));
    columns.push_back(
        testing::ListOfLengths("d" + suffix, Numbers<int64_t>("g", total, null_every), lengths));
  }
  ExpectEveryKernelWritesTheReference(testing::Batch(std::move(columns)));
}

TEST(KernelIsa, EveryKernelPlacesNestedElements) {
  // Arrays of 0..140 struct, list and map elements (more than a step of 8
  // and a word of 64 null bits), with null arrays, null elements and all
  // valid ones, placed by every element placement kernel.
  std::vector<std::optional<int64_t>> lengths;
  int64_t total = 0;
  for (int64_t n = 0; n <= 140; n += (n < 20 ? 1 : 13)) {
    lengths.push_back(n);
    lengths.push_back(std::nullopt);
    total += n;
  }
  std::vector<TestArray> columns;
  for (int64_t null_every : {0, 3, 10}) {
    std::vector<bool> valid;
    std::vector<std::optional<int64_t>> inner;
    std::vector<int64_t> map_offsets{0};
    std::vector<std::optional<std::string>> words;
    for (int64_t i = 0; i < total; ++i) {
      valid.push_back(null_every == 0 || i % null_every != null_every - 1);
      inner.push_back(i % 4 == 1 ? std::nullopt : std::optional<int64_t>(i % 4));
      map_offsets.push_back(map_offsets.back() + i % 3);
      words.push_back(std::string(static_cast<size_t>(i % 19), static_cast<char>('a' + i % 26)));
    }
    int64_t inner_total = 0;
    for (const auto& n : inner) inner_total += n.value_or(0);
    std::string suffix = std::to_string(null_every);
    TestArray structs = testing::Struct(
        "element", total, {Numbers<int32_t>("i", total, 5), testing::Strings("u", "s", words)},
        valid);
    columns.push_back(testing::ListOfLengths("s" + suffix, structs, lengths));
    TestArray lists =
        testing::ListOfLengths("element", Numbers<int16_t>("s", inner_total, 0), inner);
    columns.push_back(testing::ListOfLengths("l" + suffix, lists, lengths));
    const int64_t entries = map_offsets.back();
    TestArray maps = testing::Map("element", Numbers<int32_t>("i", entries, 0),
                                  Numbers<int64_t>("l", entries, 4), map_offsets, valid);
    columns.push_back(testing::ListOfLengths("m" + suffix, maps, lengths));
  }
  ExpectEveryKernelWritesTheReference(testing::Batch(std::move(columns)));
}

/// Two pages, the second unmapped: bytes placed to end at the first page's
/// end are followed by memory whose read faults.
class GuardedBytes {
 public:
  GuardedBytes() {
    page_ = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    void* p = mmap(nullptr, 2 * page_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    base_ = p == MAP_FAILED ? nullptr : static_cast<uint8_t*>(p);
    if (base_ != nullptr) mprotect(base_ + page_, page_, PROT_NONE);
  }
  ~GuardedBytes() {
    if (base_ != nullptr) munmap(base_, 2 * page_);
  }
  bool ok() const { return base_ != nullptr; }
  /// Copies `bytes` to end exactly at the guard page and returns their start.
  const uint8_t* PlaceAtEnd(const testing::Bytes& bytes) {
    uint8_t* at = base_ + page_ - bytes.size();
    std::memcpy(at, bytes.data(), bytes.size());
    return at;
  }

 private:
  size_t page_ = 0;
  uint8_t* base_ = nullptr;
};

TEST(KernelIsa, NoKernelReadsPastTheLastValue) {
  GuardedBytes guarded;
  ASSERT_TRUE(guarded.ok()) << "mmap failed";
  for (int last = 0; last <= 70; ++last) {
    // A short value, then one of `last` bytes ending the data buffer.
    std::vector<std::optional<std::string>> values = {std::string("abc"),
                                                      std::string(static_cast<size_t>(last), 'z')};
    TestArray batch = testing::Batch(
        {testing::Strings("u", "s", values),
         testing::ListOfLengths("l", testing::Strings("u", "element", values), {2, 0})});
    testing::ReferenceRows reference = testing::ReferenceConvert(batch);
    ASSERT_EQ(reference.error, "");
    for (KernelIsa isa : AvailableKernels()) {
      SCOPED_TRACE("kernel " + KernelName(isa) + ", last value of " + std::to_string(last) +
                   " bytes");
      auto exported = testing::ExportBatch(batch);
      // Both columns' string bytes move to the end of the readable page.
      ArrowArray* strings[] = {exported->array.array.children[0],
                               exported->array.array.children[1]->children[0]};
      for (ArrowArray* array : strings) {
        testing::Bytes data(3 + static_cast<size_t>(last));
        std::memcpy(data.data(), array->buffers[2], data.size());
        array->buffers[2] = guarded.PlaceAtEnd(data);
      }
      std::unique_ptr<Converter> converter;
      ASSERT_TRUE(Converter::Make(exported->schema.schema, KernelOptions(isa), &converter).ok());
      testing::Conversion conversion = testing::Drain(*converter, exported->array.array);
      ASSERT_TRUE(conversion.status.ok()) << conversion.status.message();
      ASSERT_EQ(conversion.rows.size(), 2u);
      EXPECT_EQ(testing::Hex(conversion.rows[0]), testing::Hex(reference.rows[0]));
      EXPECT_EQ(testing::Hex(conversion.rows[1]), testing::Hex(reference.rows[1]));
    }
  }
}

}  // namespace
}  // namespace rowbridge
