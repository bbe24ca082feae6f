// Every sizing kernel set this machine runs (portable, AVX-512) against a
// plain reference written here: runs of every length from 0 to 40 (every
// tail of the eight-lane kernels), liveness bits at every offset in a byte,
// element sizes 1/2/4/8, and list offsets that are corrupt (negative,
// decreasing, past the child, longer than allowed). Inputs are random; the
// seed is printed, and ROWBRIDGE_TEST_SEED replays one.
#include "row/nested/size_kernels.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "row/kernel_isa.hpp"

namespace rowbridge {
namespace {

using row::KernelIsa;

constexpr int64_t kMaxRun = 40;

uint64_t TestSeed() {
  const char* forced = std::getenv("ROWBRIDGE_TEST_SEED");
  return forced != nullptr ? std::strtoull(forced, nullptr, 0) : 0x51ce5eedu;
}

/// The kernel sets of the ISAs this machine runs.
std::vector<std::pair<std::string, const row::SizeKernels*>> KernelSets() {
  std::vector<std::pair<std::string, const row::SizeKernels*>> sets;
  for (KernelIsa isa : {KernelIsa::kPortable, KernelIsa::kAvx512}) {
    if (!row::KernelIsaAvailable(isa)) continue;
    sets.emplace_back(isa == KernelIsa::kAvx512 ? "avx512" : "portable", row::SizeKernelsFor(isa));
  }
  return sets;
}

/// Random liveness for `count` items from a random bit offset (or none: all
/// live), in a bitmap of just the bytes that hold them, so that a kernel
/// reading further is caught by ASan.
struct Liveness {
  std::vector<uint8_t> bytes;
  row::LiveItems items;
  bool Live(int64_t j) const {
    return items.bits == nullptr ||
           ((items.bits[(items.offset + j) >> 3] >> ((items.offset + j) & 7)) & 1);
  }
};

Liveness RandomLiveness(std::mt19937_64& random, int64_t count) {
  Liveness live;
  if (random() % 4 == 0) return live;
  const int64_t offset = static_cast<int64_t>(random() % 8);
  live.bytes.resize(static_cast<size_t>(std::max<int64_t>(1, (offset + count + 7) / 8)));
  for (uint8_t& byte : live.bytes) byte = static_cast<uint8_t>(random() | random());  // ~75 % live
  live.items = row::LiveItems{live.bytes.data(), offset};
  return live;
}

int64_t FixedBytes(int64_t n, int64_t element_size) {
  return 8 + (n + 63) / 64 * 8 + (n * element_size + 7) / 8 * 8;
}

class SizeKernelsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    seed_ = TestSeed();
    std::printf("size kernels: seed %llu (ROWBRIDGE_TEST_SEED replays it)\n",
                static_cast<unsigned long long>(seed_));
    sets_ = KernelSets();
    ASSERT_FALSE(sets_.empty());
  }
  uint64_t seed_ = 0;
  std::vector<std::pair<std::string, const row::SizeKernels*>> sets_;
};

TEST_F(SizeKernelsTest, FillLiveAndClampAndScanEveryRunLength) {
  std::mt19937_64 random(seed_);
  for (int64_t count = 0; count <= kMaxRun; ++count) {
    const Liveness live = RandomLiveness(random, count);
    std::vector<int64_t> values(static_cast<size_t>(count));
    for (int64_t& v : values) v = static_cast<int64_t>(random() % 5000) << (random() % 24);
    std::vector<int64_t> filled(values.size()), clamped(values), scanned(values.size() + 1);
    int64_t running = 0;
    for (int64_t j = 0; j < count; ++j) {
      filled[j] = live.Live(j) ? 40 : 0;
      clamped[j] = std::min<int64_t>(values[j], 1 << 20);
      scanned[j] = running;
      running += values[j];
    }
    scanned[count] = running;
    for (const auto& [name, kernels] : sets_) {
      SCOPED_TRACE(name + " count " + std::to_string(count));
      // One slot past the run must stay as it was.
      std::vector<int64_t> out(values.size() + 1, -7);
      kernels->fill_live(out.data(), count, 40, live.items);
      EXPECT_EQ(std::vector<int64_t>(out.begin(), out.end() - 1), filled);
      EXPECT_EQ(out.back(), -7);
      out.assign(values.begin(), values.end());
      out.push_back(-7);
      kernels->clamp(out.data(), count, 1 << 20);
      EXPECT_EQ(std::vector<int64_t>(out.begin(), out.end() - 1), clamped);
      EXPECT_EQ(out.back(), -7);
      std::vector<int64_t> separate(values.size() + 1, -7);
      kernels->exclusive_scan(values.data(), separate.data(), count);
      EXPECT_EQ(separate, scanned);
      std::vector<int64_t> in_place(values);
      in_place.push_back(-7);
      kernels->exclusive_scan(in_place.data(), in_place.data(), count);
      EXPECT_EQ(in_place, scanned);
    }
  }
}

