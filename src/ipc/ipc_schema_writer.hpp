// The fields of an Arrow C Data schema as the IPC writer keeps them, and
// their Schema table.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "arrow/arrow_type.hpp"
#include "ipc/flatbuffer_builder.hpp"
#include "rowbridge/arrow_c_data.h"
#include "rowbridge/status.hpp"

namespace rowbridge::ipc {

/// One field of a schema the writer writes, with its children.
struct WriterField {
  std::string name;
  std::string path;  // dotted, for errors
  ArrowType type;
  bool nullable = true;
  bool keys_sorted = false;                                   // maps
  std::vector<std::pair<std::string, std::string>> metadata;  // written as custom_metadata
  std::vector<WriterField> children;
};

/// The columns of `schema` (a struct). NotSupported, naming the field, for a
/// type the writer does not write (views, list views, run-end, dictionary,
/// unions).
Status DescribeSchema(const ArrowSchema& schema, std::vector<WriterField>* out);

/// Adds the Schema table of `columns` to `builder`.
FlatBuilder::Ref BuildSchema(const std::vector<WriterField>& columns, FlatBuilder* builder);

}  // namespace rowbridge::ipc
