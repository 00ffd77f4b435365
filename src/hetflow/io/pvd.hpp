#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace hetflow::io {

struct PvdEntry {
  double time = 0.0;
  std::string file;  // relative to the .pvd's directory, '/' separated
  int part = 0;
};

// A ParaView collection (.pvd) that grows during a run. Each add() rewrites the whole .pvd atomically,
// so a run stopped at any point leaves a valid series listing exactly the snapshots that were completed
// (add a snapshot only after its own file has been committed).
class PvdSeries {
 public:
  explicit PvdSeries(std::filesystem::path pvd_path);

  // `file` may be absolute or relative to the current directory; it is stored relative to the .pvd.
  void add(double time, const std::filesystem::path& file, int part = 0);

  const std::vector<PvdEntry>& entries() const { return entries_; }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  std::vector<PvdEntry> entries_;
};

// The text of a .pvd listing `entries`.
std::string pvd_text(const std::vector<PvdEntry>& entries);

// Read a .pvd back; FormatError names the file and the problem.
std::vector<PvdEntry> read_pvd(const std::filesystem::path& path);

}  // namespace hetflow::io
