// RowStreamWriter: rows in Spark's UnsafeRowSerializer stream format (for each
// row a 4-byte big-endian size, then its bytes), written to a file descriptor
// through a reused staging buffer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rowbridge/converter.hpp"

namespace rowbridge::cli {

class RowStreamWriter {
 public:
  /// Writes to `fd`, which the caller owns and keeps open; `name` names it in
  /// errors.
  RowStreamWriter(int fd, std::string name);

  /// Appends every row of `rows`.
  Status Append(const RowBatchView& rows);
  /// Writes out what is staged.
  Status Flush();

  int64_t bytes_written() const { return bytes_written_; }

 private:
  Status WriteAll(const uint8_t* data, size_t size);

  int fd_;
  std::string name_;
  std::vector<uint8_t> staging_;
  size_t staged_ = 0;
  int64_t bytes_written_ = 0;
};

}  // namespace rowbridge::cli