TEST_F(SizeKernelsTest, ArraySizesOfEveryElementSize) {
  std::mt19937_64 random(seed_ + 1);
  for (int64_t count = 0; count <= kMaxRun; ++count) {
    for (int64_t element_size : {1, 2, 4, 8}) {
      const Liveness live = RandomLiveness(random, count);
      std::vector<int64_t> first(static_cast<size_t>(count + 1));
      for (int64_t j = 0; j < count; ++j) {
        const int64_t n = random() % 3 == 0 ? 0 : static_cast<int64_t>(random() % 140);
        first[j + 1] = first[j] + n;
      }
      const int64_t total = first[count];
      std::vector<int64_t> prefix(static_cast<size_t>(total + 1));
      for (int64_t c = 0; c < total; ++c)
        prefix[c + 1] = prefix[c] + (random() % 50 == 0 ? int64_t{1} << 31
                                                        : static_cast<int64_t>(random() % 64));
      const int64_t limit = int64_t{1} << 32;
      for (bool with_prefix : {false, true}) {
        std::vector<int64_t> expected(static_cast<size_t>(count));
        for (int64_t j = 0; j < count; ++j) {
          int64_t size = FixedBytes(first[j + 1] - first[j], element_size);
          if (with_prefix) size = std::min(size + prefix[first[j + 1]] - prefix[first[j]], limit);
          expected[j] = live.Live(j) ? size : 0;
        }
        for (const auto& [name, kernels] : sets_) {
          SCOPED_TRACE(name + " count " + std::to_string(count) + " element size " +
                       std::to_string(element_size) + (with_prefix ? " with" : " without") +
                       " prefix");
          std::vector<int64_t> out(static_cast<size_t>(count + 1), -7);
          row::ArraySizing sizing;
          sizing.first = first.data();
          sizing.count = count;
          sizing.element_size = element_size;
          sizing.prefix = with_prefix ? prefix.data() : nullptr;
          sizing.limit = limit;
          sizing.live = live.items;
          sizing.out = out.data();
          kernels->array_sizes(sizing);
          EXPECT_EQ(std::vector<int64_t>(out.begin(), out.end() - 1), expected);
          EXPECT_EQ(out.back(), -7);
        }
      }
    }
  }
}

/// Random 32-bit list offsets: mostly in order, some corrupt.
std::vector<int32_t> RandomOffsets(std::mt19937_64& random, int64_t count, int32_t limit) {
  std::vector<int32_t> offsets(static_cast<size_t>(count + 1));
  offsets[0] = static_cast<int32_t>(random() % 5);
  for (int64_t j = 0; j < count; ++j) {
    // Wrapping, as corrupt offsets may be anything.
    const auto previous = static_cast<uint32_t>(offsets[j]);
    auto next = static_cast<int32_t>(previous + static_cast<uint32_t>(random() % 9));
    switch (random() % 40) {
      case 0: next = static_cast<int32_t>(previous - 3u); break;             // decreasing
      case 1: next = -static_cast<int32_t>(random() % 100); break;           // negative
      case 2: next = limit + 1 + static_cast<int32_t>(random() % 4); break;  // past the child
      case 3: next = INT32_MAX; break;
      case 4: next = INT32_MIN; break;
      default: break;
    }
    offsets[j + 1] = next;
  }
  return offsets;
}

