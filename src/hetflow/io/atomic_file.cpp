#include "hetflow/io/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <fstream>
#include <string>
#include <utility>

#include "hetflow/io/error.hpp"
#include "hetflow/io/written_files.hpp"

namespace hetflow::io {
namespace {

constexpr std::size_t kBufferBytes = std::size_t{1} << 20;

std::filesystem::path make_temp_name(const std::filesystem::path& final_path) {
  // pid + a process-wide counter: unique across concurrent runs and across threads of one run.
  static std::atomic<unsigned long> counter{0};
  std::string name(".");
  name += final_path.filename().string();
  name += ".tmp-";
  name += std::to_string(::getpid());
  name += '-';
  name += std::to_string(counter.fetch_add(1));
  return final_path.parent_path() / name;
}

// Without this the rename itself may not survive a power loss even though the data does.
void sync_directory(const std::filesystem::path& dir) {
  const std::string d = dir.empty() ? std::string(".") : dir.string();
  const int fd = ::open(d.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)::fsync(fd);
  ::close(fd);
}

}  // namespace

AtomicFile::AtomicFile(std::filesystem::path final_path) : final_(std::move(final_path)) {
  if (final_.filename().empty()) throw IoError("cannot write '" + final_.string() + "': not a file name");
  temp_ = make_temp_name(final_);
  fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd_ < 0) throw system_error("create", temp_, errno);
  buffer_.reserve(kBufferBytes);
}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : final_(std::move(other.final_)),
      temp_(std::move(other.temp_)),
      fd_(std::exchange(other.fd_, -1)),
      committed_(std::exchange(other.committed_, true)),
      buffer_(std::move(other.buffer_)) {}

AtomicFile::~AtomicFile() {
  if (!committed_) discard();
}

void AtomicFile::discard() noexcept {
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
  if (!committed_ && !temp_.empty()) {
    ::unlink(temp_.c_str());
    committed_ = true;  // nothing left to clean up
  }
}

void AtomicFile::write(const void* data, std::size_t bytes) {
  if (fd_ < 0) throw IoError("cannot write '" + final_.string() + "': file already committed or discarded");
  const char* p = static_cast<const char*>(data);
  if (bytes >= kBufferBytes) {
    flush_buffer();
    buffer_.assign(p, p + bytes);
    flush_buffer();
    return;
  }
  if (buffer_.size() + bytes > kBufferBytes) flush_buffer();
  buffer_.insert(buffer_.end(), p, p + bytes);
}

void AtomicFile::flush_buffer() {
  const char* p = buffer_.data();
  std::size_t left = buffer_.size();
  while (left > 0) {
    const ssize_t n = ::write(fd_, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw system_error("write", temp_, errno);
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  buffer_.clear();
}

void AtomicFile::commit() {
  if (fd_ < 0) throw IoError("cannot commit '" + final_.string() + "': file already committed or discarded");
  flush_buffer();
  // fsync on our descriptor covers writes made through other descriptors of the same file (HDF5).
  if (::fsync(fd_) != 0) throw system_error("sync", temp_, errno);
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) throw system_error("close", temp_, errno);
  if (std::rename(temp_.c_str(), final_.c_str()) != 0) {
    const int err = errno;
    throw system_error("rename temporary file to", final_, err);
  }
  committed_ = true;
  sync_directory(final_.parent_path());
  WrittenFiles::note(final_);
}

void write_file_atomically(const std::filesystem::path& path, std::string_view content) {
  AtomicFile f(path);
  f.write(content);
  f.commit();
}

std::vector<char> read_file_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw system_error("open", path, errno);
  std::vector<char> bytes;
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0) throw system_error("read", path, errno);
  bytes.resize(static_cast<std::size_t>(size));
  in.seekg(0, std::ios::beg);
  if (size > 0 && !in.read(bytes.data(), size)) throw system_error("read", path, errno);
  return bytes;
}

}  // namespace hetflow::io
