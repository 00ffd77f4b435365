// `hetflow run` with `type: flamelet` (H2/N2 against air, H2/O2, coarse grids): the profiles and the
// S-curve table a run writes, extinction named in the manifest and the last line, malformed cases, a
// RADAU5 failure reported with its grid point, and a run stopped by SIGINT keeping its profile. The
// solver's own validation (steady state against Newton, splitting orders) is tests/chem/test_flamelet.cpp.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "command_test.hpp"
#include "run_outputs_check.hpp"

namespace {

namespace fs = std::filesystem;
using Result = hetflow::test::CommandResult;
using hetflow::test::source_root;

using hetflow::test::file_lines;

std::vector<std::string> cells(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream split(text);
  for (std::string cell; std::getline(split, cell, ',');) out.push_back(cell);
  if (!text.empty() && text.back() == ',') out.emplace_back();
  return out;
}

class FlameletCase : public hetflow::test::CommandTest {
 protected:
  void SetUp() override {
    CommandTest::SetUp();
    fs::copy_file(source_root / "data/mechanisms/h2o2.yaml", dir / "h2o2.yaml");
  }
  Result hetflow(const std::string& args) const { return run_hetflow(args + " --device " + device()); }

  // Six interior points clustered toward z_st = 0.304: a coarse grid whose flame burns at 1000 1/s and goes out
  // at 10000 1/s.
  static std::string h2_case(const std::string& flamelet, const std::string& extra = "") {
    return "type: flamelet\nmechanism:\n  file: h2o2.yaml\nmixture:\n  fuel: \"H2:1, N2:1\"\n"
           "grid:\n  points: 6\n  clustering: 1\nflamelet:\n" +
           flamelet + "time:\n  dt: 1e-5\n" + extra + "output:\n  dir: out\n";
  }
};

// One rate to steady state: its profile (the streams at the ends, T above the mixing line between) and
// its row of scurve.csv, which the manifest and the last line repeat.
TEST_F(FlameletCase, RunsToSteadyStateAndWritesItsProfile) {
  write("f.yaml", h2_case("  chi_st: [1000]\n"));
  const Result r = hetflow("run f.yaml");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto m = manifest("out");
  EXPECT_EQ(m["status"], "complete");
  hetflow::test::expect_outputs_are_the_files(dir / "out");
  EXPECT_NEAR(m["result"]["z_st"].get<double>(), 0.304, 0.001);
  ASSERT_EQ(m["result"]["rates"].size(), 1u);
  const auto& rate = m["result"]["rates"][0];
  EXPECT_EQ(rate["status"], "steady");
  EXPECT_GT(rate["rise"].get<double>(), 900.0);
  EXPECT_LT(rate["rate"].get<double>(), 1e-2);
  EXPECT_FALSE(m["result"]["extinction"]["detected"].get<bool>());

  const auto profile = file_lines(dir / "out/flamelet.csv");
  ASSERT_EQ(profile.size(), 9u);  // header and 8 nodes
  EXPECT_EQ(profile[0], "chi_st_per_s,z,chi_per_s,T_K,T_mixing_K,Y_H2,Y_H,Y_O,Y_O2,Y_OH,Y_H2O,Y_HO2,Y_H2O2,Y_AR,Y_N2");
  EXPECT_EQ(profile[1].rfind("1000,0,0,300,300,", 0), 0u) << profile[1];
  EXPECT_EQ(profile[8].rfind("1000,1,0,300,300,", 0), 0u) << profile[8];
  double hottest = 0;
  for (std::size_t i = 1; i < profile.size(); ++i) hottest = std::max(hottest, std::stod(cells(profile[i])[3]));
  EXPECT_EQ(hottest, rate["T_max"].get<double>());
  const auto curve = file_lines(dir / "out/scurve.csv");
  ASSERT_EQ(curve.size(), 2u);
  EXPECT_EQ(curve[1].rfind("1000,steady,", 0), 0u) << curve[1];
  EXPECT_TRUE(fs::exists(dir / "out/temperature.png"));
  EXPECT_TRUE(fs::exists(dir / "out/species.png"));
  const std::string line =
      "flamelet: chi_st = 1000 1/s steady after " + std::to_string(rate["steps"].get<long>()) + " steps";
  EXPECT_NE(r.output.find(line), std::string::npos) << line << "\n" << r.output;
}

// A sweep from 1000 to 10000 1/s: the flame goes out at the last rate, which the manifest, scurve.csv and
// the last line name.
TEST_F(FlameletCase, SweepNamesTheExtinction) {
  write("f.yaml", h2_case("  chi_st: [1000, 10000]\n"));
  const Result r = hetflow("run f.yaml");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto m = manifest("out");
  hetflow::test::expect_outputs_are_the_files(dir / "out");
  const auto& rates = m["result"]["rates"];
  ASSERT_EQ(rates.size(), 2u);
  EXPECT_EQ(rates[0]["status"], "steady");
  EXPECT_EQ(rates[1]["status"], "extinct");
  EXPECT_LT(rates[1]["rise"].get<double>(), 50.0);
  const auto& extinction = m["result"]["extinction"];
  EXPECT_TRUE(extinction["detected"].get<bool>());
  EXPECT_EQ(extinction["last_burning_chi_st"].get<double>(), 1000.0);
  EXPECT_EQ(extinction["first_extinct_chi_st"].get<double>(), 10000.0);
  EXPECT_EQ(file_lines(dir / "out/flamelet.csv").size(), 17u);
  EXPECT_TRUE(fs::exists(dir / "out/scurve.png"));
  EXPECT_NE(r.output.find("1 steady, 1 extinct, 0 failed, 0 interrupted or not run; extinction between chi_st = 1000 "
                          "and 10000 1/s"),
            std::string::npos)
      << r.output;
}

// One RADAU5 step allowed: the first split step fails at a grid point, which the table, the manifest and
// the last line name; no profile is written for it.
TEST_F(FlameletCase, ARadauFailureIsReportedWithItsGridPoint) {
  write("f.yaml", h2_case("  chi_st: [1000, 2000]\n", "solver:\n  max_steps: 1\n"));
  const Result r = hetflow("run f.yaml");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto m = manifest("out");
  const auto& rates = m["result"]["rates"];
  EXPECT_EQ(rates[0]["status"], "failed");
  EXPECT_NE(
      rates[0]["reason"].get<std::string>().find("flamelet step 1 (t = 0 to 1e-05 s): RADAU5 failed at grid point "),
      std::string::npos)
      << rates[0];
  EXPECT_FALSE(rates[0].contains("T_max"));
  EXPECT_EQ(rates[1]["status"], "not_run");
  EXPECT_EQ(m["result"]["failures"].size(), 1u);
  EXPECT_EQ(file_lines(dir / "out/flamelet.csv").size(), 1u);  // the header alone
  const auto curve = file_lines(dir / "out/scurve.csv");
  ASSERT_EQ(curve.size(), 3u);
  EXPECT_EQ(curve[1].rfind("1000,failed,,,0,", 0), 0u) << curve[1];
  EXPECT_NE(curve[1].find("IDID = -2"), std::string::npos) << curve[1];
  EXPECT_NE(r.output.find("0 steady, 0 extinct, 1 failed, 1 interrupted or not run"), std::string::npos) << r.output;
}

// time.end runs every rate for that long from the last one's state (10 us steps, the last shortened to
// land on 25 us), and a mixing-line start of cold streams never ignites: steady on the mixing line at
// once, which counts as extinct.
TEST_F(FlameletCase, EndTimeAndMixingStart) {
  write("f.yaml", h2_case("  chi_st: [1000, 2000]\n", "  end: 2.5e-5\n"));
  const Result r = hetflow("run f.yaml");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto m = manifest("out");
  for (const auto& rate : m["result"]["rates"]) {
    EXPECT_EQ(rate["status"], "end_time") << rate;
    EXPECT_EQ(rate["steps"], 3) << rate;
    EXPECT_NEAR(rate["time"].get<double>(), 2.5e-5, 1e-18) << rate;
  }
  EXPECT_EQ(m["result"]["steps"], 6);

  std::string text = h2_case("  chi_st: [100]\n  start: mixing\n");
  text.replace(text.find("dir: out"), 8, "dir: cold");
  write("cold.yaml", text);
  const Result cold = hetflow("run cold.yaml");
  ASSERT_EQ(cold.status, 0) << cold.output;
  const auto cold_manifest = manifest("cold");
  const auto& rate = cold_manifest["result"]["rates"][0];
  EXPECT_EQ(rate["status"], "extinct");
  EXPECT_EQ(rate["steps"], 1);
  EXPECT_LT(rate["rise"].get<double>(), 1e-9);
}

TEST_F(FlameletCase, MalformedCasesAreRejectedWithLineAndKey) {
  const auto with = [](const std::string& mixture, const std::string& rest) {
    return "type: flamelet\nmechanism:\n  file: h2o2.yaml\nmixture:\n" + mixture + rest + "output:\n  dir: out\n";
  };
  const std::string fuel = "  fuel: \"H2:1\"\n";
  expect_rejected({
      {"species", with("  fuel: \"XY:1\"\n", ""), "species.yaml:5: mixture.fuel: unknown species 'XY'"},
      {"chi", with(fuel, "flamelet:\n  chi_st: [100, -5]\n"), "chi.yaml:7: flamelet.chi_st"},
      {"range", with(fuel, "flamelet:\n  chi_st_range: [10, 100]\n"),
       "range.yaml:7: flamelet.chi_st_range = [10, 100]: expected [first, last, count]"},
      {"both", with(fuel, "flamelet:\n  chi_st: [20]\n  chi_st_range: [10, 100, 3]\n"),
       "both.yaml:8: flamelet.chi_st_range does not apply"},
      {"points", with(fuel, "grid:\n  points: 1\n"), "points.yaml:7: grid.points = 1 is out of range"},
      {"start", with(fuel, "flamelet:\n  start: hot\n"), "start.yaml:7: flamelet.start = hot"},
      {"oxidizer", with(fuel + "  oxidizer: \"N2:1\"\n", ""),
       "oxidizer.yaml:6: mixture: the oxidizer stream supplies no net oxygen"},
      {"cold", with(fuel + "  fuel_temperature: 0\n", ""), "cold.yaml:6: mixture.fuel_temperature"},
      {"dt", with(fuel, "time:\n  dt: -1e-5\n"), "dt.yaml:7: time.dt"},
      {"unknown", with(fuel, "flamelet:\n  chi: [10]\n"), "unknown.yaml:7: unknown key flamelet.chi"},
  });
}

// SIGINT a second into a run at chi_st = 10 1/s with 1 us steps (some 10^5 steps to steady state): exit
// 130, and the profile reached written, marked interrupted.
TEST_F(FlameletCase, StopsAtAnInterruptWithTheProfileItHas) {
  std::string text = h2_case("  chi_st: [10, 100]\n");
  text.replace(text.find("dt: 1e-5"), 8, "dt: 1e-6");
  write("f.yaml", text);
  EXPECT_EQ(run_interrupted({"f.yaml"}, "out/manifest.json", std::chrono::milliseconds(1000)), 130);
  const auto m = manifest("out");
  EXPECT_EQ(m["status"], "interrupted");
  const auto& rates = m["result"]["rates"];
  ASSERT_EQ(rates.size(), 2u);
  EXPECT_EQ(rates[0]["status"], "interrupted");
  EXPECT_GT(rates[0]["steps"].get<long>(), 0);
  EXPECT_EQ(rates[1]["status"], "not_run");
  EXPECT_EQ(file_lines(dir / "out/flamelet.csv").size(), 9u);
  EXPECT_EQ(file_lines(dir / "out/scurve.csv")[1].rfind("10,interrupted,", 0), 0u);
}

}  // namespace
