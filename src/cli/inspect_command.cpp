// `rowbridge inspect IN`: what an Arrow IPC input holds and what Spark gets.
#include <iostream>
#include <memory>

#include "arrow/arrow_field.hpp"
#include "cli/convert_command.hpp"
#include "rowbridge/converter.hpp"
#include "rowbridge/ipc_reader.hpp"

namespace rowbridge::cli {
namespace {

void ReleaseSchema(ArrowSchema* schema) {
  if (schema->release != nullptr) schema->release(schema);
}

Status Inspect(const std::string& input, std::ostream& out) {
  std::unique_ptr<ipc::IpcReader> reader;
  ROWBRIDGE_RETURN_NOT_OK(ipc::IpcReader::Open(input, ipc::IpcReadOptions(), &reader));
  ipc::IpcFileInfo info;
  ROWBRIDGE_RETURN_NOT_OK(reader->Inspect(&info));
  ArrowSchema schema{};
  ROWBRIDGE_RETURN_NOT_OK(reader->ExportSchema(&schema));
  std::unique_ptr<ArrowSchema, void (*)(ArrowSchema*)> owned(&schema, &ReleaseSchema);
  ArrowField field;
  ROWBRIDGE_RETURN_NOT_OK(ImportSchema(schema, &field));
  std::shared_ptr<const RowPlan> plan;
  Status mapped = RowPlan::Compile(schema, &plan);

  out << "input: " << input << "\n";
  out << "format: "
      << (info.format == ipc::IpcFormat::kFile ? "Arrow IPC file" : "Arrow IPC stream")
      << ", metadata V" << info.metadata_version << ", " << info.input_bytes << " bytes\n";
  out << "compression: " << info.compression << "\n";
  out << "columns: " << field.children.size() << "\n";
  for (size_t i = 0; i < field.children.size(); ++i) {
    const ArrowField& column = field.children[i];
    const std::string extension = ExtensionName(column);
    out << "  " << column.name << ": " << FieldTypeName(column)
        << (extension.empty() ? "" : " (extension " + extension + ")")
        << (column.nullable ? "" : " not null");
    if (mapped.ok()) out << " -> " << plan->spark_schema().fields[i].type.ToString();
    out << "\n";
  }
  if (mapped.ok()) {
    out << "spark schema: " << plan->spark_schema().ToString() << "\n";
  } else {
    out << "spark schema: not convertible: " << mapped.message() << "\n";
  }
  for (const auto& [key, value] : info.schema_metadata) {
    out << "metadata: " << key << " = " << value << "\n";
  }
  out << "record batches: " << info.num_record_batches
      << ", dictionary batches: " << info.num_dictionary_batches << ", rows: " << info.num_rows
      << "\n";
  for (const ipc::IpcBatchInfo& batch : info.batches) {
    out << "  batch " << batch.index << ": " << batch.num_rows << " rows, body " << batch.body_bytes
        << " bytes";
    if (batch.compression != "none") {
      out << " (" << batch.uncompressed_body_bytes << " uncompressed, " << batch.compression << ")";
    }
    out << ", metadata " << batch.metadata_bytes << " bytes, at offset " << batch.offset << "\n";
  }
  return Status::Ok();
}

}  // namespace

int RunInspectCommand(const std::string& input) {
  Status status = Inspect(input, std::cout);
  return status.ok() ? 0 : ReportFailure("inspect", status);
}

}  // namespace rowbridge::cli
