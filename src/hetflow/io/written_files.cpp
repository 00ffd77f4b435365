#include "hetflow/io/written_files.hpp"

#include <algorithm>

namespace hetflow::io {
namespace {

std::filesystem::path normal(const std::filesystem::path& p) {
  std::error_code ec;
  const std::filesystem::path a = std::filesystem::absolute(p, ec);
  return (ec ? p : a).lexically_normal();
}

// The live records; the mutex guards the list, each record's own mutex its names.
std::mutex& records_mutex() {
  static std::mutex m;
  return m;
}
std::vector<WrittenFiles*>& records() {
  static std::vector<WrittenFiles*> r;
  return r;
}

}  // namespace

WrittenFiles::WrittenFiles(const std::filesystem::path& folder) : folder_(normal(folder)) {
  const std::lock_guard lock(records_mutex());
  records().push_back(this);
}

WrittenFiles::~WrittenFiles() {
  const std::lock_guard lock(records_mutex());
  std::erase(records(), this);
}

std::vector<std::string> WrittenFiles::names() const {
  const std::lock_guard lock(mutex_);
  return names_;
}

void WrittenFiles::note(const std::filesystem::path& file) {
  const std::filesystem::path path = normal(file);
  const std::lock_guard lock(records_mutex());
  for (WrittenFiles* r : records()) {
    const std::filesystem::path relative = path.lexically_relative(r->folder_);
    if (relative.empty() || relative == "." || *relative.begin() == "..") continue;
    const std::string name = relative.generic_string();
    const std::lock_guard names_lock(r->mutex_);
    if (std::find(r->names_.begin(), r->names_.end(), name) == r->names_.end()) r->names_.push_back(name);
  }
}

}  // namespace hetflow::io
