#include "hetflow/app/directory_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <sstream>
#include <utility>

#include "hetflow/io/error.hpp"

namespace hetflow::app {
namespace {

// Whether `fd` is still the file at `path`: a run that abandons a lock file it created unlinks it, and a
// process that opened the file just before then holds a lock on a file no other run sees.
bool still_linked(int fd, const std::filesystem::path& path) {
  struct stat held{}, named{};
  return ::fstat(fd, &held) == 0 && ::stat(path.c_str(), &named) == 0 && held.st_dev == named.st_dev &&
         held.st_ino == named.st_ino;
}

}  // namespace

std::optional<DirectoryLock> DirectoryLock::try_lock(const std::filesystem::path& dir) {
  const std::filesystem::path path = dir / file_name;
  for (;;) {
    bool found = false;
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno == EEXIST) {
      found = true;
      fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
      if (fd < 0 && errno == ENOENT) continue;  // abandoned between the two opens
    }
    if (fd < 0) throw io::system_error("open the lock file", path, errno);
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      ::close(fd);
      if (err == EWOULDBLOCK) return std::nullopt;
      throw io::system_error("lock", path, err);
    }
    if (!still_linked(fd, path)) {
      ::close(fd);
      continue;
    }
    return DirectoryLock(path, fd, found);
  }
}

std::string DirectoryLock::holder(const std::filesystem::path& dir) {
  std::ifstream in(dir / file_name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

DirectoryLock::DirectoryLock(DirectoryLock&& other) noexcept
    : path_(std::move(other.path_)), fd_(std::exchange(other.fd_, -1)), found_(other.found_) {}

DirectoryLock::~DirectoryLock() {
  if (fd_ >= 0) ::close(fd_);
}

void DirectoryLock::describe(const std::string& holder) {
  const auto size = static_cast<ssize_t>(holder.size());
  if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, holder.data(), holder.size(), 0) != size) {
    throw io::system_error("write", path_, errno);
  }
}

void DirectoryLock::abandon() {
  if (fd_ < 0) return;
  if (!found_) ::unlink(path_.c_str());
  ::close(std::exchange(fd_, -1));
}

}  // namespace hetflow::app
