// The two framings of Arrow IPC data, shared by the reader and the writer.
#pragma once

#include <cstdint>

namespace rowbridge::ipc {

/// How the input or output is framed.
enum class IpcFormat : int32_t {
  /// The file format: magic, messages, footer, magic.
  kFile = 1,
  /// The stream format: a schema message, then dictionary and record batch
  /// messages, then an optional end-of-stream marker.
  kStream = 2,
};

}  // namespace rowbridge::ipc
