// `hetflow run` with `type: ignition`, `type: reactor_batch` and `type: equilibrium`: H2/air delays against Cantera
// (tests/chem/data/h2_ignition_reference.json), the outputs' rows, the line each run ends with, malformed
// cases, a failing system reported with the integrator's reason, and runs stopped by SIGINT.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>

#include "command_test.hpp"
#include "hetflow/app/case_type.hpp"
#include "hetflow/app/chem/chem_case_setup.hpp"
#include "hetflow/app/chem/ignition_search.hpp"
#include "hetflow/casefile/case.hpp"
#include "hetflow/chem/equilibrium.hpp"
#include "hetflow/chem/reactor_source.hpp"
#include "hetflow/chem/yaml_mechanism.hpp"
#include "hetflow/core/number_text.hpp"
#include "run_outputs_check.hpp"
#include "test_devices.hpp"

namespace {

namespace fs = std::filesystem;
using Result = hetflow::test::CommandResult;

using hetflow::test::source_root;

using hetflow::test::file_lines;

class ChemCase : public hetflow::test::CommandTest {
 protected:
  void SetUp() override {
    CommandTest::SetUp();
    fs::copy_file(source_root / "data/mechanisms/h2o2.yaml", dir / "h2o2.yaml");
  }
  Result hetflow(const std::string& args) const { return run_hetflow(args + " --device " + device()); }

