#pragma once
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "hetflow/app/directory_lock.hpp"
#include "hetflow/io/written_files.hpp"

namespace hetflow::app {

// The folder one run writes into, and its manifest.json: what ran (resolved case, devices, versions,
// commit, command line), how long each part took, which files it wrote and how it ended. The manifest
// is written when the run starts (status "running") and rewritten atomically as it progresses, so even
// a killed run leaves a manifest that says so.
// This host's name, for manifests.
std::string host_name();

class RunDirectory {
 public:
  // Takes a folder for the run asked to write into `requested`, and holds it locked (DirectoryLock)
  // until destroyed:
  // - `requested` locked by a running hetflow: IoError naming that run;
  // - `requested` absent or empty: the run writes there;
  // - otherwise (an earlier run, or anything else) the run writes into the first of `<requested>-2`,
  //   `<requested>-3`, ... that is absent or empty and not locked, and notes() says so. Nothing already
  //   in a folder is touched except what a killed run left: its `.*.tmp-*` temporaries are removed, and
  //   a manifest it left saying "running" is marked "killed".
  // `writes` false: a rank other than 0 of a run across processes, which creates, locks and writes
  // nothing (its manifest stays in memory) and keeps `requested` as its path: it neither prints nor
  // writes files, so it need not learn the folder rank 0 chose. `command` describes this run in the lock.
  RunDirectory(std::filesystem::path requested, bool writes, const std::string& command);

  const std::filesystem::path& path() const { return dir_; }
  std::filesystem::path file(const std::string& name) const { return dir_ / name; }
  // What taking the folder found, one line each, for the run to print.
  const std::vector<std::string>& notes() const { return notes_; }

  nlohmann::json& manifest() { return manifest_; }
  // Describes the files named `pattern` ('*': any characters) in the manifest's outputs, which list
  // every file the run committed in its folder (io::WrittenFiles), the first matching description
  // beside each.
  void add_output(const std::string& pattern, const std::string& what);
  void add_timing(const std::string& name, double seconds);
  // Writes manifest.json with `status` ("running", "complete", "interrupted", "failed").
  void write_manifest(const std::string& status);

 private:
  void claim(std::filesystem::path requested, const std::string& command);
  std::string description(const std::string& name) const;

  std::filesystem::path dir_;
  bool writes_;
  nlohmann::json manifest_;
  std::vector<std::pair<std::string, std::string>> descriptions_;
  std::optional<DirectoryLock> lock_;
  std::unique_ptr<io::WrittenFiles> written_;
  std::vector<std::string> notes_;
};

}  // namespace hetflow::app
