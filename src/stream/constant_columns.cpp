// Constant columns appended to a row stream's batches (see the header).
#include "stream/constant_columns.hpp"

#include <cstring>
#include <limits>
#include <string>

namespace rowbridge::stream::detail {
namespace {

// The nodes built here borrow everything they point to: releasing them only
// marks them released.
void ReleaseBorrowedSchema(ArrowSchema* schema) { schema->release = nullptr; }
void ReleaseBorrowedArray(ArrowArray* array) { array->release = nullptr; }

}  // namespace

OwnedConstants::OwnedConstants(ConstantColumns* moved) {
  std::memcpy(&schema_, &moved->schema, sizeof(ArrowSchema));
  std::memcpy(&values_, &moved->values, sizeof(ArrowArray));
  moved->schema.release = nullptr;
  moved->values.release = nullptr;
}

OwnedConstants::~OwnedConstants() {
  if (values_.release != nullptr) values_.release(&values_);
  if (schema_.release != nullptr) schema_.release(&schema_);
}

Status OwnedConstants::Check() const {
  if (schema_.release == nullptr || values_.release == nullptr) {
    return Status::Invalid("the schema or the values are released");
  }
  if (schema_.format == nullptr || std::strcmp(schema_.format, "+s") != 0) {
    return Status::Invalid("the schema is not a struct");
  }
  if (values_.n_children != schema_.n_children) {
    return Status::Invalid("the values have " + std::to_string(values_.n_children) +
                           " columns, the schema " + std::to_string(schema_.n_children));
  }
  if (values_.length != 1 || values_.offset != 0) {
    return Status::Invalid("the values are not one row (length " + std::to_string(values_.length) +
                           ", offset " + std::to_string(values_.offset) + ")");
  }
  for (int64_t i = 0; i < schema_.n_children; ++i) {
    const ArrowArray* value = values_.children[i];
    if (value == nullptr || value->length < 1 || value->offset < 0) {
      return Status::Invalid("constant column " + std::to_string(i) + " has no value");
    }
  }
  return Status::Ok();
}

SchemaWithConstants::SchemaWithConstants(const ArrowSchema& batch,
                                         const OwnedConstants& constants) {
  const int64_t count = constants.count();
  children_.assign(batch.children, batch.children + batch.n_children);
  runs_.resize(count);
  run_children_.resize(2 * count);
  run_ends_.format = "i";
  run_ends_.name = "run_ends";
  run_ends_.release = ReleaseBorrowedSchema;
  for (int64_t i = 0; i < count; ++i) {
    const ArrowSchema& value = constants.schema(i);
    run_children_[2 * i] = &run_ends_;
    run_children_[2 * i + 1] = const_cast<ArrowSchema*>(&value);
    ArrowSchema& run = runs_[i];
    run.format = "+r";
    run.name = value.name;
    run.flags = ARROW_FLAG_NULLABLE;
    run.n_children = 2;
    run.children = &run_children_[2 * i];
    run.release = ReleaseBorrowedSchema;
    children_.push_back(&run);
  }
  top_ = batch;
  top_.n_children = static_cast<int64_t>(children_.size());
  top_.children = children_.data();
  top_.dictionary = nullptr;
  top_.release = ReleaseBorrowedSchema;
  top_.private_data = nullptr;
}

WithConstants::WithConstants(std::shared_ptr<const OwnedConstants> constants)
    : constants_(std::move(constants)) {
  const int64_t count = constants_->count();
  runs_.resize(count);
  run_ends_.resize(count);
  run_children_.resize(2 * count);
  run_end_buffers_.resize(2 * count);
}

Status WithConstants::Bind(const ArrowArray& batch) {
  if (batch.offset != 0) {
    return Status::Invalid("constant columns: the batch has an offset (" +
                           std::to_string(batch.offset) + ")");
  }
  if (batch.length > std::numeric_limits<int32_t>::max()) {
    return Status::Invalid("constant columns: the batch has more than INT32_MAX rows (" +
                           std::to_string(batch.length) + ")");
  }
  end_ = static_cast<int32_t>(batch.length);
  const int64_t count = constants_->count();
  children_.assign(batch.children, batch.children + batch.n_children);
  for (int64_t i = 0; i < count; ++i) {
    run_end_buffers_[2 * i] = nullptr;
    run_end_buffers_[2 * i + 1] = &end_;
    ArrowArray& ends = run_ends_[i];
    ends = ArrowArray{};
    ends.length = batch.length > 0 ? 1 : 0;
    ends.n_buffers = 2;
    ends.buffers = &run_end_buffers_[2 * i];
    ends.release = ReleaseBorrowedArray;
    run_children_[2 * i] = &ends;
    run_children_[2 * i + 1] = constants_->value(i);
    ArrowArray& run = runs_[i];
    run = ArrowArray{};
    run.length = batch.length;
    run.n_children = 2;
    run.children = &run_children_[2 * i];
    run.release = ReleaseBorrowedArray;
    children_.push_back(&run);
  }
  top_buffers_.assign(batch.buffers, batch.buffers + batch.n_buffers);
  top_ = ArrowArray{};
  top_.length = batch.length;
  top_.null_count = batch.null_count;
  top_.n_buffers = batch.n_buffers;
  top_.buffers = top_buffers_.data();
  top_.n_children = static_cast<int64_t>(children_.size());
  top_.children = children_.data();
  top_.release = ReleaseBorrowedArray;
  return Status::Ok();
}

}  // namespace rowbridge::stream::detail
