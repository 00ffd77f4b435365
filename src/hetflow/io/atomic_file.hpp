#pragma once
#include <cstddef>
#include <filesystem>
#include <string_view>
#include <vector>

namespace hetflow::io {

// A file that appears under its final name only when complete. Bytes go to a hidden temporary
// (".<name>.tmp-<pid>-<n>") in the same directory, so the final rename stays on one file system and
// is atomic; commit() flushes them to disk before renaming, and a destroyed, uncommitted file removes
// its temporary. An interrupted run therefore never leaves a truncated file under a name a reader trusts.
class AtomicFile {
 public:
  explicit AtomicFile(std::filesystem::path final_path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  AtomicFile(AtomicFile&& other) noexcept;
  AtomicFile& operator=(AtomicFile&& other) = delete;

  void write(const void* data, std::size_t bytes);
  void write(std::string_view text) { write(text.data(), text.size()); }

  // Flush, fsync, close and rename onto the final name (replacing any previous file there); the final
  // name then counts as written for every WrittenFiles whose folder holds it.
  void commit();
  // Remove the temporary now; the final name is left untouched.
  void discard() noexcept;

  const std::filesystem::path& final_path() const { return final_; }
  // For libraries that open the file themselves (HDF5): they write here, then commit() renames it.
  const std::filesystem::path& temp_path() const { return temp_; }
  bool committed() const { return committed_; }

 private:
  void flush_buffer();

  std::filesystem::path final_;
  std::filesystem::path temp_;
  int fd_ = -1;
  bool committed_ = false;
  std::vector<char> buffer_;
};

// Write a whole file atomically in one call.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

// Read a whole file into memory; IoError names the path on failure.
std::vector<char> read_file_bytes(const std::filesystem::path& path);

}  // namespace hetflow::io
