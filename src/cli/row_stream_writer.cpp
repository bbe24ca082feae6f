#include "cli/row_stream_writer.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace rowbridge::cli {
namespace {
constexpr size_t kStagingBytes = size_t{1} << 20;
}  // namespace

RowStreamWriter::RowStreamWriter(int fd, std::string name)
    : fd_(fd), name_(std::move(name)), staging_(kStagingBytes) {}

Status RowStreamWriter::Append(const RowBatchView& rows) {
  for (int64_t i = 0; i < rows.num_rows; ++i) {
    const uint8_t* row = rows.data + rows.row_offsets[i];
    auto size = static_cast<uint32_t>(rows.row_offsets[i + 1] - rows.row_offsets[i]);
    uint8_t prefix[4] = {static_cast<uint8_t>(size >> 24), static_cast<uint8_t>(size >> 16),
                         static_cast<uint8_t>(size >> 8), static_cast<uint8_t>(size)};
    if (staged_ + 4 + size > staging_.size()) {
      ROWBRIDGE_RETURN_NOT_OK(Flush());
      if (4 + size > staging_.size()) {
        ROWBRIDGE_RETURN_NOT_OK(WriteAll(prefix, 4));
        ROWBRIDGE_RETURN_NOT_OK(WriteAll(row, size));
        continue;
      }
    }
    std::memcpy(staging_.data() + staged_, prefix, 4);
    std::memcpy(staging_.data() + staged_ + 4, row, size);
    staged_ += 4 + size;
  }
  return Status::Ok();
}

Status RowStreamWriter::Flush() {
  Status status = WriteAll(staging_.data(), staged_);
  staged_ = 0;
  return status;
}

Status RowStreamWriter::WriteAll(const uint8_t* data, size_t size) {
  while (size > 0) {
    ssize_t written = ::write(fd_, data, size);
    if (written < 0) {
      if (errno == EINTR) continue;
      return Status::Invalid("cannot write " + name_ + ": " + std::strerror(errno));
    }
    data += written;
    size -= static_cast<size_t>(written);
    bytes_written_ += written;
  }
  return Status::Ok();
}

}  // namespace rowbridge::cli
