#include "hetflow/app/run_directory.hpp"

#include <unistd.h>

#include <cctype>
#include <fstream>

#include "hetflow/io/atomic_file.hpp"
#include "hetflow/io/error.hpp"
#include "hetflow/io/timestamp.hpp"
#include "hetflow/commit.hpp"
#include "hetflow/version.hpp"

namespace hetflow::app {
namespace fs = std::filesystem;
namespace {

// io::AtomicFile's temporaries: ".<name>.tmp-<pid>-<n>".
bool is_temporary(const std::string& name) {
  const std::size_t at = name.rfind(".tmp-");
  if (name.empty() || name[0] != '.' || at == std::string::npos || at == 0) return false;
  const std::string tail = name.substr(at + 5);
  const std::size_t dash = tail.find('-');
  if (dash == std::string::npos || dash == 0 || dash + 1 == tail.size()) return false;
  for (std::size_t k = 0; k < tail.size(); ++k) {
    if (k != dash && !std::isdigit(static_cast<unsigned char>(tail[k]))) return false;
  }
  return true;
}

// '*' matches any run of characters, everything else itself.
bool matches(const std::string& pattern, const std::string& name) {
  std::size_t p = 0, n = 0, star = std::string::npos, resume = 0;
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = n;
    } else if (p < pattern.size() && pattern[p] == name[n]) {
      ++p;
      ++n;
    } else if (star != std::string::npos) {
      p = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

// Removes what a killed run left in `dir` (which this process has locked): io::AtomicFile temporaries,
// and a manifest still saying "running" becomes "killed" when a run of this hetflow held the folder
// (`found_lock`), since that run no longer holds the lock. Returns notes on what it did.
std::vector<std::string> clear_killed_run(const fs::path& dir, bool found_lock) {
  std::vector<std::string> notes;
  std::string removed;
  std::size_t count = 0;
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (!is_temporary(name) || !e.is_regular_file()) continue;
    std::error_code ec;
    if (!fs::remove(e.path(), ec)) throw io::system_error("remove the stale temporary", e.path(), ec.value());
    removed += (count++ ? ", " : "") + name;
  }
  if (count) {
    notes.push_back("removed " + std::to_string(count) + " temporar" + (count == 1 ? "y" : "ies") +
                    " left by a killed run in " + dir.string() + ": " + removed);
  }
  const fs::path manifest = dir / "manifest.json";
  if (!found_lock || !fs::is_regular_file(manifest)) return notes;
  std::ifstream in(manifest);
  nlohmann::json old = nlohmann::json::parse(in, nullptr, false);
  if (old.is_discarded() || !old.is_object() || old.value("status", "") != "running") return notes;
  old["status"] = "killed";
  io::write_file_atomically(manifest, old.dump(2) + "\n");
  notes.push_back(manifest.string() + " said \"running\" but no run holds " + dir.string() + ": marked \"killed\"");
  return notes;
}

// Whether `dir` holds nothing but its lock file.
bool holds_nothing(const fs::path& dir) {
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
    if (e.path().filename() != DirectoryLock::file_name) return false;
  }
  return true;
}

}  // namespace

std::string host_name() {
  char host[256] = "unknown";
  gethostname(host, sizeof host - 1);
  return host;
}

RunDirectory::RunDirectory(fs::path requested, bool writes, const std::string& command)
    : dir_(std::move(requested)), writes_(writes) {
  manifest_ = {{"hetflow", {{"version", version}, {"commit", git_commit()}, {"compiler", compiler},
                            {"build_type", build_type}}},
               {"host", host_name()},
               {"started", io::utc_timestamp()},
               {"outputs", nlohmann::json::object()},
               {"timings_s", nlohmann::json::object()}};
  if (!writes_) return;
  claim(dir_, command);  // a copy: claim() sets dir_
  manifest_["directory"] = dir_.string();
  written_ = std::make_unique<io::WrittenFiles>(dir_);
}

void RunDirectory::claim(fs::path requested, const std::string& command) {
  // "runs/x/" numbers its siblings as "runs/x-2", not "runs/x/-2", and "." as "<this folder's name>-2".
  fs::path base = requested.lexically_normal();
  if (base.filename() == "." || base.filename() == "..") base = fs::absolute(base).lexically_normal();
  if (base.filename().empty() && base.has_parent_path()) base = base.parent_path();
  for (int n = 1;; ++n) {
    const fs::path candidate = n == 1 ? requested : fs::path(base.string() + "-" + std::to_string(n));
    std::error_code ec;
    const bool existed = fs::exists(candidate, ec);
    fs::create_directories(candidate, ec);
    if (ec || !fs::is_directory(candidate)) {
      if (n > 1 && existed) continue;  // a file of that name: not free
      throw io::IoError("cannot create the output directory " + candidate.string() + ": " +
                        (ec ? ec.message() : "a file of that name exists"));
    }
    // Locked before looked into, so that of two runs starting at once only one finds a folder free.
    std::optional<DirectoryLock> lock = DirectoryLock::try_lock(candidate);
    if (!lock) {
      if (n > 1) continue;
      const std::string holder = DirectoryLock::holder(candidate);
      throw io::IoError(candidate.string() + " is in use by a running hetflow (" +
                        (holder.empty() ? std::string("just starting") : holder) + ")");
    }
    for (std::string& note : clear_killed_run(candidate, lock->found())) notes_.push_back(std::move(note));
    if (!holds_nothing(candidate)) {
      lock->abandon();
      continue;
    }
    if (n > 1) {
      const bool earlier_run = fs::exists(requested / "manifest.json");
      notes_.push_back(requested.string() + (earlier_run ? " holds an earlier run" : " is not empty") + "; writing to " +
                       candidate.string());
    }
    lock->describe("pid " + std::to_string(::getpid()) + " on " + host_name() + ", started " +
                   manifest_["started"].get<std::string>() + ", `" + command + "`");
    lock_.emplace(std::move(*lock));
    dir_ = candidate;
    return;
  }
}

void RunDirectory::add_output(const std::string& pattern, const std::string& what) {
  for (auto& [p, w] : descriptions_) {
    if (p == pattern) {
      w = what;
      return;
    }
  }
  descriptions_.emplace_back(pattern, what);
}

std::string RunDirectory::description(const std::string& name) const {
  for (const auto& [pattern, what] : descriptions_) {
    if (matches(pattern, name)) return what;
  }
  return "";
}

void RunDirectory::add_timing(const std::string& name, double seconds) { manifest_["timings_s"][name] = seconds; }

void RunDirectory::write_manifest(const std::string& status) {
  manifest_["status"] = status;
  if (status != "running") manifest_["finished"] = io::utc_timestamp();
  if (!writes_) return;
  nlohmann::json& outputs = manifest_["outputs"] = nlohmann::json::object();
  for (const std::string& name : written_->names()) {
    if (name != "manifest.json") outputs[name] = description(name);
  }
  io::write_file_atomically(file("manifest.json"), manifest_.dump(2) + "\n");
}

}  // namespace hetflow::app
