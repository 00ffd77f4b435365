// `hetflow run` with `type: ignition` and `type: reactor_batch`: H2/air delays against Cantera
// (tests/chem/data/h2_ignition_reference.json), the outputs' rows, malformed cases and a failing system
// reported with the integrator's reason.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "command_test.hpp"
#include "run_outputs_check.hpp"

namespace {

namespace fs = std::filesystem;
using Result = hetflow::test::CommandResult;

const fs::path source_root = fs::path(__FILE__).parent_path().parent_path().parent_path();

std::vector<std::string> lines(const fs::path& p) {
  std::ifstream in(p);
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

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
  const auto table = lines(dir / "out/ignition.csv");
  ASSERT_EQ(table.size(), 3u);
  EXPECT_EQ(table[0], "T0_K,p_atm,phi,delay_s,final_T_K,status,reason");
  EXPECT_EQ(table[1].rfind("1000,1,1,", 0), 0u) << table[1];
  const auto series = lines(dir / "out/temperature.csv");
  EXPECT_EQ(series[0], "t_s,T_0,T_1");
  EXPECT_EQ(series.size(), m["result"]["samples"].get<std::size_t>() + 1);
  EXPECT_TRUE(fs::exists(dir / "out/ignition_delay.png"));
  EXPECT_TRUE(fs::exists(dir / "out/temperature.png"));
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
  const auto table = lines(dir / "out/ignition.csv");
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
  });
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
  const auto table = lines(dir / "out/final_states.csv");
  ASSERT_EQ(table.size(), 21u);
  EXPECT_EQ(table[0].rfind("T0_K,p_Pa,T_K,Y_H2,", 0), 0u) << table[0];
}

}  // namespace
