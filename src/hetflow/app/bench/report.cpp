#include "hetflow/app/bench/report.hpp"

#include <cctype>
#include <cstdio>
#include <ostream>

#include "hetflow/io/atomic_file.hpp"
#include "hetflow/io/timestamp.hpp"
#include "hetflow/commit.hpp"

namespace hetflow::app {
namespace {

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

std::string device_slug(const core::DeviceInfo& device) {
  std::string slug;
  for (char c : device.name) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      slug += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!slug.empty() && slug.back() != '-') {
      slug += '-';
    }
  }
  while (!slug.empty() && slug.back() == '-') slug.pop_back();
  return slug.empty() ? "device" : slug;
}

nlohmann::json BenchReport::to_json() const {
  nlohmann::json cases_json = nlohmann::json::array();
  for (const BenchCase& c : cases) {
    cases_json.push_back({{"name", c.name},
                          {"unit", c.unit},
                          {"value", c.stats.median},
                          {"median", c.stats.median},
                          {"min", c.stats.min},
                          {"max", c.stats.max},
                          {"repeats", c.stats.repeats},
                          {"bytes_per_unit", c.bytes_per_unit},
                          {"efficiency", c.efficiency},
                          {"params", c.params}});
  }
  nlohmann::json report = {{"benchmark", benchmark},
                            {"device", device.name},
                            {"platform", device.platform},
                            {"driver", device.driver},
                            {"commit", git_commit()},
                            {"date", io::utc_timestamp()},
                            {"reference_bandwidth_GBs", reference_bandwidth_GBs},
                            {"cases", cases_json}};
  if (!subset.empty()) report["subset"] = subset;
  return report;
}

void BenchReport::print_table(std::ostream& out) const {
  out << benchmark << " on " << device.name << " (" << device.platform << ", driver " << device.driver
      << "); reference copy bandwidth " << fixed(reference_bandwidth_GBs, 1) << " GB/s\n";
  char line[256];
  std::snprintf(line, sizeof line, "  %-34s %14s %14s %14s %10s %8s\n", "case", "median", "min", "max", "unit",
                "eff.");
  out << line;
  for (const BenchCase& c : cases) {
    std::snprintf(line, sizeof line, "  %-34s %14.4g %14.4g %14.4g %10s %7.1f%%\n", c.name.c_str(), c.stats.median,
                  c.stats.min, c.stats.max, c.unit.c_str(), 100.0 * c.efficiency);
    out << line;
  }
}

namespace {

// Where add() keeps the report so far, and which cases: the running `bench` command's results folder
// and `--only` pattern.
struct PartialReports {
  std::filesystem::path dir;
  std::function<bool(const std::string&)> wanted;
};

PartialReports& partial_reports() {
  static PartialReports kept;
  return kept;
}

}  // namespace

void keep_partial_reports(std::filesystem::path dir, std::function<bool(const std::string&)> wanted) {
  partial_reports() = {std::move(dir), std::move(wanted)};
}

std::filesystem::path partial_report_path(const std::filesystem::path& dir, const BenchReport& report) {
  return dir / device_slug(report.device) / (report.benchmark + "-partial.json");
}

void BenchReport::add(BenchCase c) {
  cases.push_back(std::move(c));
  const PartialReports& kept = partial_reports();
  if (kept.dir.empty() || !kept.wanted(cases.back().name)) return;
  BenchReport so_far = *this;
  std::erase_if(so_far.cases, [&](const BenchCase& k) { return !kept.wanted(k.name); });
  const std::filesystem::path path = partial_report_path(kept.dir, *this);
  std::filesystem::create_directories(path.parent_path());
  nlohmann::json j = so_far.to_json();
  j["partial"] = "the cases measured so far; the benchmark has not finished";
  io::write_file_atomically(path, j.dump(2) + "\n");
}

std::filesystem::path BenchReport::write(const std::filesystem::path& dir) const {
  const std::filesystem::path folder = dir / device_slug(device);
  std::filesystem::create_directories(folder);
  const std::filesystem::path path = folder / (benchmark + (subset.empty() ? "" : "-subset") + ".json");
  io::write_file_atomically(path, to_json().dump(2) + "\n");
  return path;
}

}  // namespace hetflow::app
