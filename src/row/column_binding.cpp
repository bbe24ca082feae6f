#include "row/column_binding.hpp"

#include <algorithm>

#include "arrow/array_checks.hpp"
#include "arrow/value_checks.hpp"
#include "row/encoded_gather.hpp"
#include "row/nested/nested_column.hpp"
#include "spark/memory_access.hpp"

namespace rowbridge::row {
namespace {

std::string ColumnLabel(const ColumnPlan& plan) { return "column '" + plan.field.name + "'"; }

}  // namespace

void BindValues(const ArrowArray& array, const ArrowType& type, ColumnInput* input) {
  const auto* const* buffers = reinterpret_cast<const uint8_t* const*>(array.buffers);
  input->offset = array.offset;
  input->validity = MayHaveNulls(array) ? buffers[0] : nullptr;
  input->validity_offset = array.offset;
  input->values = array.n_buffers > 1 ? buffers[1] : nullptr;
  input->data = nullptr;
  input->variadic = nullptr;
  input->variadic_count = 0;
  input->fixed_size = type.fixed_size;
  switch (type.id) {
    case ArrowTypeId::kUtf8:
    case ArrowTypeId::kLargeUtf8:
    case ArrowTypeId::kBinary:
    case ArrowTypeId::kLargeBinary: input->data = buffers[2]; break;
    case ArrowTypeId::kUtf8View:
    case ArrowTypeId::kBinaryView:
      input->variadic = buffers + 2;
      input->variadic_count = array.n_buffers - 3;
      break;
    default: break;
  }
}

namespace {

template <typename IndexType>
Status GatherDictionaryColumn(const ColumnPlan& plan, const ArrowArray& indices,
                              int64_t batch_offset, int64_t num_rows, const ArrowArray& dictionary,
                              ColumnScratch* scratch, bool* any_null) {
  const auto* index_values = static_cast<const uint8_t*>(indices.buffers[1]);
  const uint8_t* index_validity =
      MayHaveNulls(indices) ? static_cast<const uint8_t*>(indices.buffers[0]) : nullptr;
  const uint8_t* value_validity = dictionary.n_buffers > 0 && MayHaveNulls(dictionary)
                                      ? static_cast<const uint8_t*>(dictionary.buffers[0])
                                      : nullptr;
  const ContiguousPositions positions{indices.offset + batch_offset};
  const int64_t bad = GatherDictionary<IndexType>(
      index_values, index_validity, positions, num_rows,
      DictionaryValues{dictionary.offset, dictionary.length, value_validity},
      GatherOutput{scratch->gather.data(), scratch->validity.data()}, any_null);
  if (bad < 0) return Status::Ok();
  return Status::Invalid(ColumnLabel(plan) + " row " + std::to_string(bad) + ": dictionary index " +
                         std::to_string(LoadElement<IndexType>(index_values, positions[bad])) +
                         " is outside the dictionary of " + std::to_string(dictionary.length) +
                         " values");
}

Status BindDictionary(const ColumnPlan& plan, const ArrowArray& array, int64_t batch_offset,
                      int64_t num_rows, ColumnScratch* scratch, ColumnInput* input,
                      bool* any_null) {
  if (array.dictionary == nullptr) {
    return Status::Invalid(ColumnLabel(plan) +
                           ": the schema says dictionary-encoded but the array has no dictionary");
  }
  const ArrowArray& dictionary = *array.dictionary;
  ROWBRIDGE_RETURN_NOT_OK(
      CheckArrayNode(dictionary, plan.value_type, 0, 0, plan.field.name, "dictionary"));
  BindValues(dictionary, plan.value_type, input);
  switch (plan.index_type.id) {
    case ArrowTypeId::kInt8:
      return GatherDictionaryColumn<int8_t>(plan, array, batch_offset, num_rows, dictionary,
                                            scratch, any_null);
    case ArrowTypeId::kUInt8:
      return GatherDictionaryColumn<uint8_t>(plan, array, batch_offset, num_rows, dictionary,
                                             scratch, any_null);
    case ArrowTypeId::kInt16:
      return GatherDictionaryColumn<int16_t>(plan, array, batch_offset, num_rows, dictionary,
                                             scratch, any_null);
    case ArrowTypeId::kUInt16:
      return GatherDictionaryColumn<uint16_t>(plan, array, batch_offset, num_rows, dictionary,
                                              scratch, any_null);
    case ArrowTypeId::kInt32:
      return GatherDictionaryColumn<int32_t>(plan, array, batch_offset, num_rows, dictionary,
                                             scratch, any_null);
    case ArrowTypeId::kUInt32:
      return GatherDictionaryColumn<uint32_t>(plan, array, batch_offset, num_rows, dictionary,
                                              scratch, any_null);
    case ArrowTypeId::kInt64:
      return GatherDictionaryColumn<int64_t>(plan, array, batch_offset, num_rows, dictionary,
                                             scratch, any_null);
    case ArrowTypeId::kUInt64:
      return GatherDictionaryColumn<uint64_t>(plan, array, batch_offset, num_rows, dictionary,
                                              scratch, any_null);
    default: return Status::Internal(ColumnLabel(plan) + ": unexpected dictionary index type");
  }
}

template <typename RunEndType>
Status GatherRunsColumn(const ColumnPlan& plan, const ArrowArray& array, int64_t batch_offset,
                        int64_t num_rows, Validation validation, ColumnScratch* scratch,
                        bool* any_null) {
  const ArrowArray& run_ends = *array.children[0];
  const ArrowArray& values = *array.children[1];
  const auto* ends =
      static_cast<const uint8_t*>(run_ends.buffers[1]) + run_ends.offset * sizeof(RunEndType);
  const int64_t runs = run_ends.length;
  if (validation == Validation::kFull) {
    Status status = CheckRunEnds<RunEndType>(ends, 0, runs);
    if (!status.ok()) return status.WithContext(ColumnLabel(plan));
  }
  const uint8_t* value_validity = values.n_buffers > 0 && MayHaveNulls(values)
                                      ? static_cast<const uint8_t*>(values.buffers[0])
                                      : nullptr;
  const int64_t bad = GatherRuns<RunEndType>(
      RunValues{ends, runs, values.offset, value_validity},
      ContiguousPositions{array.offset + batch_offset}, num_rows,
      GatherOutput{scratch->gather.data(), scratch->validity.data()}, any_null);
  if (bad < 0) return Status::Ok();
  return Status::Invalid(ColumnLabel(plan) + " row " + std::to_string(bad) +
                         ": past the last run end (" + std::to_string(runs) + " runs)");
}

Status BindRunEnd(const ColumnPlan& plan, const ArrowArray& array, int64_t batch_offset,
                  int64_t num_rows, Validation validation, ColumnScratch* scratch,
                  ColumnInput* input, bool* any_null) {
  const ArrowArray& run_ends = *array.children[0];
  const ArrowArray& values = *array.children[1];
  ROWBRIDGE_RETURN_NOT_OK(
      CheckArrayNode(run_ends, plan.index_type, 0, 0, plan.field.name, "run ends"));
  if (run_ends.null_count > 0)
    return Status::Invalid(ColumnLabel(plan) + ": run ends contain nulls");
  ROWBRIDGE_RETURN_NOT_OK(CheckArrayNode(values, plan.value_type, 0, run_ends.length,
                                         plan.field.name, "run-end values"));
  BindValues(values, plan.value_type, input);
  switch (plan.index_type.id) {
    case ArrowTypeId::kInt16:
      return GatherRunsColumn<int16_t>(plan, array, batch_offset, num_rows, validation, scratch,
                                       any_null);
    case ArrowTypeId::kInt32:
      return GatherRunsColumn<int32_t>(plan, array, batch_offset, num_rows, validation, scratch,
                                       any_null);
    case ArrowTypeId::kInt64:
      return GatherRunsColumn<int64_t>(plan, array, batch_offset, num_rows, validation, scratch,
                                       any_null);
    default: return Status::Internal(ColumnLabel(plan) + ": unexpected run end type");
  }
}

/// Returns the first null batch row of a bound column that has nulls.
int64_t FirstNullRow(const ColumnPlan& plan, const ColumnInput& input, int64_t num_rows) {
  if (plan.value_type.id == ArrowTypeId::kNull || input.validity == nullptr) return 0;
  for (int64_t r = 0; r < num_rows; ++r) {
    if (!GetBit(input.validity, input.validity_offset + r)) return r;
  }
  return 0;
}

Status BindEncoded(const ColumnPlan& plan, const ArrowArray& array, int64_t batch_offset,
                   int64_t num_rows, Validation validation, ColumnScratch* scratch,
                   ColumnInput* input, bool* all_valid) {
  switch (plan.encoding) {
    case Encoding::kPlain: {
      if (array.dictionary != nullptr) {
        return Status::Invalid(ColumnLabel(plan) +
                               ": the array is dictionary-encoded but the schema in force is " +
                               FieldTypeName(plan.field) + "; pass the batch's schema");
      }
      ROWBRIDGE_RETURN_NOT_OK(
          CheckArrayNode(array, plan.value_type, 0, batch_offset + num_rows, plan.field.name, ""));
      BindValues(array, plan.value_type, input);
      input->offset = array.offset + batch_offset;
      input->validity_offset = input->offset;
      input->gather = nullptr;
      *all_valid = input->validity == nullptr || plan.value_type.id == ArrowTypeId::kNull;
      if (validation == Validation::kFull) {
        ROWBRIDGE_RETURN_NOT_OK(
            ValidateValues(array, plan.value_type, batch_offset, num_rows, plan.field.name, ""));
      }
      return Status::Ok();
    }
    case Encoding::kDictionary:
    case Encoding::kRunEnd: {
      bool run_end = plan.encoding == Encoding::kRunEnd;
      ROWBRIDGE_RETURN_NOT_OK(CheckArrayNode(array, run_end ? plan.field.type : plan.index_type,
                                             run_end ? 2 : 0, batch_offset + num_rows,
                                             plan.field.name, ""));
      if (run_end && array.null_count > 0) {
        return Status::Invalid(ColumnLabel(plan) + ": a run-end encoded array has a null count");
      }
      if (scratch->gather.size() < static_cast<size_t>(num_rows)) {
        scratch->gather.resize(static_cast<size_t>(num_rows));
        scratch->validity.resize(static_cast<size_t>(GatherValidityBytes(num_rows)));
      }
      bool any_null = false;
      Status status =
          run_end ? BindRunEnd(plan, array, batch_offset, num_rows, validation, scratch, input,
                               &any_null)
                  : BindDictionary(plan, array, batch_offset, num_rows, scratch, input, &any_null);
      ROWBRIDGE_RETURN_NOT_OK(status);
      if (validation == Validation::kFull) {
        const ArrowArray& values = run_end ? *array.children[1] : *array.dictionary;
        ROWBRIDGE_RETURN_NOT_OK(
            ValidateValues(values, plan.value_type, 0, values.length, plan.field.name, "values"));
      }
      input->gather = scratch->gather.data();
      input->validity = any_null ? scratch->validity.data() : nullptr;
      input->validity_offset = 0;
      *all_valid = !any_null || plan.value_type.id == ArrowTypeId::kNull;
      return Status::Ok();
    }
  }
  return Status::Internal("unknown encoding");
}

}  // namespace

Status BindColumn(const ColumnPlan& plan, const ArrowArray& array, int64_t batch_offset,
                  int64_t num_rows, Validation validation, ColumnScratch* scratch,
                  ColumnInput* input, bool* all_valid) {
  if (plan.nested != nullptr) {
    return BindNestedColumn(plan, array, batch_offset, num_rows, validation, scratch, input,
                            all_valid);
  }
  ROWBRIDGE_RETURN_NOT_OK(
      BindEncoded(plan, array, batch_offset, num_rows, validation, scratch, input, all_valid));
  if (validation == Validation::kFull && !plan.field.nullable && !*all_valid) {
    return Status::Invalid(ColumnLabel(plan) + " row " +
                           std::to_string(FirstNullRow(plan, *input, num_rows)) +
                           ": null in a non-nullable field");
  }
  return Status::Ok();
}

}  // namespace rowbridge::row
