// The row decoder's per-value work, for any node: checking and counting a
// value (ValueMeasure, the measure pass) and writing it (ValueFill, the fill
// pass). The column drivers (decode_columns.cpp) call them for the values
// their fast paths do not cover: nested values, large decimals, intervals.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "row/reader/decode_passes.hpp"

namespace rowbridge::row {

class ValueMeasure {
 public:
  ValueMeasure(const DecodePlan& plan, std::vector<DecodeCounts>* counts) : plan_(plan), counts_(*counts) {}

  /// The fields `fields` of a row or nested row `region` of top-level row `row`.
  Status Fields(const std::vector<int32_t>& fields, RowRegion region, int64_t row);

  /// Valid value of node `index` whose slot or array element is at `at`, in `region`.
  Status Value(int32_t index, RowRegion region, const uint8_t* at, int64_t row);

  /// An error naming `node`'s field and top-level row `row`.
  static Status Error(const DecodeNode& node, int64_t row, const std::string& message);
  /// A well-formed value its Arrow type cannot hold.
  static Status Overflow(const DecodeNode& node, int64_t row, const std::string& message);

 private:
  const DecodeNode& Node(int32_t index) const { return plan_.nodes[static_cast<size_t>(index)]; }
  Status Variable(const DecodeNode& node, int32_t index, RowRegion value, int64_t row);
  Status Array(const DecodeNode& parent, int32_t index, RowRegion region, bool keys, int64_t row, int64_t* n);

  const DecodePlan& plan_;
  std::vector<DecodeCounts>& counts_;
};

class ValueFill {
 public:
  ValueFill(const DecodePlan& plan, std::vector<DecodeOutput>* outputs) : plan_(plan), outputs_(*outputs) {}

  /// The fields `fields` of a row or nested row `region`.
  void Fields(const std::vector<int32_t>& fields, RowRegion region);
  /// Appends a null to node `index`: a zero value, a repeated offset, nulls
  /// in a struct's fields.
  void Null(int32_t index);
  /// Appends the valid value of node `index` whose slot or array element is
  /// at `at`, in `region`.
  void Value(int32_t index, RowRegion region, const uint8_t* at);

 private:
  const DecodeNode& Node(int32_t index) const { return plan_.nodes[static_cast<size_t>(index)]; }
  DecodeOutput& Output(int32_t index) { return outputs_[static_cast<size_t>(index)]; }
  int64_t Array(int32_t index, RowRegion region);

  const DecodePlan& plan_;
  std::vector<DecodeOutput>& outputs_;
};

}  // namespace rowbridge::row
