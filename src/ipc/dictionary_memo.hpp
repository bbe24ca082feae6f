// The dictionaries in force while reading: id -> decoded dictionary values.
#pragma once

#include <cstdint>
#include <map>
#include <memory>

#include "ipc/array_data.hpp"
#include "ipc/ipc_schema.hpp"
#include "rowbridge/status.hpp"

namespace rowbridge::ipc {

class DictionaryMemo {
 public:
  /// The dictionary with `id`, or null when none has been defined.
  std::shared_ptr<const ArrayData> Find(int64_t id) const;

  /// Defines (replaces) the dictionary `id`, or appends `values` to it when
  /// `is_delta`. `field` gives the value type. A delta for an undefined id
  /// defines it. Throws std::bad_alloc.
  Status Add(const IpcField& field, int64_t id, std::shared_ptr<const ArrayData> values,
             bool is_delta);

  bool Contains(int64_t id) const { return dictionaries_.count(id) != 0; }

 private:
  std::map<int64_t, std::shared_ptr<const ArrayData>> dictionaries_;
};

/// Concatenates two arrays of the value type of `field` (fixed-width, bool,
/// binary and string types) into a new array with its own memory. Other
/// types are NotSupported. Throws std::bad_alloc.
Status ConcatenateArrays(const IpcField& field, const ArrayData& first, const ArrayData& second,
                         std::shared_ptr<const ArrayData>* out);

}  // namespace rowbridge::ipc
