#pragma once
#include <filesystem>
#include <optional>
#include <string>

namespace hetflow::app {

// An exclusive flock(2) on the file `.hetflow-lock` inside a run directory, held while a run writes
// there. The kernel releases it when the process ends in any way, so a killed run never leaves a stale
// lock; the file itself stays and names the last run that held it.
class DirectoryLock {
 public:
  static constexpr const char* file_name = ".hetflow-lock";

  // Locks `dir`, creating the lock file if it is absent; nullopt while another process holds it.
  static std::optional<DirectoryLock> try_lock(const std::filesystem::path& dir);
  // The holder's description written into `dir`'s lock file (empty if it has not written one yet).
  static std::string holder(const std::filesystem::path& dir);

  DirectoryLock(DirectoryLock&& other) noexcept;
  DirectoryLock& operator=(DirectoryLock&&) = delete;
  DirectoryLock(const DirectoryLock&) = delete;
  ~DirectoryLock();

  // Whether the lock file was there before: a run of this hetflow has used the folder.
  bool found() const { return found_; }
  // Replaces the lock file's text with `holder` (say which process holds it, for a second run's error).
  void describe(const std::string& holder);
  // Unlocks, first removing the lock file if this lock created it, so that a folder this run does not
  // use keeps no trace of it.
  void abandon();

 private:
  DirectoryLock(std::filesystem::path path, int fd, bool found) : path_(std::move(path)), fd_(fd), found_(found) {}

  std::filesystem::path path_;
  int fd_ = -1;
  bool found_ = false;
};

}  // namespace hetflow::app
