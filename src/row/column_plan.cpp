#include "row/column_plan.hpp"

#include <algorithm>

#include "row/nested/nested_plan.hpp"
#include "row/variant_shadow.hpp"
#include "row/writer_families.hpp"
#include "spark/decimal_math.hpp"
#include "spark/memory_access.hpp"
#include "spark/type_mapping.hpp"

namespace rowbridge::row {
namespace {

bool IsBinaryLike(ArrowTypeId id) {
  switch (id) {
    case ArrowTypeId::kUtf8:
    case ArrowTypeId::kLargeUtf8:
    case ArrowTypeId::kUtf8View:
    case ArrowTypeId::kBinary:
    case ArrowTypeId::kLargeBinary:
    case ArrowTypeId::kBinaryView:
    case ArrowTypeId::kFixedSizeBinary: return true;
    default: return false;
  }
}

bool SameSparkType(const SparkType& a, const SparkType& b) { return a.ToString() == b.ToString(); }

}  // namespace

Status ResolveSlotWriters(const ArrowType& type, KernelIsa isa, WriterSet* out) {
  if (IsBinaryLike(type.id)) return BinaryWriters(type, isa, out);
  if (type.id == ArrowTypeId::kUInt64) return LargeDecimalWriters(type, out);
  if (type.id == ArrowTypeId::kDecimal && type.precision > spark::kMaxSmallDecimalDigits) {
    return LargeDecimalWriters(type, out);
  }
  if (type.id == ArrowTypeId::kIntervalMonthDayNano || type.id == ArrowTypeId::kNull) {
    return IntervalAndNullWriters(type, out);
  }
  return FixedWidthWriters(type, out);
}

Status CompileColumn(const ArrowField& original, int32_t index, int32_t num_columns,
                     const SparkField* expected, bool variants, KernelIsa isa, ColumnPlan* out) {
  out->field = original;
  ArrowField field;
  if (variants) {
    ROWBRIDGE_RETURN_NOT_OK(
        RewriteVariantFields(original, original.name, &field, &out->has_variants));
  } else {
    field = original;
  }
  ROWBRIDGE_RETURN_NOT_OK(spark::MapToSpark(field, field.name, &out->spark, variants));
  if (expected != nullptr && !SameSparkType(expected->type, out->spark.type)) {
    return Status::Invalid("column '" + field.name + "' changed from Spark type " +
                           expected->type.ToString() + " to " + out->spark.type.ToString() + " (" +
                           FieldTypeName(original) + ")");
  }
  if (field.is_dictionary()) {
    out->encoding = Encoding::kDictionary;
    out->index_type = field.type;
  } else if (field.type.id == ArrowTypeId::kRunEndEncoded) {
    out->encoding = Encoding::kRunEnd;
    out->index_type = field.children[0].type;
  } else {
    out->encoding = Encoding::kPlain;
  }
  out->value_type = spark::ValueField(field).type;
  ColumnTarget& target = out->target;
  target.slot_offset = static_cast<int32_t>(spark::BitsetBytes(num_columns) + int64_t{8} * index);
  target.null_word_offset = (index / 64) * 8;
  target.null_mask = uint64_t{1} << (index % 64);
  target.precision = out->spark.type.precision;
  target.name = field.name;
  target.type_name = FieldTypeName(original);
  if (IsNestedSparkType(out->spark.type)) {
    // Written by the nested column writers; never bound by TryBindPlainFast.
    ROWBRIDGE_RETURN_NOT_OK(CompileNestedColumn(field, out->spark.type, isa, &out->nested));
    out->writers = NestedColumnWriters();
    out->variable_size = true;
    return Status::Ok();
  }
  ROWBRIDGE_RETURN_NOT_OK(ResolveSlotWriters(out->value_type, isa, &out->writers)
                              .WithContext("column '" + field.name + "'"));
  out->variable_size = out->writers.size[0][0] != nullptr;
  out->plain_is_view = out->value_type.id == ArrowTypeId::kUtf8View ||
                       out->value_type.id == ArrowTypeId::kBinaryView;
  out->plain_buffers = ExpectedBufferCount(out->value_type);
  switch (out->value_type.id) {
    case ArrowTypeId::kUtf8:
    case ArrowTypeId::kBinary: out->prefetch_bytes_per_value = 4; break;
    case ArrowTypeId::kLargeUtf8:
    case ArrowTypeId::kLargeBinary: out->prefetch_bytes_per_value = 8; break;
    case ArrowTypeId::kUtf8View:
    case ArrowTypeId::kBinaryView: out->prefetch_bytes_per_value = 16; break;
    default: out->prefetch_bytes_per_value = std::max(1, PrimitiveByteWidth(out->value_type));
  }
  out->plain_data_buffers = out->value_type.id == ArrowTypeId::kNull
                                ? 0
                                : (out->plain_is_view ? 1 : out->plain_buffers - 1);
  return Status::Ok();
}

std::string ColumnRowError(const ColumnTarget& target, int64_t row, const std::string& message) {
  return "column '" + target.name + "' (" + target.type_name + ") row " + std::to_string(row) +
         ": " + message;
}

}  // namespace rowbridge::row
