#pragma once
#include <cstddef>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "hetflow/core/device.hpp"
#include "hetflow/tune/tuning_space.hpp"

namespace hetflow::tune {

// What a tuned setting is valid for. A new driver or an edited kernel can move the optimum, so either
// makes an old entry miss instead of being trusted; the problem class separates settings that differ
// by problem (storage precision, physics model) on the same kernels.
struct Key {
  std::string tunable;        // "lbm", "probe"
  std::string device;         // CL_DEVICE_NAME
  std::string driver;         // CL_DRIVER_VERSION
  std::string source_hash;    // SHA-256 of the kernel files' texts (includes expanded)
  std::string problem_class;  // "fp32 single-phase"

  bool operator==(const Key&) const = default;
};

// The key of `tunable` on `device` for the registered kernel files `kernel_files` ("lbm/lbm.cl").
Key make_key(std::string tunable, const core::DeviceInfo& device, std::span<const std::string> kernel_files,
             std::string problem_class);

// The device and driver of an entry whose cost is a deterministic count rather than a time: the count
// does not depend on the device, so one entry serves every device.
inline constexpr const char* any_device = "any";
Key for_any_device(Key key);

// One tuning outcome. Times are seconds per timed run (lower is better), or the cost in `cost_unit`
// when the tunable counts work instead of timing it; the rate, when the tunable has a figure of merit
// (MLUPs/s), is the best setting's.
struct Entry {
  Setting best;
  double best_seconds = 0;
  double mean_seconds = 0;   // over every setting evaluated
  double worst_seconds = 0;  // the slowest setting evaluated
  double best_rate = 0;      // 0 without a figure of merit
  std::string unit;          // of best_rate
  std::string search;        // "exhaustive" or "annealing"
  std::size_t evaluations = 0;
  std::size_t space_size = 0;  // feasible settings
  std::string problem;       // the problem measured, e.g. "duct 64^3"
  std::string tuned_at;      // UTC, ISO 8601
  std::string cost_unit;     // empty: the *_seconds are seconds; else the unit of the cost they hold
};

// Where tuned settings live: $HETFLOW_TUNING_DB, else $XDG_CACHE_HOME/hetflow/tuning.json, else
// ~/.cache/hetflow/tuning.json (beside the program-binary cache); empty if none of these is set.
std::filesystem::path default_database_path();

// Whether HETFLOW_NO_TUNE is set (to anything but "" or "0"): solvers then use their defaults.
bool tuning_disabled();

// The tuning database: one JSON file, {"format": "hetflow-tuning", "version": 1, "entries": [{"key":
// {...}, ...Entry}]}. Reads are forgiving: a missing or unreadable file holds nothing, so a solver
// falls back to its defaults rather than failing over advisory data. Writes replace the whole file
// atomically, so a reader never sees half an entry.
class Database {
 public:
  explicit Database(std::filesystem::path path);
  const std::filesystem::path& path() const { return path_; }

  std::optional<Entry> find(const Key& key) const;
  // Adds or replaces the entry of `key`, re-reading the file first so entries written meanwhile (by
  // another tuner) survive. core::Error naming the file if it exists but is not a tuning database:
  // replacing it would destroy whatever it is.
  void store(const Key& key, const Entry& entry) const;
  std::size_t size() const;
  // The keys of every entry, in the file's order; none if the file is missing or unreadable.
  std::vector<Key> keys() const;

 private:
  std::filesystem::path path_;
};

// `defaults` with each of its names taken from the database's entry for `key` when there is one and
// tuning is not disabled; names the entry lacks, or that `defaults` lacks, keep or stay out.
Setting tuned_or_default(const Database& db, const Key& key, Setting defaults);

}  // namespace hetflow::tune
