#include "cli/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace rowbridge::cli {
namespace {

std::string ErrnoText() { return std::strerror(errno); }

std::string DirectoryOf(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string BaseName(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

OutputFile::~OutputFile() {
  if (owns_fd_ && fd_ >= 0) ::close(fd_);
  if (!temporary_.empty()) ::unlink(temporary_.c_str());
}

Status OutputFile::Open(const std::string& path) {
  path_ = path;
  if (path == "-") {
    fd_ = STDOUT_FILENO;
    return Status::Ok();
  }
  struct stat info;
  if (::stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) {
    fd_ = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) return Status::Invalid("cannot open " + path + ": " + ErrnoText());
    owns_fd_ = true;
    return Status::Ok();
  }
  std::string pattern = DirectoryOf(path) + "/." + BaseName(path) + ".rowbridge-XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  fd_ = ::mkstemp(name.data());
  if (fd_ < 0)
    return Status::Invalid("cannot create a temporary file for " + path + ": " + ErrnoText());
  owns_fd_ = true;
  temporary_ = name.data();
  // mkstemp creates the file 0600; give it the mode a new file would get.
  mode_t mask = ::umask(0);
  ::umask(mask);
  if (::fchmod(fd_, 0666 & ~mask) != 0) {
    return Status::Invalid("cannot set the mode of " + temporary_ + ": " + ErrnoText());
  }
  return Status::Ok();
}

Status OutputFile::Commit() {
  if (owns_fd_) {
    int fd = fd_;
    fd_ = -1;
    owns_fd_ = false;
    if (::close(fd) != 0) return Status::Invalid("cannot write " + path_ + ": " + ErrnoText());
  }
  if (!temporary_.empty()) {
    if (::rename(temporary_.c_str(), path_.c_str()) != 0) {
      return Status::Invalid("cannot rename the output into " + path_ + ": " + ErrnoText());
    }
    temporary_.clear();
  }
  return Status::Ok();
}

}  // namespace rowbridge::cli
