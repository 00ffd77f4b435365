// BenchReport::add keeps the report so far on disk, with the wanted cases only, where the bench command
// asked for it, so that a benchmark stopped part-way keeps its measurements.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "hetflow/app/bench/report.hpp"

namespace hetflow::app {
namespace {

namespace fs = std::filesystem;

nlohmann::json read_json(const fs::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

TEST(BenchReport, AddKeepsTheWantedCasesSoFar) {
  const fs::path dir = fs::temp_directory_path() / ("hetflow-partial-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  core::DeviceInfo device;
  device.name = "Test Device 9";
  BenchReport report{"demo", device, 100.0, {}};
  keep_partial_reports(dir, [](const std::string& name) { return name.rfind("kept", 0) == 0; });
  const fs::path path = partial_report_path(dir, report);
  EXPECT_EQ(path, dir / "test-device-9" / "demo-partial.json");

  report.add({"skipped a", "s", {1, 1, 1, 1}, 0, 0, {}});
  EXPECT_FALSE(fs::exists(path));  // nothing wanted yet
  report.add({"kept 1", "s", {2, 2, 2, 1}, 0, 0.5, {}});
  report.add({"skipped b", "s", {3, 3, 3, 1}, 0, 0, {}});
  report.add({"kept 2", "s", {4, 4, 4, 1}, 0, 0.25, {}});
  ASSERT_TRUE(fs::exists(path));
  const nlohmann::json j = read_json(path);
  ASSERT_EQ(j["cases"].size(), 2u);
  EXPECT_EQ(j["cases"][0]["name"], "kept 1");
  EXPECT_EQ(j["cases"][1]["value"], 4.0);
  EXPECT_TRUE(j.contains("partial"));
  EXPECT_EQ(report.cases.size(), 4u);  // the report itself keeps every case

  keep_partial_reports({}, {});
  fs::remove_all(dir);
  report.add({"kept 3", "s", {5, 5, 5, 1}, 0, 0, {}});
  EXPECT_FALSE(fs::exists(dir));
}

}  // namespace
}  // namespace hetflow::app
