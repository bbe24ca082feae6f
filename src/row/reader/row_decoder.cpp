#include "rowbridge/row_decoder.hpp"

#include <climits>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "arrow/arrow_field.hpp"
#include "arrow/schema_export.hpp"
#include "row/memory_access.hpp"
#include "row/reader/decode_passes.hpp"
#include "row/reader/batch_export.hpp"
#include "row/reader/block_pool.hpp"
#include "row/reader/canonical_arrow.hpp"
#include "row/reader/decode_columns.hpp"
#include "row/reader/decode_plan.hpp"
#include "row/reader/decode_values.hpp"

namespace rowbridge {

struct RowDecoder::Impl {
  ArrowField schema;  // of the arrays decoded
  row::DecodePlan plan;
  std::vector<row::ColumnDecoder> columns;  // resolved with the plan
  /// The blocks decoded arrays live in; shared with the arrays' memory.
  std::shared_ptr<row::BlockPool> pool = std::make_shared<row::BlockPool>();
  // Reused per batch.
  std::vector<row::DecodeCounts> counts;
  std::vector<row::DecodeOutput> outputs;
};

namespace {

using row::DecodeCounts;
using row::DecodeKind;
using row::DecodeNode;
using row::DecodeOutput;

constexpr int64_t kAlign = 64;
constexpr int64_t RoundUp64(int64_t n) { return (n + kAlign - 1) & ~(kAlign - 1); }

/// Bytes a bitmap holds past its bits: bits are ORed in 64-bit words
/// (decode_fill.cpp).
constexpr int64_t kBitmapSlack = 16;

/// Bytes a string node's data buffer holds past its values: a short value's
/// copy stores 64 bytes whatever its length (decode_columns.cpp).
constexpr int64_t kStringSlack = row::kShortCopy;

/// The buffers of every node, carved from one block of `pool` (returned)
/// and sized from the counts; throws std::bad_alloc.
std::shared_ptr<uint8_t> AllocateOutputs(const row::DecodePlan& plan, const std::vector<DecodeCounts>& counts,
                                         row::BlockPool* pool, std::vector<DecodeOutput>* outputs) {
  auto sizes = [&](size_t i, int64_t* validity, int64_t* values, int64_t* data) {
    const DecodeNode& node = plan.nodes[i];
    *validity = (counts[i].values + 7) / 8 + kBitmapSlack;
    *values = row::HasValuesBuffer(node) ? row::ValuesBytes(node, counts[i].values) : 0;
    if (node.kind == DecodeKind::kBoolean) *values += kBitmapSlack;
    *data = row::HasDataBuffer(node) ? counts[i].bytes + kStringSlack : 0;
  };
  int64_t total = 0;
  for (size_t i = 0; i < plan.nodes.size(); ++i) {
    int64_t validity, values, data;
    sizes(i, &validity, &values, &data);
    total += RoundUp64(validity) + RoundUp64(values) + RoundUp64(data);
  }
  std::shared_ptr<uint8_t> block = pool->Take(total);
  uint8_t* cursor = block.get();
  outputs->assign(plan.nodes.size(), DecodeOutput{});
  for (size_t i = 0; i < plan.nodes.size(); ++i) {
    const DecodeNode& node = plan.nodes[i];
    DecodeOutput& out = (*outputs)[i];
    int64_t validity, values, data;
    sizes(i, &validity, &values, &data);
    out.validity = cursor;
    std::memset(out.validity, 0, static_cast<size_t>(validity));
    cursor += RoundUp64(validity);
    out.values = cursor;
    cursor += RoundUp64(values);
    if (node.kind == DecodeKind::kBoolean) std::memset(out.values, 0, static_cast<size_t>(values));
    if (node.kind == DecodeKind::kString32 || node.kind == DecodeKind::kList32 || node.kind == DecodeKind::kMap) {
      std::memset(out.values, 0, 4);
    } else if (node.kind == DecodeKind::kString64 || node.kind == DecodeKind::kList64) {
      std::memset(out.values, 0, 8);
    }
    out.data = cursor;
    cursor += RoundUp64(data);
  }
  return block;
}

Status CheckCapacity(const row::DecodePlan& plan, const std::vector<DecodeCounts>& counts) {
  for (size_t i = 0; i < plan.nodes.size(); ++i) {
    const DecodeNode& node = plan.nodes[i];
    if (node.kind == DecodeKind::kString32 && counts[i].bytes > INT32_MAX) {
      return Status::Capacity("field '" + node.path + "': " + std::to_string(counts[i].bytes) +
                              " bytes of values exceed the 32-bit offsets of its type (decode to large_utf8 or "
                              "large_binary, or fewer rows at a time)");
    }
    if ((node.kind == DecodeKind::kList32 || node.kind == DecodeKind::kMap) && counts[i].elements > INT32_MAX) {
      return Status::Capacity("field '" + node.path + "': " + std::to_string(counts[i].elements) +
                              " elements exceed the 32-bit offsets of its type (decode fewer rows at a time)");
    }
  }
  return Status::Ok();
}

}  // namespace

RowDecoder::RowDecoder(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
RowDecoder::~RowDecoder() = default;

namespace {

/// The decoder state for the schema `build` sets (into its ArrowField).
template <typename Build>
Status MakeImpl(Build&& build, std::unique_ptr<RowDecoder::Impl>* out) {
  try {
    auto impl = std::make_unique<RowDecoder::Impl>();
    ROWBRIDGE_RETURN_NOT_OK(build(&impl->schema));
    ROWBRIDGE_RETURN_NOT_OK(row::CompileDecodePlan(impl->schema, &impl->plan));
    impl->columns = row::ResolveColumnDecoders(impl->plan);
    *out = std::move(impl);
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("out of memory compiling a row decoder");
  }
}

}  // namespace

Status RowDecoder::Make(const ArrowSchema& schema, std::unique_ptr<RowDecoder>* out) {
  std::unique_ptr<Impl> impl;
  ROWBRIDGE_RETURN_NOT_OK(MakeImpl([&](ArrowField* field) { return ImportSchema(schema, field); }, &impl));
  out->reset(new RowDecoder(std::move(impl)));
  return Status::Ok();
}

Status RowDecoder::Make(const SparkType& schema, std::unique_ptr<RowDecoder>* out) {
  if (schema.id != SparkTypeId::kStruct) {
    return Status::Invalid("the rows' schema must be a struct, got " + schema.ToString());
  }
  std::unique_ptr<Impl> impl;
  ROWBRIDGE_RETURN_NOT_OK(MakeImpl(
      [&](ArrowField* field) { return row::CanonicalArrowField(schema, "", false, field); }, &impl));
  out->reset(new RowDecoder(std::move(impl)));
  return Status::Ok();
}

Status RowDecoder::ExportSchema(ArrowSchema* out) const { return ExportField(impl_->schema, out); }

const SparkType& RowDecoder::spark_schema() const { return impl_->plan.spark_schema; }

Status RowDecoder::Decode(const uint8_t* data, const int64_t* row_offsets, int64_t num_rows, ArrowArray* out) {
  if (num_rows < 0) return Status::Invalid("a negative row count: " + std::to_string(num_rows));
  if (num_rows > 0 && (data == nullptr || row_offsets == nullptr)) {
    return Status::Invalid("rows without data or row offsets");
  }
  if (out == nullptr) return Status::Invalid("no ArrowArray to decode into");
  const row::DecodePlan& plan = impl_->plan;
  try {
    ROWBRIDGE_RETURN_NOT_OK(row::MeasureRows(plan, impl_->columns, data, row_offsets, num_rows, &impl_->counts));
    ROWBRIDGE_RETURN_NOT_OK(CheckCapacity(plan, impl_->counts));
    std::shared_ptr<uint8_t> block = AllocateOutputs(plan, impl_->counts, impl_->pool.get(), &impl_->outputs);
    row::FillRows(plan, impl_->columns, data, row_offsets, num_rows, &impl_->outputs);
    row::ExportDecodedBatch(plan, impl_->outputs, std::move(block), num_rows, out);
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("out of memory decoding " + std::to_string(num_rows) + " rows");
  }
}

}  // namespace rowbridge
