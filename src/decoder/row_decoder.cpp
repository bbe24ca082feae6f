#include "rowbridge/row_decoder.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "arrow/arrow_field.hpp"
#include "arrow/schema_export.hpp"
#include "decoder/batch_export.hpp"
#include "decoder/block_pool.hpp"
#include "decoder/canonical_arrow.hpp"
#include "decoder/decode_columns.hpp"
#include "decoder/decode_passes.hpp"
#include "decoder/decode_plan.hpp"
#include "decoder/decode_values.hpp"
#include "decoder/fill_tile.hpp"
#include "row/kernel_isa.hpp"
#include "spark/memory_access.hpp"

namespace rowbridge {

struct RowDecoder::Impl {
  ArrowField schema;  // of the arrays decoded
  decoder::DecodePlan plan;
  decoder::ColumnDecoders columns;  // resolved with the plan
  decoder::KeptWords kept_words;    // reused per batch
  decoder::NodeFills fills;         // resolved with the plan
  /// The blocks decoded arrays live in; shared with the arrays' memory.
  std::shared_ptr<decoder::BlockPool> pool = std::make_shared<decoder::BlockPool>();
  // Reused per batch.
  std::vector<decoder::DecodeCounts> counts;
  std::vector<decoder::DecodeOutput> outputs;
  /// DecodeInto's validity bits of null-type nodes, which Arrow keeps none of.
  std::vector<uint8_t> null_validity;
};

namespace {

using decoder::DecodeCounts;
using decoder::DecodeKind;
using decoder::DecodeNode;
using decoder::DecodeOutput;

constexpr int64_t kAlign = 64;
constexpr int64_t RoundUp64(int64_t n) { return (n + kAlign - 1) & ~(kAlign - 1); }

/// Bytes a bitmap holds past its bits: bits are ORed in 64-bit words
/// (decode_fill.cpp).
constexpr int64_t kBitmapSlack = 16;

/// Bytes a string node's data buffer holds past its values: a short value's
/// copy stores 64 bytes whatever its length (decode_columns.cpp).
constexpr int64_t kStringSlack = decoder::kShortCopy;

/// The bytes each buffer of `node` needs for `counts`, slack included.
struct NodeBytes {
  int64_t validity = 0;
  int64_t values = 0;
  int64_t data = 0;
};

NodeBytes BytesOf(const DecodeNode& node, const DecodeCounts& counts) {
  NodeBytes bytes;
  bytes.validity = (counts.values + 7) / 8 + kBitmapSlack;
  bytes.values = decoder::HasValuesBuffer(node) ? decoder::ValuesBytes(node, counts.values) : 0;
  if (node.kind == DecodeKind::kBoolean) bytes.values += kBitmapSlack;
  bytes.data = decoder::HasDataBuffer(node) ? counts.bytes + kStringSlack : 0;
  return bytes;
}

/// Prepares `out`'s buffers for the fill pass: a zeroed validity bitmap
/// (and boolean bitmap) and a first offset of 0.
void ResetOutput(const DecodeNode& node, const NodeBytes& bytes, DecodeOutput* out) {
  std::memset(out->validity, 0, static_cast<size_t>(bytes.validity));
  if (node.kind == DecodeKind::kBoolean)
    std::memset(out->values, 0, static_cast<size_t>(bytes.values));
  if (node.kind == DecodeKind::kString32 || node.kind == DecodeKind::kList32 ||
      node.kind == DecodeKind::kMap) {
    std::memset(out->values, 0, 4);
  } else if (node.kind == DecodeKind::kString64 || node.kind == DecodeKind::kList64) {
    std::memset(out->values, 0, 8);
  }
}

/// The buffers of every node, carved from one block of `pool` (returned)
/// and sized from the counts; throws std::bad_alloc.
std::shared_ptr<uint8_t> AllocateOutputs(const decoder::DecodePlan& plan,
                                         const std::vector<DecodeCounts>& counts,
                                         decoder::BlockPool* pool,
                                         std::vector<DecodeOutput>* outputs) {
  int64_t total = 0;
  for (size_t i = 0; i < plan.nodes.size(); ++i) {
    const NodeBytes bytes = BytesOf(plan.nodes[i], counts[i]);
    total += RoundUp64(bytes.validity) + RoundUp64(bytes.values) + RoundUp64(bytes.data);
  }
  std::shared_ptr<uint8_t> block = pool->Take(total);
  uint8_t* cursor = block.get();
  outputs->assign(plan.nodes.size(), DecodeOutput{});
  for (size_t i = 0; i < plan.nodes.size(); ++i) {
    const NodeBytes bytes = BytesOf(plan.nodes[i], counts[i]);
    DecodeOutput& out = (*outputs)[i];
    out.validity = cursor;
    cursor += RoundUp64(bytes.validity);
    out.values = cursor;
    cursor += RoundUp64(bytes.values);
    out.data = cursor;
    cursor += RoundUp64(bytes.data);
    ResetOutput(plan.nodes[i], bytes, &out);
  }
  return block;
}

Status CheckCapacity(const decoder::DecodePlan& plan, const std::vector<DecodeCounts>& counts) {
  for (size_t i = 0; i < plan.nodes.size(); ++i) {
    const DecodeNode& node = plan.nodes[i];
    if (node.kind == DecodeKind::kString32 && counts[i].bytes > INT32_MAX) {
      return Status::Capacity(
          "field '" + node.path + "': " + std::to_string(counts[i].bytes) +
          " bytes of values exceed the 32-bit offsets of its type (decode to large_utf8 or "
          "large_binary, or fewer rows at a time)");
    }
    if ((node.kind == DecodeKind::kList32 || node.kind == DecodeKind::kMap) &&
        counts[i].elements > INT32_MAX) {
      return Status::Capacity(
          "field '" + node.path + "': " + std::to_string(counts[i].elements) +
          " elements exceed the 32-bit offsets of its type (decode fewer rows at a time)");
    }
  }
  return Status::Ok();
}

}  // namespace

RowDecoder::RowDecoder(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
RowDecoder::~RowDecoder() = default;

namespace {

/// The decoder state for the schema `build` sets (into its ArrowField),
/// with the fill kernels of `kernels`.
template <typename Build>
Status MakeImpl(Build&& build, Kernels kernels, std::unique_ptr<RowDecoder::Impl>* out) {
  try {
    row::KernelIsa isa;
    ROWBRIDGE_RETURN_NOT_OK(row::ResolveKernels(kernels, &isa));
    auto impl = std::make_unique<RowDecoder::Impl>();
    ROWBRIDGE_RETURN_NOT_OK(build(&impl->schema));
    ROWBRIDGE_RETURN_NOT_OK(decoder::CompileDecodePlan(impl->schema, &impl->plan));
    impl->columns = decoder::ResolveColumnDecoders(impl->plan, isa);
    impl->fills = decoder::ResolveNodeFills(impl->plan);
    *out = std::move(impl);
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("out of memory compiling a row decoder");
  }
}

}  // namespace

Status RowDecoder::Make(const ArrowSchema& schema, std::unique_ptr<RowDecoder>* out) {
  return Make(schema, Kernels::kAuto, out);
}

Status RowDecoder::Make(const SparkType& schema, std::unique_ptr<RowDecoder>* out) {
  return Make(schema, Kernels::kAuto, out);
}

Status RowDecoder::Make(const ArrowSchema& schema, Kernels kernels,
                        std::unique_ptr<RowDecoder>* out) {
  std::unique_ptr<Impl> impl;
  ROWBRIDGE_RETURN_NOT_OK(
      MakeImpl([&](ArrowField* field) { return ImportSchema(schema, field); }, kernels, &impl));
  out->reset(new RowDecoder(std::move(impl)));
  return Status::Ok();
}

Status RowDecoder::Make(const SparkType& schema, Kernels kernels,
                        std::unique_ptr<RowDecoder>* out) {
  if (schema.id != SparkTypeId::kStruct) {
    return Status::Invalid("the rows' schema must be a struct, got " + schema.ToString());
  }
  std::unique_ptr<Impl> impl;
  ROWBRIDGE_RETURN_NOT_OK(MakeImpl(
      [&](ArrowField* field) { return decoder::CanonicalArrowField(schema, "", false, field); },
      kernels, &impl));
  out->reset(new RowDecoder(std::move(impl)));
  return Status::Ok();
}

Status RowDecoder::ExportSchema(ArrowSchema* out) const { return ExportField(impl_->schema, out); }

const SparkType& RowDecoder::spark_schema() const { return impl_->plan.spark_schema; }

Status RowDecoder::Decode(const uint8_t* data, const int64_t* row_offsets, int64_t num_rows,
                          ArrowArray* out) {
  if (num_rows < 0) return Status::Invalid("a negative row count: " + std::to_string(num_rows));
  if (num_rows > 0 && (data == nullptr || row_offsets == nullptr)) {
    return Status::Invalid("rows without data or row offsets");
  }
  if (out == nullptr) return Status::Invalid("no ArrowArray to decode into");
  const decoder::DecodePlan& plan = impl_->plan;
  try {
    ROWBRIDGE_RETURN_NOT_OK(decoder::MeasureRows(plan, impl_->columns, &impl_->kept_words, data,
                                                 row_offsets, num_rows, &impl_->counts));
    ROWBRIDGE_RETURN_NOT_OK(CheckCapacity(plan, impl_->counts));
    std::shared_ptr<uint8_t> block =
        AllocateOutputs(plan, impl_->counts, impl_->pool.get(), &impl_->outputs);
    decoder::FillRows(plan, impl_->columns, impl_->kept_words, impl_->fills, data, row_offsets,
                      num_rows, &impl_->outputs);
    decoder::ExportDecodedBatch(plan, impl_->outputs, std::move(block), num_rows, out);
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("out of memory decoding " + std::to_string(num_rows) + " rows");
  }
}

int64_t RowDecoder::num_targets() const { return static_cast<int64_t>(impl_->plan.nodes.size()); }

Status RowDecoder::DecodeInto(const uint8_t* data, const int64_t* row_offsets, int64_t num_rows,
                              DecodeTarget* targets, int64_t num_targets, bool* decoded) {
  if (num_rows < 0) return Status::Invalid("a negative row count: " + std::to_string(num_rows));
  if (num_rows > 0 && (data == nullptr || row_offsets == nullptr)) {
    return Status::Invalid("rows without data or row offsets");
  }
  const decoder::DecodePlan& plan = impl_->plan;
  if (targets == nullptr || decoded == nullptr ||
      num_targets != static_cast<int64_t>(plan.nodes.size())) {
    return Status::Invalid("the decoder's schema has " + std::to_string(plan.nodes.size()) +
                           " target nodes, not " + std::to_string(num_targets));
  }
  *decoded = false;
  try {
    ROWBRIDGE_RETURN_NOT_OK(decoder::MeasureRows(plan, impl_->columns, &impl_->kept_words, data,
                                                 row_offsets, num_rows, &impl_->counts));
    ROWBRIDGE_RETURN_NOT_OK(CheckCapacity(plan, impl_->counts));
    const std::vector<DecodeCounts>& counts = impl_->counts;
    bool fits = true;
    for (size_t i = 0; i < plan.nodes.size(); ++i) {
      const DecodeNode& node = plan.nodes[i];
      DecodeTarget& target = targets[i];
      const NodeBytes bytes = BytesOf(node, counts[i]);
      target.validity_needed = node.kind == DecodeKind::kNull ? 0 : bytes.validity;
      target.values_needed = bytes.values;
      target.data_needed = bytes.data;
      target.entries_validity_needed =
          node.kind == DecodeKind::kMap ? (counts[i].elements + 7) / 8 : 0;
      fits = fits && target.validity_capacity >= target.validity_needed &&
             target.values_capacity >= target.values_needed &&
             target.data_capacity >= target.data_needed &&
             target.entries_validity_capacity >= target.entries_validity_needed;
      if (target.validity_needed > 0 && target.validity_address == 0) fits = false;
      if (target.values_needed > 0 && target.values_address == 0) fits = false;
      if (target.data_needed > 0 && target.data_address == 0) fits = false;
      if (target.entries_validity_needed > 0 && target.entries_validity_address == 0) fits = false;
    }
    if (!fits) return Status::Ok();
    std::vector<DecodeOutput>& outputs = impl_->outputs;
    outputs.assign(plan.nodes.size(), DecodeOutput{});
    size_t null_bytes = 0;  // one scratch bitmap serves every null-type node
    for (size_t i = 0; i < plan.nodes.size(); ++i) {
      if (plan.nodes[i].kind == DecodeKind::kNull) {
        null_bytes =
            std::max(null_bytes, static_cast<size_t>(BytesOf(plan.nodes[i], counts[i]).validity));
      }
    }
    if (impl_->null_validity.size() < null_bytes) impl_->null_validity.resize(null_bytes);
    for (size_t i = 0; i < plan.nodes.size(); ++i) {
      const DecodeNode& node = plan.nodes[i];
      const DecodeTarget& target = targets[i];
      DecodeOutput& out = outputs[i];
      if (node.kind == DecodeKind::kNull) {
        out.validity = impl_->null_validity.data();
        continue;
      }
      out.validity = reinterpret_cast<uint8_t*>(target.validity_address);
      out.values = reinterpret_cast<uint8_t*>(target.values_address);
      out.data = reinterpret_cast<uint8_t*>(target.data_address);
      ResetOutput(node, BytesOf(node, counts[i]), &out);
      if (target.entries_validity_needed > 0) {
        std::memset(reinterpret_cast<uint8_t*>(target.entries_validity_address), 0xff,
                    static_cast<size_t>(target.entries_validity_needed));
      }
    }
    decoder::FillRows(plan, impl_->columns, impl_->kept_words, impl_->fills, data, row_offsets,
                      num_rows, &outputs);
    for (size_t i = 0; i < plan.nodes.size(); ++i) {
      targets[i].length = outputs[i].length;
      targets[i].null_count =
          plan.nodes[i].kind == DecodeKind::kNull ? outputs[i].length : outputs[i].null_count;
      targets[i].data_size = outputs[i].data_size;
    }
    *decoded = true;
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("out of memory decoding " + std::to_string(num_rows) + " rows");
  }
}

}  // namespace rowbridge
