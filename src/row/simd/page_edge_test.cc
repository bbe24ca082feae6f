// Values whose bytes end where readable memory ends. The AVX2 depth-first
// writer (simd/depth_first_avx2.cpp) loads 64 bytes from a value's start
// whatever its length, and must keep those loads inside the value's page:
// here every string and array buffer ends at the first byte of a page that
// cannot be read, with values of every length (empty ones included) in its
// last 64 bytes. Under every kernel set and both validation levels the rows
// must be the reference writer's; a load past the page would crash the test.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "row/kernel_isa.hpp"
#include "rowbridge/converter.hpp"
#include "support/reference_row_writer.hpp"
#include "support/row_test_util.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge {
namespace {

using testing::TestArray;

/// A copy of some bytes that ends where an unreadable page begins.
class BytesBeforeGuardPage {
 public:
  explicit BytesBeforeGuardPage(const testing::Bytes& bytes) {
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    const size_t pages = (bytes.size() + page - 1) / page + 1;
    size_ = pages * page;
    void* mapping =
        mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    EXPECT_NE(mapping, MAP_FAILED);
    mapping_ = static_cast<uint8_t*>(mapping);
    uint8_t* guard = mapping_ + size_ - page;
    EXPECT_EQ(mprotect(guard, page, PROT_NONE), 0);
    data_ = guard - bytes.size();
    if (!bytes.empty()) std::memcpy(data_, bytes.data(), bytes.size());
  }
  BytesBeforeGuardPage(const BytesBeforeGuardPage&) = delete;
  BytesBeforeGuardPage& operator=(const BytesBeforeGuardPage&) = delete;
  ~BytesBeforeGuardPage() { munmap(mapping_, size_); }

  const uint8_t* data() const { return data_; }

 private:
  uint8_t* mapping_ = nullptr;
  size_t size_ = 0;
  uint8_t* data_ = nullptr;
};

/// `rows` strings whose lengths run through 0..70, the last of `last` bytes;
/// every fifth one null.
std::vector<std::optional<std::string>> Strings(int64_t rows, int64_t last) {
  std::vector<std::optional<std::string>> values;
  for (int64_t i = 0; i < rows; ++i) {
    const int64_t length = i + 1 == rows ? last : (i * 13 + 5) % 71;
    if (i % 5 == 2 && i + 1 != rows) {
      values.push_back(std::nullopt);
      continue;
    }
    std::string value(static_cast<size_t>(length), '\0');
    for (int64_t k = 0; k < length; ++k)
      value[static_cast<size_t>(k)] = static_cast<char>('A' + (i + k) % 57);
    values.push_back(value);
  }
  return values;
}

/// Lists of 0..8 values of T (every third one null), the last of `last`.
template <typename T>
TestArray ListOf(const std::string& format, int64_t rows, int64_t last) {
  std::vector<std::optional<int64_t>> lengths;
  std::vector<std::optional<T>> values;
  for (int64_t i = 0; i < rows; ++i) {
    const int64_t length = i + 1 == rows ? last : (i * 5) % 9;
    lengths.push_back(length);
    for (int64_t k = 0; k < length; ++k) {
      if (k % 3 == 1) values.push_back(std::nullopt);
      else values.push_back(static_cast<T>(0x7102030405060708LL >> (8 * ((i + k) % 7))));
    }
  }
  return testing::ListOfLengths("list_" + format, testing::Primitive<T>(format, "element", values),
                                lengths);
}

/// Moves the buffer `index` of `array` to a copy before a guard page.
void MoveBeforeGuard(const TestArray& source, size_t index, ArrowArray* array,
                     std::vector<std::unique_ptr<BytesBeforeGuardPage>>* copies) {
  copies->push_back(std::make_unique<BytesBeforeGuardPage>(*source.buffers[index]));
  array->buffers[index] = copies->back()->data();
}

TEST(PageEdge, ValuesEndingAtAnUnreadablePageConvertUnderEveryKernel) {
  constexpr int64_t kRows = 37;
  for (int64_t last : {0, 1, 7, 8, 9, 31, 32, 33, 56, 63, 64, 65}) {
    SCOPED_TRACE("last value of " + std::to_string(last) + " bytes");
    TestArray strings = testing::Strings("u", "s", Strings(kRows, last));
    TestArray string_lists =
        testing::ListOfLengths("list_u", testing::Strings("u", "element", Strings(kRows * 3, last)),
                               std::vector<std::optional<int64_t>>(kRows, 3));
    TestArray batch = testing::Batch({strings, string_lists, ListOf<int8_t>("c", kRows, last % 9),
                                      ListOf<int16_t>("s", kRows, last % 9),
                                      ListOf<int32_t>("i", kRows, last % 9),
                                      ListOf<int64_t>("l", kRows, last % 9)});
    testing::ReferenceRows reference = testing::ReferenceConvert(batch);
    ASSERT_EQ(reference.error, "");
    for (row::KernelIsa isa : row::kKernelIsas) {
      if (!row::KernelIsaAvailable(isa)) continue;
      for (Validation validation : {Validation::kCheap, Validation::kFull}) {
        SCOPED_TRACE(std::string(row::KernelIsaName(isa)) + " kernels, validation " +
                     std::to_string(static_cast<int>(validation)));
        auto exported = testing::ExportBatch(batch);
        ArrowArray& array = exported->array.array;
        std::vector<std::unique_ptr<BytesBeforeGuardPage>> copies;
        MoveBeforeGuard(strings, 2, array.children[0], &copies);
        MoveBeforeGuard(string_lists.children[0], 2, array.children[1]->children[0], &copies);
        for (int64_t c = 2; c < 6; ++c) {
          MoveBeforeGuard(batch.children[static_cast<size_t>(c)].children[0], 1,
                          array.children[c]->children[0], &copies);
        }
        ConverterOptions options;
        options.kernels = row::KernelsOf(isa);
        options.nested_writer = NestedWriter::kDepthFirst;
        options.validation = validation;
        std::unique_ptr<Converter> converter;
        Status made = Converter::Make(exported->schema.schema, options, &converter);
        ASSERT_TRUE(made.ok()) << made.message();
        testing::Conversion conversion = testing::Drain(*converter, array);
        ASSERT_TRUE(conversion.status.ok()) << conversion.status.message();
        EXPECT_GT(conversion.stats.depth_first_tiles, 0)
            << "the batch did not take the depth-first writer";
        ASSERT_EQ(conversion.rows.size(), reference.rows.size());
        for (size_t r = 0; r < reference.rows.size(); ++r) {
          EXPECT_EQ(testing::Hex(conversion.rows[r]), testing::Hex(reference.rows[r]))
              << "row " << r;
        }
      }
    }
  }
}

}  // namespace
}  // namespace rowbridge
