#include "hetflow/app/run_directory.hpp"

#include <unistd.h>

#include "hetflow/io/atomic_file.hpp"
#include "hetflow/io/error.hpp"
#include "hetflow/io/timestamp.hpp"
#include "hetflow/version.hpp"

namespace hetflow::app {

std::string host_name() {
  char host[256] = "unknown";
  gethostname(host, sizeof host - 1);
  return host;
}

RunDirectory::RunDirectory(std::filesystem::path dir, bool writes) : dir_(std::move(dir)), writes_(writes) {
  std::error_code ec;
  if (writes_) std::filesystem::create_directories(dir_, ec);
  if (writes_ && (ec || !std::filesystem::is_directory(dir_))) {
    throw io::IoError("cannot create the output directory " + dir_.string() + ": " +
                      (ec ? ec.message() : "a file of that name exists"));
  }
  manifest_ = {{"hetflow", {{"version", version}, {"commit", git_commit}, {"compiler", compiler},
                            {"build_type", build_type}}},
               {"host", host_name()},
               {"started", io::utc_timestamp()},
               {"outputs", nlohmann::json::object()},
               {"timings_s", nlohmann::json::object()}};
}

void RunDirectory::add_output(const std::string& name, const std::string& what) { manifest_["outputs"][name] = what; }

void RunDirectory::add_timing(const std::string& name, double seconds) { manifest_["timings_s"][name] = seconds; }

void RunDirectory::write_manifest(const std::string& status) {
  manifest_["status"] = status;
  if (status != "running") manifest_["finished"] = io::utc_timestamp();
  if (writes_) io::write_file_atomically(file("manifest.json"), manifest_.dump(2) + "\n");
}

}  // namespace hetflow::app
