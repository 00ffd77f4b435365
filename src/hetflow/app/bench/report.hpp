#pragma once
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hetflow/core/device.hpp"
#include "hetflow/core/statistics.hpp"

namespace hetflow::app {

// One measured figure of a benchmark, one entry of the "cases" BenchReport::to_json writes.
struct BenchCase {
  std::string name;
  std::string unit;             // e.g. "GB/s", "MLUPs/s"
  core::Summary stats;          // value = median
  double bytes_per_unit = 0;    // bytes moved per unit of work (0 when not bandwidth-bound)
  double efficiency = 0;        // fraction of the limit measured in the same run
  nlohmann::json params = nlohmann::json::object();
};

// A benchmark's result: the device, the reference bandwidth measured in the same run, and its cases.
struct BenchReport {
  std::string benchmark;
  core::DeviceInfo device;
  double reference_bandwidth_GBs = 0;
  std::vector<BenchCase> cases;
  std::string subset = {};  // the `--only` pattern that chose the cases, if any

  // Appends a measured case. Where keep_partial_reports() named a folder, the report so far is then
  // rewritten there (NAME-partial.json), so that a run stopped by a signal or a time limit keeps what it
  // measured; the `bench` command removes it once the whole report is written.
  void add(BenchCase c);

  nlohmann::json to_json() const;
  void print_table(std::ostream& out) const;
  // Writes DIR/<device-slug>/<benchmark>.json (<benchmark>-subset.json for a subset, so that it never
  // replaces a whole run's record) atomically and returns the path.
  std::filesystem::path write(const std::filesystem::path& dir) const;
};

// The results folder under which BenchReport::add keeps every report so far (empty: none), with the
// cases `wanted` says yes to (the `--only` pattern's).
void keep_partial_reports(std::filesystem::path dir, std::function<bool(const std::string&)> wanted);
// DIR/<device-slug>/<benchmark>-partial.json.
std::filesystem::path partial_report_path(const std::filesystem::path& dir, const BenchReport& report);

// "NVIDIA H200" -> "nvidia-h200": the folder name of a device's results under bench/results/.
std::string device_slug(const core::DeviceInfo& device);

}  // namespace hetflow::app
