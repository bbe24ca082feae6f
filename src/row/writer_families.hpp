// The column writer families, one source file each. Each function returns
// the writers for a column whose values have the Arrow type `type`, or
// NotSupported when the family does not cover it.
#pragma once

#include "arrow/arrow_type.hpp"
#include "row/column_writer.hpp"

namespace rowbridge::row {

/// bool, integers, floats, dates, timestamps, durations, year-month intervals
/// and decimals of precision <= 18: one value in the 8-byte slot.
Status FixedWidthWriters(const ArrowType& type, WriterSet* out);

enum class KernelIsa : uint8_t;  // row/kernel_isa.hpp

/// utf8, large_utf8, utf8_view, binary, large_binary, binary_view and
/// fixed_size_binary: bytes in the variable region, copied by the kernels of
/// `isa`.
Status BinaryWriters(const ArrowType& type, KernelIsa isa, WriterSet* out);

/// decimal128/256 of precision 19..38 and uint64 (as decimal(20,0)): 16 bytes
/// reserved in the variable region for every row.
Status LargeDecimalWriters(const ArrowType& type, WriterSet* out);

/// interval[month_day_nano] as CalendarInterval, and the null type.
Status IntervalAndNullWriters(const ArrowType& type, WriterSet* out);

}  // namespace rowbridge::row
