#pragma once
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace hetflow::app {

// The folder one run writes into, and its manifest.json: what ran (resolved case, devices, versions,
// commit, command line), how long each part took, which files it wrote and how it ended. The manifest
// is written when the run starts (status "running") and rewritten atomically as it progresses, so even
// a killed run leaves a manifest that says so.
// This host's name, for manifests.
std::string host_name();

class RunDirectory {
 public:
  // `writes` false: a rank other than 0 of a run across processes, which creates and writes nothing
  // (its manifest stays in memory) while rank 0 writes `dir`.
  explicit RunDirectory(std::filesystem::path dir, bool writes = true);

  const std::filesystem::path& path() const { return dir_; }
  std::filesystem::path file(const std::string& name) const { return dir_ / name; }

  nlohmann::json& manifest() { return manifest_; }
  void add_output(const std::string& name, const std::string& what);
  void add_timing(const std::string& name, double seconds);
  // Writes manifest.json with `status` ("running", "complete", "interrupted", "failed").
  void write_manifest(const std::string& status);

 private:
  std::filesystem::path dir_;
  bool writes_;
  nlohmann::json manifest_;
};

}  // namespace hetflow::app
