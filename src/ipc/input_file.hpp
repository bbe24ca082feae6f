// Bringing an input file into memory: mapped when possible, read otherwise.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "rowbridge/status.hpp"

namespace rowbridge::ipc {

/// The bytes of an input file and what keeps them alive.
struct InputBytes {
  /// Owns the bytes (a mapping or a vector); share it to keep them alive.
  std::shared_ptr<const void> owner;
  const uint8_t* data = nullptr;
  int64_t size = 0;
  bool mapped = false;
};

/// Maps the regular file at `path` read-only (when `memory_map`), or reads
/// it (or a pipe, or a device) into memory. The mapping assumes nobody
/// truncates the file while it is mapped (the operating system would then
/// signal a read past the new end).
Status LoadInputFile(const std::string& path, bool memory_map, InputBytes* out);

}  // namespace rowbridge::ipc
