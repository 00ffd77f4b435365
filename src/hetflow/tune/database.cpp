#include "hetflow/tune/database.hpp"

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "hetflow/core/error.hpp"
#include "hetflow/core/registry.hpp"
#include "hetflow/core/sha256.hpp"
#include "hetflow/io/atomic_file.hpp"

namespace hetflow::tune {
namespace {

using nlohmann::json;

constexpr const char* format_name = "hetflow-tuning";
constexpr int format_version = 1;

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

json key_json(const Key& k) {
  return {{"tunable", k.tunable}, {"device", k.device}, {"driver", k.driver}, {"source_hash", k.source_hash},
          {"problem_class", k.problem_class}};
}

json entry_json(const Key& key, const Entry& e) {
  json j = {{"key", key_json(key)},
            {"best", e.best},
            {"best_seconds", e.best_seconds},
            {"mean_seconds", e.mean_seconds},
            {"worst_seconds", e.worst_seconds},
            {"best_rate", e.best_rate},
            {"unit", e.unit},
            {"search", e.search},
            {"evaluations", e.evaluations},
            {"space_size", e.space_size},
            {"problem", e.problem},
            {"tuned_at", e.tuned_at}};
  if (!e.cost_unit.empty()) j["cost_unit"] = e.cost_unit;
  return j;
}

Entry entry_of(const json& j) {
  Entry e;
  e.best = j.at("best").get<Setting>();
  e.best_seconds = j.at("best_seconds").get<double>();
  e.mean_seconds = j.at("mean_seconds").get<double>();
  e.worst_seconds = j.at("worst_seconds").get<double>();
  e.best_rate = j.value("best_rate", 0.0);
  e.unit = j.value("unit", "");
  e.search = j.value("search", "");
  e.evaluations = j.value("evaluations", std::size_t{0});
  e.space_size = j.value("space_size", std::size_t{0});
  e.problem = j.value("problem", "");
  e.tuned_at = j.value("tuned_at", "");
  e.cost_unit = j.value("cost_unit", "");
  return e;
}

// The file's JSON if it is a tuning database; nothing if it does not exist; throws json errors or
// core::Error if it is something else.
std::optional<json> read(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  json j = json::parse(in);
  if (j.value("format", "") != format_name || j.value("version", 0) != format_version || !j.contains("entries") ||
      !j.at("entries").is_array())
    throw core::Error(path.string() + " is not a hetflow tuning database (format " + format_name + ", version " +
                      std::to_string(format_version) + ")");
  return j;
}

}  // namespace

Key make_key(std::string tunable, const core::DeviceInfo& device, std::span<const std::string> kernel_files,
             std::string problem_class) {
  core::Sha256 h;
  // Length-prefixed, so that moving text between files changes the hash.
  for (const std::string& name : kernel_files) {
    const std::string text = core::kernel_source(name);
    h.update(name + ":" + std::to_string(text.size()) + ":").update(text);
  }
  return {std::move(tunable), device.name, device.driver, h.hex(), std::move(problem_class)};
}

Key for_any_device(Key key) {
  key.device = key.driver = any_device;
  return key;
}

std::filesystem::path default_database_path() {
  if (!env("HETFLOW_TUNING_DB").empty()) return env("HETFLOW_TUNING_DB");
  if (!env("XDG_CACHE_HOME").empty()) return std::filesystem::path(env("XDG_CACHE_HOME")) / "hetflow" / "tuning.json";
  if (!env("HOME").empty()) return std::filesystem::path(env("HOME")) / ".cache" / "hetflow" / "tuning.json";
  return {};
}

bool tuning_disabled() {
  const std::string v = env("HETFLOW_NO_TUNE");
  return !v.empty() && v != "0";
}

Database::Database(std::filesystem::path path) : path_(std::move(path)) {}

std::optional<Entry> Database::find(const Key& key) const {
  if (path_.empty()) return std::nullopt;
  try {
    const auto j = read(path_);
    if (!j) return std::nullopt;
    const json wanted = key_json(key);
    for (const json& e : j->at("entries"))
      if (e.at("key") == wanted) return entry_of(e);
  } catch (const std::exception&) {
    // Advisory data: an unreadable database tunes nothing, and the next `hetflow tune` reports it.
  }
  return std::nullopt;
}

std::size_t Database::size() const {
  try {
    const auto j = read(path_);
    return j ? j->at("entries").size() : 0;
  } catch (const std::exception&) {
    return 0;
  }
}

std::vector<Key> Database::keys() const {
  std::vector<Key> out;
  try {
    const auto j = read(path_);
    if (!j) return out;
    for (const json& e : j->at("entries")) {
      const json& k = e.at("key");
      out.push_back({k.at("tunable").get<std::string>(), k.at("device").get<std::string>(),
                     k.at("driver").get<std::string>(), k.at("source_hash").get<std::string>(),
                     k.at("problem_class").get<std::string>()});
    }
  } catch (const std::exception&) {
    return {};  // advisory data, as find()
  }
  return out;
}

void Database::store(const Key& key, const Entry& entry) const {
  if (path_.empty()) throw core::Error("no tuning database path: set HETFLOW_TUNING_DB, XDG_CACHE_HOME or HOME");
  json j;
  try {
    j = read(path_).value_or(json{{"format", format_name}, {"version", format_version}, {"entries", json::array()}});
  } catch (const json::exception& e) {
    throw core::Error(path_.string() + " is not a hetflow tuning database (" + e.what() + "); move it away to start a new one");
  }
  json& entries = j["entries"];
  const json wanted = key_json(key);
  json kept = json::array();
  for (json& e : entries)
    if (e.at("key") != wanted) kept.push_back(std::move(e));
  kept.push_back(entry_json(key, entry));
  entries = std::move(kept);
  if (path_.has_parent_path()) std::filesystem::create_directories(path_.parent_path());
  io::write_file_atomically(path_, j.dump(2) + "\n");
}

Setting tuned_or_default(const Database& db, const Key& key, Setting defaults) {
  if (tuning_disabled()) return defaults;
  const std::optional<Entry> entry = db.find(key);
  if (!entry) return defaults;
  for (auto& [name, value] : defaults)
    if (const auto it = entry->best.find(name); it != entry->best.end()) value = it->second;
  return defaults;
}

}  // namespace hetflow::tune
