// OutputFile: where `rowbridge convert` writes, with no partial output.
#pragma once

#include <string>

#include "rowbridge/status.hpp"

namespace rowbridge::cli {

/// A regular file is written under a temporary name in its directory and
/// renamed over `path` by Commit, so a failure leaves no new file and an
/// existing one untouched; "-" (standard output) and non-regular files (a
/// device such as /dev/null, a pipe) are written in place.
class OutputFile {
 public:
  OutputFile() = default;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  /// Removes the temporary file unless Commit succeeded.
  ~OutputFile();

  Status Open(const std::string& path);
  int fd() const { return fd_; }
  /// Closes the file and, for a regular file, renames it into place.
  Status Commit();

 private:
  std::string path_;
  std::string temporary_;  // empty when written in place
  int fd_ = -1;
  bool owns_fd_ = false;
};

}  // namespace rowbridge::cli
