// Export of schemas as C Data Interface ArrowSchema structs: the node every
// exporter builds (SchemaNode, used by the IPC reader's schema export too)
// and the export of an ArrowField tree.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "arrow/arrow_field.hpp"
#include "rowbridge/arrow_c_data.h"
#include "rowbridge/status.hpp"

namespace rowbridge {

/// Everything one exported ArrowSchema node owns. Destroying it releases the
/// children and dictionary still attached (those a consumer did not move out).
struct SchemaNode {
  std::string format;
  std::string name;
  std::string metadata;  // encoded (EncodeMetadata)
  std::vector<ArrowSchema> child_storage;
  std::vector<ArrowSchema*> children;
  ArrowSchema dictionary{};

  /// Makes room for `n` children (released structs, to be exported into).
  void ResizeChildren(size_t n);
  ~SchemaNode();
};

/// Encodes key/value pairs in the C Data Interface metadata format ("" when
/// there are none).
std::string EncodeMetadata(const std::vector<std::pair<std::string, std::string>>& pairs);

/// Hands `node` to `out` as a finished ArrowSchema with `flags` (its
/// dictionary attached when `has_dictionary`); `out->release` frees it.
void FinishSchemaNode(std::unique_ptr<SchemaNode> node, int64_t flags, bool has_dictionary,
                      ArrowSchema* out);

/// Exports a copy of `field` (format, name, nullability, sorted map keys,
/// metadata and children, recursively; not a dictionary) into `out`, which
/// must be uninitialized or released. The caller owns `out` and releases it
/// with `out->release(out)`; any child may be moved out and released on its
/// own. Borrows `field`. On failure (OutOfMemory, or NotSupported for a
/// dictionary-encoded field) `out` is untouched.
Status ExportField(const ArrowField& field, ArrowSchema* out);

}  // namespace rowbridge
