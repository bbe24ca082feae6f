// The chunk of rows a JNI call produced, read by Java at fixed offsets.
#pragma once

#include <cstdint>

#include "rowbridge/converter.hpp"

namespace rowbridge::jni {

/// The RowbridgeRowBatch layout: Java reads it with Platform.getLong at the
/// RESULT_* offsets of RowbridgeNative and ScanNative.
struct RowResult {
  const uint8_t* data = nullptr;         // @0
  const int64_t* row_offsets = nullptr;  // @8
  int64_t num_rows = 0;                  // @16
  int64_t first_row = 0;                 // @24
  int64_t data_size = 0;                 // @32

  /// Points the result at `view`'s rows.
  void Publish(const RowBatchView& view) {
    data = view.data;
    row_offsets = view.row_offsets;
    num_rows = view.num_rows;
    first_row = view.first_row;
    data_size = view.data_size;
  }
};
static_assert(sizeof(RowResult) == 40);

}  // namespace rowbridge::jni
