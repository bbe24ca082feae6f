// The shared O(values) checks: what each accepts, and the element, values and
// limit its errors name.
#include "arrow/value_checks.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace rowbridge {
namespace {

template <typename T>
std::vector<uint8_t> Bytes(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

/// Succeeds when `status` is Invalid with exactly `message`.
::testing::AssertionResult IsInvalid(const Status& status, const std::string& message) {
  if (status.code() == StatusCode::kInvalid && status.message() == message) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "got '" << status.message() << "'";
}

TEST(ValueChecks, OffsetsFromAnyFirstElement) {
  auto offsets = Bytes<int32_t>({-7, 0, 2, 2, 5});
  EXPECT_TRUE(CheckOffsets<int32_t>(offsets.data(), 1, 3, 5).ok());
  EXPECT_TRUE(
      IsInvalid(CheckOffsets<int32_t>(offsets.data(), 0, 4, 5), "element 0: negative offset -7"));
  // Nothing is read for no elements.
  EXPECT_TRUE(CheckOffsets<int32_t>(offsets.data(), 0, 0, 5).ok());
  auto decreasing = Bytes<int64_t>({0, 4, 3, 9});
  EXPECT_TRUE(IsInvalid(CheckOffsetsOfWidth(decreasing.data(), 8, 3, 9),
                        "element 1: offsets decrease (4 then 3)"));
}

TEST(ValueChecks, OffsetsPastTheLimitNameTheFirstElementPastIt) {
  auto offsets = Bytes<int32_t>({0, 2, 4, 9, 12});
  EXPECT_TRUE(IsInvalid(CheckOffsets<int32_t>(offsets.data(), 0, 4, 5),
                        "element 2: offset 9 is outside [0, 5]"));
  EXPECT_TRUE(IsInvalid(CheckOffsets<int32_t>(offsets.data(), 3, 1, 5),
                        "element 0: offset 9 is outside [0, 5]"));
  EXPECT_TRUE(CheckOffsets<int32_t>(offsets.data(), 0, 4, 12).ok());
}

TEST(ValueChecks, ListViewsSkipNullElements) {
  auto offsets = Bytes<int32_t>({0, 2, 1});
  auto sizes = Bytes<int32_t>({2, 5, 2});
  uint8_t validity = 0b101;  // element 1 is null
  EXPECT_TRUE(CheckListViews<int32_t>(&validity, offsets.data(), sizes.data(), 0, 3, 3).ok());
  EXPECT_TRUE(IsInvalid(CheckListViewsOfWidth(nullptr, offsets.data(), sizes.data(), 4, 3, 3),
                        "element 1: list view [2, +5) is outside the 3-element child"));
  // From element 1, the views checked are elements 1 and 2 of the buffers.
  EXPECT_TRUE(IsInvalid(CheckListViews<int32_t>(nullptr, offsets.data(), sizes.data(), 1, 2, 3),
                        "element 0: list view [2, +5) is outside the 3-element child"));
}

/// A 16-byte binary view of `length` bytes in data buffer `buffer` at
/// `offset` (inline values leave both zero).
std::vector<uint8_t> View(int32_t length, int32_t buffer, int32_t offset) {
  return Bytes<int32_t>({length, 0x78787878, buffer, offset});
}

TEST(ValueChecks, ViewsInsideTheirDataBuffers) {
  std::vector<uint8_t> views;
  for (const auto& view : {View(5, 0, 0), View(20, 0, 10), View(20, 1, 0)}) {
    views.insert(views.end(), view.begin(), view.end());
  }
  auto data_sizes = Bytes<int64_t>({30, 20});
  char data[30] = {};
  const void* buffers[2] = {data, data};
  EXPECT_TRUE(CheckViews(nullptr, views.data(), 0, 3, data_sizes.data(), buffers, 2).ok());
  EXPECT_TRUE(IsInvalid(CheckViews(nullptr, views.data(), 0, 3, data_sizes.data(), buffers, 1),
                        "element 2: view refers to data buffer 1 of 1"));
  auto small = Bytes<int64_t>({29, 20});
  EXPECT_TRUE(IsInvalid(CheckViews(nullptr, views.data(), 1, 2, small.data(), buffers, 2),
                        "element 0: view [10, 30) is outside data buffer 0 of 29 bytes"));
  const void* missing[2] = {data, nullptr};
  EXPECT_TRUE(IsInvalid(CheckViews(nullptr, views.data(), 0, 3, data_sizes.data(), missing, 2),
                        "element 2: data buffer 1 is NULL"));
  uint8_t validity = 0b011;  // element 2 is null
  EXPECT_TRUE(CheckViews(&validity, views.data(), 0, 3, data_sizes.data(), missing, 2).ok());
  auto negative = View(-1, 0, 0);
  EXPECT_TRUE(IsInvalid(CheckViews(nullptr, negative.data(), 0, 1, data_sizes.data(), buffers, 2),
                        "element 0: negative view length"));
}

TEST(ValueChecks, RunEndsIncreaseFromOne) {
  auto ends = Bytes<int16_t>({0, 2, 2, 5});
  EXPECT_TRUE(
      IsInvalid(CheckRunEnds<int16_t>(ends.data(), 0, 4), "run 0: run end 0 is not positive"));
  EXPECT_TRUE(IsInvalid(CheckRunEndsOfWidth(ends.data() + 2, 2, 3),
                        "run 1: run end 2 is not greater than the previous (2)"));
  EXPECT_TRUE(CheckRunEnds<int16_t>(ends.data(), 2, 2).ok());
}

TEST(ValueChecks, DictionaryIndices) {
  auto indices = Bytes<uint8_t>({0, 200, 1});
  uint8_t validity = 0b101;
  EXPECT_TRUE(CheckIndices(&validity, indices.data(), 1, false, 3, 2).ok());
  EXPECT_TRUE(IsInvalid(CheckIndices(nullptr, indices.data(), 1, false, 3, 2),
                        "element 1: dictionary index 200 is outside the 2-value dictionary"));
  EXPECT_TRUE(IsInvalid(CheckIndices(nullptr, indices.data(), 1, true, 3, 2),
                        "element 1: dictionary index -56 is outside the 2-value dictionary"));
}

}  // namespace
}  // namespace rowbridge
