#pragma once
#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

namespace hetflow::io {

// The files committed under one folder while an object of this class lives: every AtomicFile reports
// its final name on commit, so a run lists what it wrote without each writer having to say so.
// Names are relative to the folder ('/' separated), each once, in the order first committed.
// Thread-safe; the folder's path is compared after making both absolute and lexically normal.
class WrittenFiles {
 public:
  explicit WrittenFiles(const std::filesystem::path& folder);
  ~WrittenFiles();
  WrittenFiles(const WrittenFiles&) = delete;
  WrittenFiles& operator=(const WrittenFiles&) = delete;

  std::vector<std::string> names() const;

  // Called by AtomicFile::commit with the committed file's final path.
  static void note(const std::filesystem::path& file);

 private:
  std::filesystem::path folder_;
  mutable std::mutex mutex_;
  std::vector<std::string> names_;
};

}  // namespace hetflow::io
