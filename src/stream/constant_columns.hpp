// Constant columns of a row stream: a partition's values appended to every
// batch as run-end encoded columns of one run, so the converter writes the
// value into each row without a column of values ever existing.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "rowbridge/arrow_c_data.h"
#include "rowbridge/status.hpp"
#include "rowbridge/stream.hpp"

namespace rowbridge::stream::detail {

/// The constant columns of a stream, owned: moved out of a ConstantColumns
/// (left released) and released when the last holder lets go.
class OwnedConstants {
 public:
  explicit OwnedConstants(ConstantColumns* moved);
  ~OwnedConstants();
  OwnedConstants(const OwnedConstants&) = delete;
  OwnedConstants& operator=(const OwnedConstants&) = delete;

  /// The schema is a struct, the values a struct of one row with as many
  /// children, each holding at least one value.
  Status Check() const;
  int64_t count() const { return schema_.n_children; }
  const ArrowSchema& schema(int64_t i) const { return *schema_.children[i]; }
  ArrowArray* value(int64_t i) const { return values_.children[i]; }

 private:
  ArrowSchema schema_{};
  ArrowArray values_{};
};

/// A batch schema with the constant columns appended as run-end encoded
/// fields (int32 run ends). Borrows both; lives while `schema()` is used.
class SchemaWithConstants {
 public:
  SchemaWithConstants(const ArrowSchema& batch, const OwnedConstants& constants);
  const ArrowSchema* schema() const { return &top_; }

 private:
  ArrowSchema top_{};
  std::vector<ArrowSchema*> children_;
  std::vector<ArrowSchema> runs_;
  std::vector<ArrowSchema*> run_children_;
  ArrowSchema run_ends_{};
};

/// One batch with the constant columns appended, rebuilt in place for each
/// batch (`Bind`); the nodes borrow the batch's children and the constants.
class WithConstants {
 public:
  explicit WithConstants(std::shared_ptr<const OwnedConstants> constants);
  /// Points the appended columns at `batch` (a struct array at offset 0 of
  /// at most INT32_MAX rows); `array()` stays valid until the next Bind.
  Status Bind(const ArrowArray& batch);
  const ArrowArray* array() const { return &top_; }

 private:
  std::shared_ptr<const OwnedConstants> constants_;
  ArrowArray top_{};
  std::vector<ArrowArray*> children_;
  std::vector<ArrowArray> runs_;
  std::vector<ArrowArray> run_ends_;
  std::vector<ArrowArray*> run_children_;
  std::vector<const void*> run_end_buffers_;
  std::vector<const void*> top_buffers_;
  int32_t end_ = 0;
};

}  // namespace rowbridge::stream::detail
