// The schema of an IPC input: Schema/Field/Type flatbuffer tables parsed into
// fields that carry C Data Interface format strings.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "arrow/arrow_type.hpp"
#include "ipc/flatbuffer_reader.hpp"
#include "rowbridge/arrow_c_data.h"
#include "rowbridge/status.hpp"

namespace rowbridge::ipc {

using KeyValues = std::vector<std::pair<std::string, std::string>>;

/// One field of the schema (a column or a nested child).
struct IpcField {
  std::string name;
  /// Dotted path from the column, for error messages ("a.b.item").
  std::string path;
  bool nullable = true;
  /// Format and parsed type of the values (for a dictionary-encoded field,
  /// of the dictionary's values).
  std::string format;
  ArrowType type;
  bool map_keys_sorted = false;
  KeyValues metadata;
  /// Children of the value type.
  std::vector<IpcField> children;

  /// Dictionary encoding: the field's own arrays hold indices of type
  /// `index_type` into the dictionary with id `dictionary_id`.
  bool is_dictionary = false;
  int64_t dictionary_id = 0;
  bool dictionary_ordered = false;
  std::string index_format;
  ArrowType index_type;
};

/// A parsed schema: the columns, the schema's metadata, and an index of the
/// dictionary-encoded fields by id.
struct IpcSchema {
  std::vector<IpcField> fields;
  KeyValues metadata;
  int16_t metadata_version = 4;
  /// Dictionary id -> the first field that uses it (points into `fields`;
  /// valid while the schema is neither moved from nor modified).
  std::map<int64_t, const IpcField*> dictionaries;
  int64_t total_fields = 0;
};

struct SchemaLimits {
  int32_t max_depth = 64;
  int64_t max_fields = int64_t{1} << 16;
};

/// Parses the Schema table `schema` into `out`. Rejects big-endian schemas,
/// union and unknown types (naming the field), malformed structure (child
/// counts, dictionary index types) and schemas beyond `limits`.
Status ParseSchema(const FlatTable& schema, const SchemaLimits& limits, IpcSchema* out);

/// Rebuilds the dictionary index of `schema` (after a copy or move).
void IndexDictionaries(IpcSchema* schema);

/// Exports `schema` as a struct ArrowSchema; the caller releases `out`.
Status ExportIpcSchema(const IpcSchema& schema, ArrowSchema* out);

/// Exports the value type of `field` (the dictionary of a dictionary-encoded
/// field) as an ArrowSchema; the caller releases `out`.
Status ExportValueSchema(const IpcField& field, ArrowSchema* out);

/// Reads a vector of KeyValue tables (custom metadata) at `field` of `table`.
Status ReadKeyValues(const FlatTable& table, int field, KeyValues* out);

}  // namespace rowbridge::ipc
