// The export of an owned Arrow node: the schema's fields, and the array's
// buffers copied into exact-size allocations or borrowed from the node.
#include "support/owned_arrow/array_node.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "support/owned_arrow/node_builders.hpp"

namespace rowbridge::owned_arrow {
namespace {

/// An int32 column of `values`, all valid, with an empty third buffer.
ArrayNode Int32Column(std::string name, const std::vector<int32_t>& values) {
  ArrayNode node;
  node.format = "i";
  node.name = std::move(name);
  node.length = static_cast<int64_t>(values.size());
  node.buffers = {std::nullopt, ToBytes(values), Bytes()};
  return node;
}

/// A batch of one dictionary-encoded column and one int32 column.
ArrayNode TwoColumnBatch() {
  ArrayNode indices = Int32Column("d", {0, 1, 0});
  indices.dictionary = std::make_shared<ArrayNode>(Int32Column("", {7, 8}));
  ArrayNode column = Int32Column("x", {1, 2, 3});
  column.nullable = false;
  column.metadata = std::string("\0\0\0\0", 4);
  return Batch({std::move(indices), std::move(column)});
}

TEST(OwnedArrowExport, SchemaCopiesNamesFlagsAndMetadata) {
  OwnedSchema schema;
  {
    ArrayNode batch = TwoColumnBatch();
    ExportSchema(batch, &schema.schema);
  }
  const ArrowSchema& root = schema.schema;
  EXPECT_STREQ(root.format, "+s");
  EXPECT_EQ(root.flags, 0);
  ASSERT_EQ(root.n_children, 2);
  EXPECT_STREQ(root.children[0]->name, "d");
  EXPECT_EQ(root.children[0]->flags, ARROW_FLAG_NULLABLE);
  EXPECT_EQ(root.children[0]->metadata, nullptr);
  ASSERT_NE(root.children[0]->dictionary, nullptr);
  EXPECT_STREQ(root.children[0]->dictionary->format, "i");
  EXPECT_STREQ(root.children[1]->name, "x");
  EXPECT_EQ(root.children[1]->flags, 0);
  ASSERT_NE(root.children[1]->metadata, nullptr);
  EXPECT_EQ(std::memcmp(root.children[1]->metadata, "\0\0\0\0", 4), 0);
}

TEST(OwnedArrowExport, CopiedBuffersOutliveTheNode) {
  OwnedArray array;
  const void* node_values = nullptr;
  {
    ArrayNode batch = TwoColumnBatch();
    node_values = batch.children[1].buffers[1]->data();
    ExportArray(batch, &array.array);
  }
  const ArrowArray& column = *array.array.children[1];
  EXPECT_EQ(array.array.length, 3);
  EXPECT_EQ(array.array.buffers[0], nullptr);
  ASSERT_EQ(column.n_buffers, 3);
  EXPECT_EQ(column.buffers[0], nullptr);
  EXPECT_NE(column.buffers[1], node_values);
  EXPECT_EQ(static_cast<const int32_t*>(column.buffers[1])[2], 3);
  EXPECT_NE(column.buffers[2], nullptr);  // an empty buffer is still present
  ASSERT_NE(array.array.children[0]->dictionary, nullptr);
  EXPECT_EQ(static_cast<const int32_t*>(array.array.children[0]->dictionary->buffers[1])[1], 8);
}

TEST(OwnedArrowExport, BorrowedBuffersPointIntoTheNode) {
  ArrayNode batch = TwoColumnBatch();
  OwnedArray array;
  ExportArray(batch, &array.array, BufferExport::kBorrow);
  const ArrowArray& column = *array.array.children[1];
  EXPECT_EQ(column.buffers[0], nullptr);
  EXPECT_EQ(column.buffers[1], batch.children[1].buffers[1]->data());
  EXPECT_EQ(column.buffers[2], nullptr);  // no bytes to point to
  EXPECT_EQ(array.array.children[0]->dictionary->buffers[1],
            batch.children[0].dictionary->buffers[1]->data());
}

TEST(OwnedArrowExport, AChildMovedOutIsReleasedOnceByItsNewOwner) {
  ArrayNode batch = TwoColumnBatch();
  OwnedArray root;
  ExportArray(batch, &root.array);
  // The C Data Interface's move: copy the struct, mark the source released.
  OwnedArray moved;
  moved.array = *root.array.children[0];
  root.array.children[0]->release = nullptr;
  root.array.release(&root.array);
  EXPECT_EQ(root.array.release, nullptr);
  ASSERT_NE(moved.array.dictionary, nullptr);
  EXPECT_EQ(static_cast<const int32_t*>(moved.array.dictionary->buffers[1])[0], 7);
}

}  // namespace
}  // namespace rowbridge::owned_arrow
