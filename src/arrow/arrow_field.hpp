// ArrowField: an owned, parsed copy of an ArrowSchema tree.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "arrow/arrow_type.hpp"
#include "rowbridge/arrow_c_data.h"
#include "rowbridge/status.hpp"

namespace rowbridge {

/// The field metadata keys of an Arrow extension type (Arrow's columnar format).
inline constexpr char kExtensionNameKey[] = "ARROW:extension:name";
inline constexpr char kExtensionMetadataKey[] = "ARROW:extension:metadata";

struct ArrowField {
  std::string name;
  std::string format;
  ArrowType type;  // for a dictionary-encoded field: the index type
  bool nullable = true;
  bool map_keys_sorted = false;
  /// Set by the converter on a large_binary field that stands for a Spark
  /// variant struct: its values are the variant's row bytes
  /// ([int32 value length][value][metadata]), built per batch (row/variant_shadow.hpp).
  bool variant_bytes = false;
  std::vector<std::pair<std::string, std::string>> metadata;
  std::vector<ArrowField> children;
  /// Empty, or the one value field of a dictionary-encoded field.
  std::vector<ArrowField> dictionary;

  bool is_dictionary() const { return !dictionary.empty(); }
};

/// Copies and parses `schema` into `out`, recursively. Borrows `schema`: it is
/// neither released nor retained, and must not already be released. Checks the
/// structure (child counts each type requires, dictionary index types,
/// run-end types, metadata encoding) and rejects malformed input with a message
/// naming the path of the field. Types rowbridge cannot convert are accepted
/// here; the row plan rejects them.
Status ImportSchema(const ArrowSchema& schema, ArrowField* out);

/// Decodes the C Data Interface metadata encoding (int32 count, then for each
/// pair an int32 length and bytes). `metadata` may be NULL.
Status DecodeMetadata(const char* metadata, std::vector<std::pair<std::string, std::string>>* out);

/// Returns a readable type of `field`, e.g. "dictionary<int32, utf8>"; a child
/// of an extension type is followed by "(extension NAME)", the field itself not.
std::string FieldTypeName(const ArrowField& field);

/// Returns the name of the field's Arrow extension type (its "ARROW:extension:name"
/// metadata), or an empty string for a field without one. The field's format is the
/// extension's storage type, which is what its values are read as.
std::string ExtensionName(const ArrowField& field);

/// Returns the field's extension metadata pairs, "ARROW:extension:name" and
/// "ARROW:extension:metadata" (when the field has it), in that order, or nothing for
/// a field without an extension name: what a Spark field read as the extension's
/// storage type keeps (CONTRACTS.md §2).
std::vector<std::pair<std::string, std::string>> ExtensionMetadata(const ArrowField& field);

/// Returns true when the two fields have the same physical layout: the same
/// format strings and dictionary encoding, recursively (names are ignored).
bool SameLayout(const ArrowField& a, const ArrowSchema& b);

}  // namespace rowbridge
