// BlockPool: blocks come back when released and are reused; a block
// released after its pool is gone is freed (AddressSanitizer checks both);
// a decoder's steady state reuses one block.
#include "decoder/block_pool.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <thread>

#include "rowbridge/row_decoder.hpp"
#include "support/row_test_util.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge::decoder {
namespace {

TEST(BlockPool, ReleasedBlocksAreReusedSmallestFitFirst) {
  auto pool = std::make_shared<BlockPool>();
  std::shared_ptr<uint8_t> big = pool->Take(4096);
  std::shared_ptr<uint8_t> small = pool->Take(100);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(big.get()) % 64, 0u);
  const uint8_t* big_address = big.get();
  const uint8_t* small_address = small.get();
  big.reset();
  small.reset();
  EXPECT_EQ(pool->FreeBytes(), 4096 + 100);
  EXPECT_EQ(pool->Take(50).get(), small_address);  // the smallest that fits (released right away)
  EXPECT_EQ(pool->Take(1000).get(), big_address);
  std::shared_ptr<uint8_t> fresh = pool->Take(8192);  // none fits: a new block
  EXPECT_NE(fresh.get(), big_address);
}

TEST(BlockPool, KeepsAtMostFourBlocksTheLargest) {
  auto pool = std::make_shared<BlockPool>();
  std::vector<std::shared_ptr<uint8_t>> blocks;
  for (int64_t size : {100, 200, 300, 400, 500}) blocks.push_back(pool->Take(size));
  blocks.clear();
  EXPECT_EQ(pool->FreeBytes(), 200 + 300 + 400 + 500);
}

TEST(BlockPool, BlocksOutliveTheirPoolAndComeBackFromOtherThreads) {
  auto pool = std::make_shared<BlockPool>();
  std::shared_ptr<uint8_t> kept = pool->Take(256);
  std::shared_ptr<uint8_t> other = pool->Take(256);
  std::thread([block = std::move(other)]() mutable { block.reset(); }).join();
  EXPECT_EQ(pool->FreeBytes(), 256);
  pool.reset();
  kept.reset();  // freed, not given back
}

TEST(BlockPool, ADecoderReusesItsBlockOnceTheArraysAreReleased) {
  testing::OwnedSchema schema;
  testing::ExportSchema(
      testing::SchemaNode("+s", "", {testing::SchemaNode("l", "a"), testing::SchemaNode("u", "s")}),
      &schema.schema);
  std::unique_ptr<RowDecoder> decoder;
  ASSERT_TRUE(RowDecoder::Make(schema.schema, &decoder).ok());
  // Two rows: a = 7, s = "abc".
  std::vector<uint8_t> rows(2 * 32, 0);
  for (int r = 0; r < 2; ++r) {
    rows[static_cast<size_t>(32 * r + 8)] = 7;
    const uint64_t slot = (uint64_t{24} << 32) | 3;
    std::memcpy(rows.data() + 32 * r + 16, &slot, 8);
    std::memcpy(rows.data() + 32 * r + 24, "abc", 3);
  }
  const int64_t offsets[] = {0, 32, 64};
  testing::OwnedArray first;
  ASSERT_TRUE(decoder->Decode(rows.data(), offsets, 2, &first.array).ok());
  const void* values = first.array.children[0]->buffers[1];
  // A child moved out keeps the block alive after its parent is released.
  ArrowArray child = *first.array.children[1];
  first.array.children[1]->release = nullptr;
  first.array.release(&first.array);
  EXPECT_EQ(std::memcmp(child.buffers[2], "abcabc", 6), 0);
  testing::OwnedArray second;
  ASSERT_TRUE(decoder->Decode(rows.data(), offsets, 2, &second.array).ok());
  const void* second_values = second.array.children[0]->buffers[1];
  EXPECT_NE(second_values, values);  // the first block is still in use
  child.release(&child);
  second.array.release(&second.array);
  testing::OwnedArray third;
  ASSERT_TRUE(decoder->Decode(rows.data(), offsets, 2, &third.array).ok());
  // Both blocks are back: the third batch takes one of them.
  const void* third_values = third.array.children[0]->buffers[1];
  EXPECT_TRUE(third_values == values || third_values == second_values);
}

}  // namespace
}  // namespace rowbridge::decoder