TEST_F(SizeKernelsTest, OffsetRangesKeepLiveInRangeListsAndReportTheRest) {
  std::mt19937_64 random(seed_ + 2);
  int64_t runs_out_of_range = 0;
  int64_t runs_dropped = 0;
  for (int round = 0; round < 20; ++round) {
    for (int64_t count = 0; count <= kMaxRun; ++count) {
      const bool corrupt = round % 2 == 1;
      const int32_t limit = 8 * static_cast<int32_t>(count) + 10;
      std::vector<int32_t> offsets(static_cast<size_t>(count + 1));
      if (corrupt) {
        offsets = RandomOffsets(random, count, limit);
      } else {
        for (int64_t j = 0; j < count; ++j)
          offsets[j + 1] = offsets[j] + static_cast<int32_t>(random() % 9);
      }
      const int64_t max_length = round % 4 == 3 ? 5 : (int64_t{1} << 31) - 16;
      const Liveness live = RandomLiveness(random, count);
      std::vector<int64_t> first(static_cast<size_t>(count + 1));
      bool out_of_range = false;
      bool dropped = false;
      for (int64_t j = 0; j < count; ++j) {
        const int64_t start = offsets[j];
        const int64_t length = static_cast<int64_t>(offsets[j + 1]) - start;
        const bool bad = live.Live(j) && (start < 0 || start > limit || length < 0 ||
                                          length > max_length || start + length > limit);
        out_of_range |= bad;
        const int64_t kept = live.Live(j) && !bad ? length : 0;
        dropped |= kept != length;
        first[j + 1] = first[j] + kept;
      }
      runs_out_of_range += out_of_range;
      runs_dropped += dropped;
      for (const auto& [name, kernels] : sets_) {
        SCOPED_TRACE(name + " round " + std::to_string(round) + " count " + std::to_string(count));
        std::vector<int64_t> out(static_cast<size_t>(count + 2), -7);
        out[0] = 0;
        row::OffsetRanges ranges;
        ranges.offsets = reinterpret_cast<const uint8_t*>(offsets.data());
        ranges.count = count;
        ranges.live = live.items;
        ranges.limit = limit;
        ranges.max_length = max_length;
        ranges.first = out.data();
        const row::RangesFound found = kernels->offset_ranges(ranges);
        EXPECT_EQ(found.out_of_range, out_of_range);
        EXPECT_EQ(found.dropped, dropped);
        EXPECT_EQ(std::vector<int64_t>(out.begin(), out.end() - 1), first);
        EXPECT_EQ(out.back(), -7);
      }
    }
  }
  // The inputs reached both outcomes.
  EXPECT_GT(runs_out_of_range, 0);
  EXPECT_GT(runs_dropped, runs_out_of_range);
}

TEST_F(SizeKernelsTest, PaddedLengthScansOfStringOffsets) {
  std::mt19937_64 random(seed_ + 3);
  int64_t negative_runs = 0;
  for (int round = 0; round < 10; ++round) {
    for (int64_t count = 0; count <= kMaxRun; ++count) {
      // String offsets of lengths 0..70, one of them decreasing in odd rounds.
      std::vector<int32_t> offsets(static_cast<size_t>(count + 1));
      offsets[0] = static_cast<int32_t>(random() % 100);
      for (int64_t c = 0; c < count; ++c)
        offsets[c + 1] = offsets[c] + static_cast<int32_t>(random() % 71);
      if (round % 2 == 1 && count > 0) offsets[random() % (count + 1)] -= 90;
      const Liveness live = RandomLiveness(random, count);
      std::vector<int64_t> expected(static_cast<size_t>(count + 1));
      bool negative = false;
      for (int64_t c = 0; c < count; ++c) {
        const int64_t length = live.Live(c) ? int64_t{offsets[c + 1]} - offsets[c] : 0;
        negative |= length < 0;
        expected[c + 1] = expected[c] + (length + 7) / 8 * 8;
      }
      negative_runs += negative;
      for (const auto& [name, kernels] : sets_) {
        SCOPED_TRACE(name + " round " + std::to_string(round) + " count " + std::to_string(count));
        std::vector<int64_t> out(static_cast<size_t>(count + 2), -7);
        row::PaddedLengths lengths;
        lengths.offsets = reinterpret_cast<const uint8_t*>(offsets.data());
        lengths.count = count;
        lengths.live = live.items;
        lengths.out = out.data();
        EXPECT_EQ(kernels->padded_length_scan(lengths), !negative);
        if (!negative) {
          EXPECT_EQ(std::vector<int64_t>(out.begin(), out.end() - 1), expected);
        }
        EXPECT_EQ(out.back(), -7);
      }
    }
  }
  EXPECT_GT(negative_runs, 0);
}

}  // namespace
}  // namespace rowbridge
