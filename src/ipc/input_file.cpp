#include "ipc/input_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace rowbridge::ipc {
namespace {

/// A read-only mapping, unmapped on destruction.
class Mapping {
 public:
  Mapping(void* address, size_t size) : address_(address), size_(size) {}
  ~Mapping() { munmap(address_, size_); }
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;

 private:
  void* address_;
  size_t size_;
};

/// Closes a file descriptor on scope exit.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

Status SystemError(const std::string& what, const std::string& path) {
  return Status::Invalid("cannot " + what + " " + path + ": " + std::strerror(errno));
}

Status ReadAll(int fd, const std::string& path, InputBytes* out) {
  auto bytes = std::make_shared<std::vector<uint8_t>>();
  constexpr size_t kChunk = size_t{1} << 20;
  for (;;) {
    size_t used = bytes->size();
    bytes->resize(used + kChunk);
    ssize_t n = read(fd, bytes->data() + used, kChunk);
    if (n < 0 && errno == EINTR) {
      bytes->resize(used);
      continue;
    }
    if (n < 0) return SystemError("read", path);
    bytes->resize(used + static_cast<size_t>(n));
    if (n == 0) break;
  }
  bytes->shrink_to_fit();
  out->data = bytes->data();
  out->size = static_cast<int64_t>(bytes->size());
  out->owner = std::move(bytes);
  out->mapped = false;
  return Status::Ok();
}

}  // namespace

Status LoadInputFile(const std::string& path, bool memory_map, InputBytes* out) {
  FileDescriptor fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return SystemError("open", path);
  struct stat info;
  if (fstat(fd.get(), &info) != 0) return SystemError("stat", path);
  if (S_ISDIR(info.st_mode)) return Status::Invalid("cannot read " + path + ": it is a directory");
  if (memory_map && S_ISREG(info.st_mode) && info.st_size > 0) {
    auto size = static_cast<size_t>(info.st_size);
    void* address = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd.get(), 0);
    if (address != MAP_FAILED) {
      out->owner = std::make_shared<Mapping>(address, size);
      out->data = static_cast<const uint8_t*>(address);
      out->size = static_cast<int64_t>(size);
      out->mapped = true;
      return Status::Ok();
    }
  }
  return ReadAll(fd.get(), path, out);
}

}  // namespace rowbridge::ipc