  static std::string h2_case(const std::string& extra = "", const std::string& temperatures = "[1000, 1200]") {
    return "type: ignition\nmechanism:\n  file: h2o2.yaml\nmixture:\n  fuel: \"H2:1\"\n  oxidizer: \"O2:1, N2:3.76\"\n"
           "initial:\n  temperature: " + temperatures + "\nignition:\n  end_time: 0.01\n" + extra + "output:\n  dir: out\n";
  }
};

TEST_F(ChemCase, H2AirDelaysMatchCantera) {
  write("h2.yaml", h2_case());
  const Result r = hetflow("run h2.yaml");
  ASSERT_EQ(r.status, 0) << r.output;
  std::ifstream in(source_root / "tests/chem/data/h2_ignition_reference.json");
  const auto ref = nlohmann::json::parse(in);
  const auto m = manifest("out");
  EXPECT_EQ(m["status"], "complete");
  hetflow::test::expect_outputs_are_the_files(dir / "out");
  ASSERT_EQ(m["result"]["systems"].size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const auto& s = m["result"]["systems"][i];
    EXPECT_EQ(s["status"], "ignited");
    const double want = ref["cases"][i]["delay"].get<double>();
    EXPECT_NEAR(s["delay"].get<double>(), want, 0.01 * want) << "T0 = " << s["T0"];
  }
  const auto table = file_lines(dir / "out/ignition.csv");
  ASSERT_EQ(table.size(), 3u);
  EXPECT_EQ(table[0], "T0_K,p_atm,phi,delay_s,final_T_K,status,reason");
  EXPECT_EQ(table[1].rfind("1000,1,1,", 0), 0u) << table[1];
  const auto series = file_lines(dir / "out/temperature.csv");
  EXPECT_EQ(series[0], "t_s,T_0,T_1");
  EXPECT_EQ(series.size(), m["result"]["samples"].get<std::size_t>() + 1);
  EXPECT_TRUE(fs::exists(dir / "out/ignition_delay.png"));
  EXPECT_TRUE(fs::exists(dir / "out/temperature.png"));
}

// ignition.reactor: constant_volume runs Cantera's IdealGasReactor case (h2_ignition_constant_volume_reference.json):
// the same 1 % as at constant pressure, and the manifest names the reactor.
TEST_F(ChemCase, ConstantVolumeDelaysMatchCantera) {
  write("h2.yaml", h2_case("  reactor: constant_volume\n"));
  const Result r = hetflow("run h2.yaml");
  ASSERT_EQ(r.status, 0) << r.output;
  std::ifstream in(source_root / "tests/chem/data/h2_ignition_constant_volume_reference.json");
  const auto ref = nlohmann::json::parse(in);
  const auto m = manifest("out");
  EXPECT_EQ(m["reactor"], "constant_volume");
  ASSERT_EQ(m["result"]["systems"].size(), 2u);
  ASSERT_EQ(ref["cases"].size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const auto& s = m["result"]["systems"][i];
    EXPECT_EQ(s["status"], "ignited");
    const double want = ref["cases"][i]["delay"].get<double>();
    EXPECT_NEAR(s["delay"].get<double>(), want, 0.01 * want) << "T0 = " << s["T0"];
  }
}

// The run's last line names the ignited systems and the range of their delays, as the manifest has them.
TEST_F(ChemCase, IgnitionEndsWithItsDelays) {
  write("h2.yaml", h2_case());
  const Result r = hetflow("run h2.yaml");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto systems = manifest("out")["result"]["systems"];
  const double a = systems[0]["delay"].get<double>(), b = systems[1]["delay"].get<double>();
  const std::string line = "ignition: 2 of 2 systems ignited (delays " + hetflow::core::number_text(std::min(a, b), 6) +
                           " to " + hetflow::core::number_text(std::max(a, b), 6) + " s), 0 failed, 0 interrupted; ";
  EXPECT_NE(r.output.find(line), std::string::npos) << line << "\n" << r.output;
}

TEST_F(ChemCase, FailingSystemIsReportedWithItsReason) {
  write("h2.yaml", h2_case("solver:\n  max_steps: 10\n", "[1000]"));
  const Result r = hetflow("run h2.yaml");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto m = manifest("out");
  const auto& s = m["result"]["systems"][0];
  EXPECT_EQ(s["status"], "failed");
  EXPECT_FALSE(s.contains("delay"));
  EXPECT_NE(s["reason"].get<std::string>().find("IDID = -2"), std::string::npos) << s;
  ASSERT_EQ(m["result"]["failures"].size(), 1u);
  const auto table = file_lines(dir / "out/ignition.csv");
  ASSERT_EQ(table.size(), 2u);
  EXPECT_EQ(table[1].rfind("1000,1,1,,,failed,", 0), 0u) << table[1];  // no delay, no final T
  EXPECT_NE(table[1].find("IDID = -2"), std::string::npos) << table[1];
}

TEST_F(ChemCase, MalformedCasesAreRejectedWithLineAndKey) {
  expect_rejected({
      {"species", "type: ignition\nmechanism:\n  file: h2o2.yaml\nmixture:\n  fuel: \"XY:1\"\ninitial:\n  temperature: [1000]\n"
                  "output:\n  dir: out\n", "species.yaml:5: mixture.fuel: unknown species 'XY'"},
      {"phi", "type: ignition\nmechanism:\n  file: h2o2.yaml\nmixture:\n  fuel: \"H2:1\"\n  phi: [0]\n"
              "initial:\n  temperature: [1000]\noutput:\n  dir: out\n", "phi.yaml:6: mixture.phi"},
      {"missing", "type: ignition\nmechanism:\n  file: nowhere.yaml\ninitial:\n  temperature: [1000]\noutput:\n  dir: out\n",
       "missing.yaml:3: mechanism.file"},
      {"negative", "type: ignition\nmechanism:\n  file: h2o2.yaml\nmixture:\n  fuel: \"H2:1\"\ninitial:\n"
                   "  temperature: [-5]\noutput:\n  dir: out\n", "negative.yaml:7: initial.temperature"},
      {"unknown", "type: ignition\nmechanism:\n  file: h2o2.yaml\n  colour: red\nmixture:\n  fuel: \"H2:1\"\n"
                  "initial:\n  temperature: [1000]\noutput:\n  dir: out\n", "unknown.yaml:4: unknown key mechanism.colour"},
      {"phase", "type: ignition\nmechanism:\n  file: h2o2.yaml\n  phase: nowhere\nmixture:\n  fuel: \"H2:1\"\n"
                "initial:\n  temperature: [1000]\noutput:\n  dir: out\n", "phase.yaml:3: mechanism.file: "},
      {"reactor", "type: ignition\nmechanism:\n  file: h2o2.yaml\nmixture:\n  fuel: \"H2:1\"\ninitial:\n"
                  "  temperature: [1000]\nignition:\n  reactor: isochoric\noutput:\n  dir: out\n",
       "reactor.yaml:9: ignition.reactor"},
      {"thet", "type: reactor_batch\nmechanism:\n  file: h2o2.yaml\nmixture:\n  fuel: \"H2:1\"\nsolver:\n  thet: 1.5\n"
               "output:\n  dir: out\n", "thet.yaml:7: solver.thet"},
      {"quot1", "type: reactor_batch\nmechanism:\n  file: h2o2.yaml\nmixture:\n  fuel: \"H2:1\"\nsolver:\n  quot1: 1.1\n"
                "output:\n  dir: out\n", "quot1.yaml:7: solver.quot1"},
      {"quot2", "type: reactor_batch\nmechanism:\n  file: h2o2.yaml\nmixture:\n  fuel: \"H2:1\"\nsolver:\n  quot2: 0.5\n"
                "output:\n  dir: out\n", "quot2.yaml:7: solver.quot2"},
      {"fnewt", "type: reactor_batch\nmechanism:\n  file: h2o2.yaml\nmixture:\n  fuel: \"H2:1\"\nsolver:\n  fnewt: -0.1\n"
                "output:\n  dir: out\n", "fnewt.yaml:7: solver.fnewt"},
  });
}

// solver.thet, fnewt, quot1 and quot2 reach RADAU5's options; left out, they are Hairer & Wanner's defaults.
TEST(ChemSolverKeys, ReachRadau5sOptions) {
  const std::string head = "type: reactor_batch\nmechanism:\n  file: h2o2.yaml\noutput:\n  dir: out\n";
  using hetflow::app::case_registry, hetflow::app::case_solver_options, hetflow::casefile::parse_case;
  const hetflow::ode::Options given = case_solver_options(
      parse_case(head + "solver:\n  thet: 0.01\n  fnewt: 0.05\n  quot1: 0.99\n  quot2: 2\n", case_registry(), {}, "<solver keys>"));
  EXPECT_EQ(given.thet, 0.01);
  EXPECT_EQ(given.fnewt, 0.05);
  EXPECT_EQ(given.quot1, 0.99);
  EXPECT_EQ(given.quot2, 2.0);
  const hetflow::ode::Options plain = case_solver_options(parse_case(head, case_registry(), {}, "<defaults>"));
  EXPECT_EQ(plain.thet, 0.001);
  EXPECT_EQ(plain.fnewt, 0.0);
  EXPECT_EQ(plain.quot1, 1.0);
  EXPECT_EQ(plain.quot2, 1.2);
}

TEST_F(ChemCase, ReactorBatchWritesEveryFinalState) {
  write("batch.yaml", "type: reactor_batch\nmechanism:\n  file: h2o2.yaml\nmixture:\n  fuel: \"H2:1\"\n"
                      "batch:\n  count: 20\n  dt: 1e-4\noutput:\n  dir: out\n");
  const Result r = hetflow("run batch.yaml");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto m = manifest("out");
  hetflow::test::expect_outputs_are_the_files(dir / "out");
  EXPECT_EQ(m["result"]["systems"], 20);
  EXPECT_EQ(m["result"]["failed"], 0);
  EXPECT_GT(m["result"]["systems_per_second"].get<double>(), 0.0);
  // Kernel build apart from the integration.
  for (const char* timing : {"build", "kernel_build", "integration"})
    EXPECT_TRUE(m["timings_s"].contains(timing)) << timing << ": " << m["timings_s"];
  // The progress bar's summary counts systems.
  EXPECT_NE(r.output.find("reactor_batch: 20 systems in "), std::string::npos) << r.output;
  const auto table = file_lines(dir / "out/final_states.csv");
  ASSERT_EQ(table.size(), 21u);
  EXPECT_EQ(table[0].rfind("T0_K,p_Pa,T_K,Y_H2,", 0), 0u) << table[0];
  // The last line: systems integrated and the range of their final temperatures (column T_K).
  double coolest = INFINITY, hottest = -INFINITY;
  for (std::size_t i = 1; i < table.size(); ++i) {
    const std::size_t from = table[i].find(',', table[i].find(',') + 1) + 1;
    const double T = std::stod(table[i].substr(from, table[i].find(',', from) - from));
    coolest = std::min(coolest, T);
    hottest = std::max(hottest, T);
  }
  char range[64];
  std::snprintf(range, sizeof range, "; final T %.1f to %.1f K\n", coolest, hottest);
  const std::string start = "reactor_batch: 20 of 20 systems of 11 equations integrated over dt = 0.0001 s in ";
  const std::size_t at = r.output.find(start);
  ASSERT_NE(at, std::string::npos) << r.output;
  const std::string line = r.output.substr(at, r.output.find('\n', at) + 1 - at);
  EXPECT_NE(line.find(" systems/s), 0 failed, 0 interrupted" + std::string(range)), std::string::npos) << line;
}

// batch.reactor: constant_volume keeps each state's internal energy per kilogram through ignition (its
// equations hold u exactly; the tolerance, 1e-5 of c_v T with c_v taken as 1 kJ/(kg K), is far below what
// the constant-pressure equations or h in place of u would change: R T per mole of change, ~1e5 J/kg).
// States from a CSV, so the test knows their compositions.
TEST_F(ChemCase, ConstantVolumeBatchKeepsTheInternalEnergy) {
  write("states.csv", "T,p,H2,O2,N2\n1100,1,2,1,3.76\n1200,2,2,1,3.76\n1300,1,1,1,3.76\n");
  write("batch.yaml", "type: reactor_batch\nmechanism:\n  file: h2o2.yaml\nmixture:\n  fuel: \"H2:1\"\n"
                      "batch:\n  file: states.csv\n  dt: 1e-3\n  reactor: constant_volume\noutput:\n  dir: out\n");
  const Result r = hetflow("run batch.yaml");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(manifest("out")["reactor"], "constant_volume");
  const hetflow::chem::Mechanism m = hetflow::chem::read_yaml_mechanism(dir / "h2o2.yaml");
  const auto table = file_lines(dir / "out/final_states.csv");
  ASSERT_EQ(table.size(), 4u);
  const std::vector<std::vector<double>> moles = {{2, 1, 3.76}, {2, 1, 3.76}, {1, 1, 3.76}};
  for (std::size_t i = 0; i < 3; ++i) {
    std::vector<double> x(m.species.size(), 0.0);
    x[static_cast<std::size_t>(m.species_index("H2"))] = moles[i][0];
    x[static_cast<std::size_t>(m.species_index("O2"))] = moles[i][1];
    x[static_cast<std::size_t>(m.species_index("N2"))] = moles[i][2];
    double total = 0.0;
    for (const double v : x) total += v;
    for (double& v : x) v /= total;
    std::vector<double> cells;
    std::stringstream row(table[i + 1]);
    for (std::string cell; std::getline(row, cell, ',') && cells.size() < 3 + m.species.size();)
      cells.push_back(std::stod(cell));
    ASSERT_EQ(cells.size(), 3 + m.species.size()) << table[i + 1];
    const double T0 = cells[0], p0 = cells[1], T = cells[2];
    const std::vector<double> y(cells.begin() + 3, cells.end());
    const double u0 = hetflow::chem::mixture_internal_energy(m, {T0, p0, hetflow::app::mass_fractions(m, x)});
    const double u = hetflow::chem::mixture_internal_energy(m, {T, p0, y});
    EXPECT_GT(T, T0 + 500.0) << "state " << i << " did not ignite";
    EXPECT_NEAR(u, u0, 1e-5 * 1e3 * T0) << "state " << i;
  }
}

// SIGINT a second into a batch that takes several seconds: the run stops within a chunk, exits 130,
// and writes every system's row, those it did not reach marked interrupted with no state.
TEST_F(ChemCase, ReactorBatchStopsAtAnInterruptWithTheStatesItHas) {
  // GPUs take a batch below 1e6 systems whole, in one chunk, and integrate this one in well under a second.
  if (device().rfind("cpu", 0) != 0) GTEST_SKIP() << "chunks for a prompt stop are a CPU's";
  write("batch.yaml", "type: reactor_batch\nmechanism:\n  file: h2o2.yaml\nmixture:\n  fuel: \"H2:1\"\n"
                      "batch:\n  count: 3000\n  dt: 1e-4\noutput:\n  dir: out\n");
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(run_interrupted({"batch.yaml"}, "out/manifest.json", std::chrono::milliseconds(1000)), 130);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const auto m = manifest("out");
  EXPECT_EQ(m["status"], "interrupted");
  const std::size_t integrated = m["result"]["integrated"], interrupted = m["result"]["interrupted"];
  EXPECT_EQ(integrated + interrupted, 3000u);
  EXPECT_GT(interrupted, 0u);
  EXPECT_TRUE(m["outputs"].contains("final_states.csv")) << m["outputs"];
  const auto table = file_lines(dir / "out/final_states.csv");
  ASSERT_EQ(table.size(), 3001u);
  std::size_t marked = 0;
  for (std::size_t i = 1; i < table.size(); ++i)
    if (table[i].find(",interrupted,the run was interrupted before this system was integrated") != std::string::npos) {
      ++marked;
      const std::size_t second = table[i].find(',', table[i].find(',') + 1);
      EXPECT_EQ(table[i][second + 1], ',') << table[i];  // no final T
    }
  EXPECT_EQ(marked, interrupted);
  // The whole batch takes about 20 s here; the stop comes a chunk (a 32nd of it) after the signal.
  EXPECT_LT(seconds, 10.0);
}

// SIGINT a second into a sweep of 40 systems that takes about 13 s here (5,000 launches): exit 130,
// every system's row written, each one ignited (with its delay), without ignition or interrupted.
TEST_F(ChemCase, IgnitionStopsAtAnInterruptWithTheRowsItHas) {
  std::string temperatures = "[";
  for (int k = 0; k < 40; ++k) temperatures += (k ? ", " : "") + std::to_string(950 + 10 * k);
  write("h2.yaml", h2_case("  samples_per_decade: 1000\n", temperatures + "]"));
  EXPECT_EQ(run_interrupted({"h2.yaml"}, "out/manifest.json", std::chrono::milliseconds(1000)), 130);
  const auto m = manifest("out");
  EXPECT_EQ(m["status"], "interrupted");
  ASSERT_EQ(m["result"]["systems"].size(), 40u);
  EXPECT_GT(m["result"]["interrupted"].get<int>(), 0);
  for (const auto& s : m["result"]["systems"]) {
    const std::string status = s["status"];
    EXPECT_TRUE(status == "ignited" || status == "interrupted" || status == "no_ignition") << s;
    EXPECT_EQ(s.contains("delay"), status == "ignited") << s;
  }
  EXPECT_EQ(file_lines(dir / "out/ignition.csv").size(), 41u);
  EXPECT_TRUE(fs::exists(dir / "out/temperature.csv"));
}

// A sweep stopped after the sample past one system's ignition and before another's keeps the first
// delay, from the sample grid's bracket, and marks only the second interrupted.
// `type: equilibrium`: the HP and UV equilibria of stoichiometric H2/air from 300 K and 1 atm against
// Cantera's (tests/chem/data/equilibrium_holds_reference.json; the solver's own tests are in
// tests/chem/test_equilibrate.cpp), the table's rows and the line the run ends with.
TEST_F(ChemCase, EquilibriumTemperaturesMatchCantera) {
  std::ifstream in(source_root / "tests/chem/data/equilibrium_holds_reference.json");
  const auto ref = nlohmann::json::parse(in);
  for (const std::string hold : {"HP", "UV"}) {
    double want = 0;
    for (const auto& c : ref["cases"])
      if (c["mechanism"] == "h2o2.yaml" && c["hold"] == hold && std::abs(c["start"]["T"].get<double>() - 300) < 1e-9 &&
          std::abs(c["start"]["p"].get<double>() - 101325) < 1e-6)
        want = c["T"].get<double>();
    ASSERT_GT(want, 0) << hold;
    write("eq.yaml",
          "type: equilibrium\nmechanism:\n  file: h2o2.yaml\nmixture:\n  fuel: \"H2:1\"\n  phi: [0.5, 1]\n"
          "equilibrium:\n  hold: " +
              hold + "\noutput:\n  dir: out_" + hold + "\n");
    const Result r = hetflow("run eq.yaml");
    ASSERT_EQ(r.status, 0) << r.output;
    const auto m = manifest("out_" + hold);
    EXPECT_EQ(m["status"], "complete");
    hetflow::test::expect_outputs_are_the_files(dir / ("out_" + hold));
    const auto& states = m["result"]["states"];
    ASSERT_EQ(states.size(), 2u);
    EXPECT_EQ(states[1]["status"], "solved");
    EXPECT_NEAR(states[1]["T"].get<double>(), want, 1e-9 * want) << hold;
    const auto table = file_lines(dir / ("out_" + hold) / "equilibrium.csv");
    ASSERT_EQ(table.size(), 3u);
    EXPECT_EQ(table[0].rfind("T0_K,p0_atm,phi,T_K,p_atm,status,reason,X_H2,X_H,", 0), 0u) << table[0];
    ASSERT_EQ(table[2].rfind("300,1,1,", 0), 0u) << table[2];
    EXPECT_EQ(std::strtod(table[2].c_str() + 8, nullptr), states[1]["T"].get<double>()) << table[2];
    const double lean = states[0]["T"].get<double>(), rich = states[1]["T"].get<double>();
    const std::string line = "equilibrium (" + hold + "): 2 of 2 states solved (T " +
                             hetflow::core::number_text(std::min(lean, rich), 6) + " to " +
                             hetflow::core::number_text(std::max(lean, rich), 6) + " K), 0 failed, 0 interrupted";
    EXPECT_NE(r.output.find(line), std::string::npos) << line << "\n" << r.output;
  }
}

// mixture.composition: air alone at 3500 K and 1 atm (GRI-Mech 3.0), whose TP equilibrium's NO and O mole
// fractions match Cantera's (equilibrium_holds_reference.json) within 1e-8 relative; no phi column.
TEST_F(ChemCase, EquilibriumOfAGivenComposition) {
  fs::copy_file(source_root / "data/mechanisms/gri30.yaml", dir / "gri30.yaml");
  write("air.yaml", "type: equilibrium\nmechanism:\n  file: gri30.yaml\nmixture:\n  composition: \"O2:1, N2:3.76\"\n"
                    "initial:\n  temperature: [3500]\nequilibrium:\n  hold: TP\noutput:\n  dir: out\n");
  const Result r = hetflow("run air.yaml");
  ASSERT_EQ(r.status, 0) << r.output;
  std::ifstream in(source_root / "tests/chem/data/equilibrium_holds_reference.json");
  const auto ref = nlohmann::json::parse(in);
  nlohmann::json air;
  for (const auto& c : ref["cases"])
    if (c["mechanism"] == "gri30.yaml" && c["hold"] == "TP" && std::abs(c["T"].get<double>() - 3500) < 1e-9) air = c;
  ASSERT_FALSE(air.is_null());
  const hetflow::chem::Mechanism gri = hetflow::chem::read_yaml_mechanism(dir / "gri30.yaml");
  const auto names = air["species"].get<std::vector<std::string>>();
  const auto y = air["Y"].get<std::vector<double>>();
  const auto weight = [&](const std::string& name) {
    return gri.species[static_cast<std::size_t>(gri.species_index(name))].molecular_weight;
  };
  double moles = 0;
  for (std::size_t k = 0; k < names.size(); ++k) moles += y[k] / weight(names[k]);
  const auto table = file_lines(dir / "out/equilibrium.csv");
  ASSERT_EQ(table.size(), 2u);
  const auto cells = [](const std::string& text) {
    std::vector<std::string> out;
    std::stringstream split(text);
    for (std::string cell; std::getline(split, cell, ',');) out.push_back(cell);
    if (!text.empty() && text.back() == ',') out.emplace_back();
    return out;
  };
  const std::vector<std::string> header = cells(table[0]), row = cells(table[1]);
  ASSERT_EQ(header.size(), row.size()) << table[1];
  EXPECT_EQ(row[2], "") << "phi of a given composition";
  for (const std::string name : {"NO", "O", "O2", "N2"}) {
    const auto column = static_cast<std::size_t>(std::find(header.begin(), header.end(), "X_" + name) - header.begin());
    const auto k = static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
    ASSERT_LT(column, header.size()) << name;
    ASSERT_LT(k, names.size()) << name;
    const double want = y[k] / weight(name) / moles;
    EXPECT_NEAR(std::strtod(row[column].c_str(), nullptr), want, 1e-8 * want) << name;
  }
  EXPECT_FALSE(manifest("out")["result"]["states"][0].contains("phi"));
}

TEST_F(ChemCase, MalformedEquilibriumCasesAreRejectedWithLineAndKey) {
  expect_rejected({
      {"hold",
       "type: equilibrium\nmechanism:\n  file: h2o2.yaml\nmixture:\n  fuel: \"H2:1\"\nequilibrium:\n"
       "  hold: HV\noutput:\n  dir: out\n",
       "hold.yaml:7: equilibrium.hold"},
      {"empty",
       "type: equilibrium\nmechanism:\n  file: h2o2.yaml\nmixture:\n  fuel: \"H2:1\"\n  phi: []\n"
       "output:\n  dir: out\n",
       "empty.yaml:6: mixture.phi is empty"},
      {"oxidizer",
       "type: equilibrium\nmechanism:\n  file: h2o2.yaml\nmixture:\n  fuel: \"H2:1\"\n"
       "  oxidizer: \"N2:1\"\noutput:\n  dir: out\n",
       "oxidizer.yaml:6: mixture:"},
      {"cold",
       "type: equilibrium\nmechanism:\n  file: h2o2.yaml\nmixture:\n  fuel: \"H2:1\"\ninitial:\n"
       "  temperature: [0]\noutput:\n  dir: out\n",
       "cold.yaml:7: initial.temperature"},
      {"both",
       "type: equilibrium\nmechanism:\n  file: h2o2.yaml\nmixture:\n  composition: \"H2:2, O2:1\"\n"
       "  phi: [2]\noutput:\n  dir: out\n",
       "both.yaml:6: mixture.phi does not apply"},
      {"unknown_species",
       "type: equilibrium\nmechanism:\n  file: h2o2.yaml\nmixture:\n  composition: \"CH4:1\"\noutput:\n  dir: out\n",
       "unknown_species.yaml:5: mixture.composition: unknown species 'CH4'"},
  });
}

// The comma-separated cells of a CSV row.
std::vector<std::string> cells(const std::string& row) {
  std::vector<std::string> out;
  std::stringstream in(row);
  for (std::string c; std::getline(in, c, ',');) out.push_back(c);
  if (!row.empty() && row.back() == ',') out.emplace_back();
  return out;
}

// output.samples: 30 log-spaced states per system in trajectories.csv, from one launch's dense output:
// T and the main species (H2, H, O2, OH, H2O, N2 in h2o2.yaml), starting at T0, crossing T0 + 400 K
// between the two samples around the delay that the sweep found, and ending at the sweep's T at end_time,
// each to 1e-4 relative (two integrations at rtol = 1e-8 that take different steps).
TEST_F(ChemCase, IgnitionWritesTrajectoriesAtTheSampleTimes) {
  write("h2.yaml", h2_case() + "  samples: 30\n");
  const Result r = hetflow("run h2.yaml");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto m = manifest("out");
  hetflow::test::expect_outputs_are_the_files(dir / "out");
  EXPECT_TRUE(m["timings_s"].contains("trajectories")) << m["timings_s"];
  const auto table = file_lines(dir / "out/trajectories.csv");
  ASSERT_EQ(table.size(), 1u + 2 * 30);
  EXPECT_EQ(table[0], "system,t_s,T_K,Y_H2,Y_H,Y_O2,Y_OH,Y_H2O,Y_N2");
  std::size_t crossings = 0;
  for (std::size_t s = 0; s < 2; ++s) {
    const auto& system = m["result"]["systems"][s];
    const double T0 = system["T0"], delay = system["delay"];
    double previous_t = -1.0;
    bool crossed = false;
    for (std::size_t j = 0; j < 30; ++j) {
      const auto row = cells(table[1 + 30 * s + j]);
      ASSERT_EQ(row.size(), 9u) << table[1 + 30 * s + j];
      EXPECT_EQ(row[0], std::to_string(s));
      const double t = std::stod(row[1]), T = std::stod(row[2]);
      EXPECT_GT(t, previous_t);  // log spacing: 0, then 1e-7 to end_time
      if (j == 0) EXPECT_EQ(row[1] + "," + row[2], "0," + hetflow::core::shortest_text(T0));
      if (j == 1) EXPECT_EQ(t, 1e-7);
      if (j == 29) {
        EXPECT_EQ(t, 0.01);
        EXPECT_NEAR(T, system["final_T"].get<double>(), 1e-4 * T);
      }
      if (!crossed && T >= T0 + 400) {
        crossed = true;
        ++crossings;
        EXPECT_GE(t, delay * (1 - 1e-4)) << "system " << s;
        EXPECT_LT(previous_t, delay * (1 + 1e-4)) << "system " << s;
      }
      previous_t = t;
    }
  }
  EXPECT_EQ(crossings, 2u);
}

// A run without output.samples writes no trajectories.
TEST_F(ChemCase, IgnitionWithoutSamplesWritesNoTrajectories) {
  write("h2.yaml", h2_case("", "[1200]"));
  ASSERT_EQ(hetflow("run h2.yaml").status, 0);
  EXPECT_FALSE(fs::exists(dir / "out/trajectories.csv"));
  EXPECT_FALSE(manifest("out")["outputs"].contains("trajectories.csv"));
}

// output.samples: 5 states per system, evenly over dt, from the batch's own launch: the first is the
// initial state and the last the final state of final_states.csv, cell for cell (the dense output at
// t_end is the final state's bits).
TEST_F(ChemCase, ReactorBatchWritesTrajectoriesEndingAtTheFinalStates) {
  write("batch.yaml", "type: reactor_batch\nmechanism:\n  file: h2o2.yaml\nmixture:\n  fuel: \"H2:1\"\n"
                      "batch:\n  count: 4\n  dt: 1e-4\n  temperature: [1200, 1300]\noutput:\n  dir: out\n"
                      "  samples: 5\n");
  const Result r = hetflow("run batch.yaml");
  ASSERT_EQ(r.status, 0) << r.output;
  hetflow::test::expect_outputs_are_the_files(dir / "out");
  const auto finals = file_lines(dir / "out/final_states.csv");
  const auto table = file_lines(dir / "out/trajectories.csv");
  ASSERT_EQ(finals.size(), 5u);
  ASSERT_EQ(table.size(), 1u + 4 * 5);
  // The trajectories' columns are final_states.csv's T_K and Y_ columns.
  const auto header = cells(table[0]), final_header = cells(finals[0]);
  ASSERT_EQ(header.size(), 2 + 11u);
  EXPECT_EQ(header[0] + "," + header[1], "system,t_s");
  EXPECT_TRUE(std::equal(header.begin() + 2, header.end(), final_header.begin() + 2)) << table[0];
  const double times[] = {0.0, 2.5e-5, 5e-5, 7.5e-5, 1e-4};
  for (std::size_t s = 0; s < 4; ++s) {
    const auto final_row = cells(finals[1 + s]);
    for (std::size_t j = 0; j < 5; ++j) {
      const auto row = cells(table[1 + 5 * s + j]);
      ASSERT_EQ(row.size(), header.size()) << table[1 + 5 * s + j];
      EXPECT_EQ(row[0], std::to_string(s));
      EXPECT_NEAR(std::stod(row[1]), times[j], 1e-18) << row[1];
    }
    EXPECT_EQ(cells(table[1 + 5 * s])[2], final_row[0]);  // T0
    const auto last = cells(table[5 + 5 * s]);
    EXPECT_TRUE(std::equal(last.begin() + 2, last.end(), final_row.begin() + 2)) << table[5 + 5 * s];
  }
}

// Large mechanisms name species with commas (n-hexane's C3H51-2,3OOH): the tables' headers quote those
// columns (RFC 4180), so that every row has as many fields as its header. h2o2.yaml with AR renamed A,R.
TEST_F(ChemCase, ColumnsOfSpeciesWithCommasAreQuoted) {
  std::string mechanism;
  for (std::string line : file_lines(dir / "h2o2.yaml")) {
    // AR stands alone wherever it names argon; YAML quotes it but in an equation, a plain scalar.
    const std::string name = line.find("equation:") != std::string::npos ? "A,R" : "\"A,R\"";
    for (std::size_t at = line.find("AR"); at != std::string::npos; at = line.find("AR", at + 1))
      if ((at == 0 || !std::isalnum(static_cast<unsigned char>(line[at - 1]))) &&
          (at + 2 == line.size() || !std::isalnum(static_cast<unsigned char>(line[at + 2]))))
        line.replace(at, 2, name);
    mechanism += line + "\n";
  }
  write("comma.yaml", mechanism);
  write("batch.yaml",
        "type: reactor_batch\nmechanism:\n  file: comma.yaml\nmixture:\n  fuel: \"H2:1\"\n"
        "batch:\n  count: 2\n  dt: 1e-5\n  temperature: [1200, 1300]\noutput:\n  dir: out\n"
        "  samples: 2\n");
  write("equilibrium.yaml",
        "type: equilibrium\nmechanism:\n  file: comma.yaml\nmixture:\n  fuel: \"H2:1\"\n"
        "  phi: [1]\noutput:\n  dir: eq\n");
  for (const auto& [run, table, column] : {std::tuple{"run batch.yaml", "out/final_states.csv", "Y_A,R"},
                                           std::tuple{"run batch.yaml", "out/trajectories.csv", "Y_A,R"},
                                           std::tuple{"run equilibrium.yaml", "eq/equilibrium.csv", "X_A,R"}}) {
    if (!fs::exists(dir / table)) {
      ASSERT_EQ(hetflow(run).status, 0) << run;
    }
    const auto lines = file_lines(dir / table);
    ASSERT_GE(lines.size(), 2u) << table;
    const auto header = hetflow::test::csv_fields(lines[0]);
    EXPECT_NE(std::find(header.begin(), header.end(), column), header.end()) << lines[0];
    EXPECT_NE(lines[0].find(",\"" + std::string(column) + "\","), std::string::npos) << "quoted whole: " << lines[0];
    for (std::size_t i = 1; i < lines.size(); ++i)
      EXPECT_EQ(hetflow::test::csv_fields(lines[i]).size(), header.size()) << table << ": " << lines[i];
  }
}

TEST_F(ChemCase, MalformedSampleKeysAreRejectedWithLineAndKey) {
  const std::string batch =
      "type: reactor_batch\nmechanism:\n  file: h2o2.yaml\nmixture:\n  fuel: \"H2:1\"\nbatch:\n  count: 4\n"
      "  dt: 1e-4\noutput:\n  dir: out\n";
  expect_rejected({
      {"negative", batch + "  samples: -1\n", "negative.yaml:11: output.samples"},
      {"spacing", batch + "  samples: 3\n  sample_spacing: cubic\n", "spacing.yaml:12: output.sample_spacing"},
      {"late",
       batch + "  samples: 3\n  sample_spacing: log\n  first_sample: 1e-3\n",
       "late.yaml:13: output.first_sample = 0.001 is not below batch.dt = 0.0001"},
      {"linear", batch + "  samples: 3\n  first_sample: 1e-6\n",
       "linear.yaml:12: output.first_sample does not apply: output.sample_spacing is linear"},
      {"unsampled", batch + "  sample_spacing: log\n",
       "unsampled.yaml:11: output.sample_spacing does not apply: output.samples is 0"},
      {"ignition_late", h2_case() + "  samples: 10\n  first_sample: 0.5\n",
       "ignition_late.yaml:14: output.first_sample = 0.5 is not below ignition.end_time = 0.01"},
  });
}

TEST(IgnitionSearch, AnInterruptedSweepKeepsTheDelaysFound) {
  using namespace hetflow;
  const core::DeviceSet devices = test::test_device();
  const chem::Mechanism m = chem::read_yaml_mechanism(source_root / "data/mechanisms/h2o2.yaml");
  const app::Composition fuel{{"H2", 1.0}}, air{{"O2", 1.0}, {"N2", 3.76}};
  std::vector<std::vector<double>> y0;
  for (const double T0 : {1200.0, 1000.0}) {
    y0.push_back(app::mass_fractions(m, app::mixture_mole_fractions(m, fuel, air, 1.0)));
    y0.back().push_back(T0);
  }
  const std::vector<double> pressures{101325.0, 101325.0};
  app::IgnitionSettings settings;
  settings.end_time = 0.01;
  ode::Options o;
  o.rtol = {1e-8};
  o.atol = {1e-12};
  const ode::Radau5 solver(devices, chem::reactor_system(m), o);
  const app::IgnitionSweep full = app::find_ignition(solver, m, chem::ReactorKind::constant_pressure, y0, pressures, settings, [](long, long) { return true; });
  ASSERT_EQ(full.runs[0].status, "ignited");
  ASSERT_EQ(full.runs[1].status, "ignited");
  const double fast = full.runs[0].delay, slow = full.runs[1].delay;
  // Launch L integrates up to times[L]: stop after the first that passes the fast delay.
  long stop = 1;
  while (full.times[static_cast<std::size_t>(stop)] < fast) ++stop;
  ASSERT_LT(full.times[static_cast<std::size_t>(stop)], slow);
  const app::IgnitionSweep cut =
      app::find_ignition(solver, m, chem::ReactorKind::constant_pressure, y0, pressures, settings, [&](long done, long) { return done < stop; });
  EXPECT_TRUE(cut.stopped);
  EXPECT_EQ(cut.launches, stop);
  EXPECT_EQ(cut.runs[0].status, "ignited");
  EXPECT_GE(cut.runs[0].delay, full.times[static_cast<std::size_t>(stop) - 1]);
  EXPECT_LE(cut.runs[0].delay, full.times[static_cast<std::size_t>(stop)]);
  EXPECT_NEAR(cut.runs[0].delay, fast, 0.05 * fast);
  EXPECT_EQ(cut.runs[0].reason, "refinement interrupted: the delay comes from a wider bracket");
  EXPECT_EQ(cut.runs[1].status, "interrupted");
  EXPECT_TRUE(std::isnan(cut.runs[1].delay));
}

}  // namespace
