#include "row/kernel_isa.hpp"
#include "row/row_layout.hpp"

namespace rowbridge {

RowPlan::RowPlan(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
RowPlan::~RowPlan() = default;

Status RowPlan::Compile(const ArrowSchema& schema, std::shared_ptr<const RowPlan>* out) {
  return Compile(schema, ConverterOptions(), out);
}

Status RowPlan::Compile(const ArrowSchema& schema, const ConverterOptions& options,
                        std::shared_ptr<const RowPlan>* out) {
  auto impl = std::make_unique<Impl>();
  impl->variants = options.variants;
  ROWBRIDGE_RETURN_NOT_OK(row::ResolveKernels(options.kernels, &impl->isa));
  ROWBRIDGE_RETURN_NOT_OK(ImportSchema(schema, &impl->schema));
  if (impl->schema.type.id != ArrowTypeId::kStruct || impl->schema.is_dictionary()) {
    return Status::Invalid("the batch schema must be a struct, got " + FieldTypeName(impl->schema));
  }
  const std::vector<ArrowField>& fields = impl->schema.children;
  if (fields.size() > (size_t{1} << 24)) {
    return Status::Invalid("the schema has " + std::to_string(fields.size()) +
                           " columns, too many for a row");
  }
  int32_t num_columns = static_cast<int32_t>(fields.size());
  std::vector<row::ColumnPlan> columns(fields.size());
  impl->spark_schema.id = SparkTypeId::kStruct;
  for (int32_t i = 0; i < num_columns; ++i) {
    row::ColumnPlan& column = columns[static_cast<size_t>(i)];
    ROWBRIDGE_RETURN_NOT_OK(row::CompileColumn(fields[static_cast<size_t>(i)], i, num_columns,
                                               nullptr, options.variants, impl->isa, &column));
    impl->spark_schema.fields.push_back(column.spark);
  }
  impl->layout = row::MakeLayout(std::move(columns));
  out->reset(new RowPlan(std::move(impl)));
  return Status::Ok();
}

const SparkType& RowPlan::spark_schema() const { return impl_->spark_schema; }
int64_t RowPlan::num_columns() const { return static_cast<int64_t>(impl_->layout->columns.size()); }
int64_t RowPlan::fixed_row_bytes() const { return impl_->layout->fixed_row_bytes; }
bool RowPlan::has_fixed_row_size() const { return !impl_->layout->has_variable_size; }
Kernels RowPlan::kernels() const { return row::KernelsOf(impl_->isa); }

}  // namespace rowbridge
