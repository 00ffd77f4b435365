// `hetflow run` with `type: karst` and `type: karst_inversion` on small grids: the outputs, a synthetic
// inversion that recovers St and Theta from the forward case's own outlet, and malformed inputs
// (non-monotone times naming file and line, a negative velocity, a start outside its bounds).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "command_test.hpp"
#include "hetflow/io/csv.hpp"
#include "run_outputs_check.hpp"

namespace {

namespace fs = std::filesystem;
using Result = hetflow::test::CommandResult;

using hetflow::test::file_lines;

// A storm pulse on t* in [0, 3]: velocity up to 2, inlet up to 13 °C over a 10 °C background.
std::string series(const char* header, double (*f)(double)) {
  std::string text = std::string(header) + "\n";
  for (int i = 0; i <= 60; ++i) text += std::to_string(0.05 * i) + "," + std::to_string(f(0.05 * i)) + "\n";
  return text;
}

const std::string grid = "grid:\n  nodes: 30\n  rock_nodes: 10\n  rock_extent: 3\n  initial: 10\n";

std::string forward_case(const std::string& model = "model:\n  st: [12]\n  theta: [3.2]\n  pe: [1960]\n") {
  return "type: karst\nforcing:\n  inlet: inlet.csv\n  velocity: velocity.csv\n" + grid + model +
         "time:\n  dt: 0.01\n  end: 3\noutput:\n  dir: out\n";
}

std::string inversion_case(const std::string& inversion = "") {
  return "type: karst_inversion\nforcing:\n  inlet: inlet.csv\n  velocity: velocity.csv\n" + grid +
         "observed:\n  file: observed.csv\ninversion:\n  max_evaluations: 400\n" + inversion + "output:\n  dir: out\n";
}

class KarstCase : public hetflow::test::CommandTest {
 protected:
  void SetUp() override {
    CommandTest::SetUp();
    write("inlet.csv", series("t,T", [](double t) { return 10 + 3 * std::exp(-std::pow((t - 0.8) / 0.3, 2)); }));
    write("velocity.csv", series("t,v", [](double t) { return 1 + std::exp(-std::pow((t - 0.6) / 0.4, 2)); }));
  }
  Result hetflow(const std::string& args) const { return run_hetflow(args + " --device " + device()); }
};

TEST_F(KarstCase, ForwardRunsWriteOneOutletColumnPerSet) {
  write("storm.yaml", forward_case("model:\n  st: [2, 10, 20]\n"));
  const Result r = hetflow("run storm.yaml");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto table = file_lines(dir / "out/outlet.csv");
  ASSERT_EQ(table.size(), 301u);  // header and 300 steps of 0.01
  EXPECT_EQ(table[0], "t,outlet_0,outlet_1,outlet_2");
  EXPECT_EQ(table[1].rfind("0.01,10,10,10", 0), 0u) << table[1];  // the pulse has not arrived yet
  EXPECT_TRUE(fs::exists(dir / "out/outlet.png"));
  const auto m = manifest("out");
  EXPECT_EQ(m["status"], "complete");
  EXPECT_EQ(m["result"]["runs"], 3);
  EXPECT_EQ(m["result"]["sets"][2]["St"], 20.0);
  EXPECT_EQ(m["result"]["sets"][2]["Pe"], 2000.0);  // broadcast from the default's single entry
  hetflow::test::expect_outputs_are_the_files(dir / "out");
  // The headline names each set by the parameter that differs (St) after those every set shares, and
  // its outlet's peak: the value farthest from the initial 10 and its time, as outlet.csv has them.
  EXPECT_NE(r.output.find("karst: every set has Pe 2000, Theta 4.5, Psi 2.235\n"), std::string::npos) << r.output;
  const auto csv = hetflow::io::read_csv(dir / "out/outlet.csv");
  const std::vector<std::string> st = {"2", "10", "20"};
  for (std::size_t set = 0; set < st.size(); ++set) {
    const std::size_t column = csv.column("outlet_" + std::to_string(set));
    std::size_t peak = 0;
    for (std::size_t k = 0; k < csv.rows.size(); ++k)
      if (std::abs(csv.rows[k][column] - 10) > std::abs(csv.rows[peak][column] - 10)) peak = k;
    const std::string label = "karst: St " + st[set] + ": outlet peak ";
    EXPECT_NEAR(number_after(r.output, label), csv.rows[peak][column], 1e-5 * csv.rows[peak][column]) << r.output;
    EXPECT_GT(csv.rows[peak][column], 10.01);  // the pulse passed
    const std::size_t at = r.output.find(label);
    ASSERT_NE(at, std::string::npos) << r.output;
    EXPECT_NEAR(number_after(r.output.substr(at), " at t* "), csv.rows[peak][csv.column("t")], 1e-9) << r.output;
  }
}

TEST_F(KarstCase, InversionRecoversTheForwardCasesParameters) {
  write("truth.yaml", forward_case());
  ASSERT_EQ(hetflow("run truth.yaml -q").status, 0);
  fs::copy_file(dir / "out/outlet.csv", dir / "observed.csv");  // t, outlet_0: an observed series as it is
  fs::remove_all(dir / "out");
  write("inversion.yaml", inversion_case());
  const Result r = hetflow("run inversion.yaml");
  ASSERT_EQ(r.status, 0) << r.output;
  std::ifstream in(dir / "out/inversion.json");
  const auto s = nlohmann::json::parse(in);
  // Noise-free data: St and Theta to 1e-5 (Pe barely shapes this outlet, see tests/karst/test_inversion.cpp).
  EXPECT_NEAR(s["parameters"]["St"].get<double>(), 12, 12e-5) << s.dump(2);
  EXPECT_NEAR(s["parameters"]["Theta"].get<double>(), 3.2, 3.2e-5) << s.dump(2);
  EXPECT_LT(s["rms"].get<double>(), 1e-5);
  EXPECT_EQ(s["method"], "nlcg");
  EXPECT_TRUE(s["failures"].empty());
  const auto fit = file_lines(dir / "out/fit.csv");
  ASSERT_EQ(fit.size(), 301u);
  EXPECT_EQ(fit[0], "t,observed,fit,residual");
  EXPECT_TRUE(fs::exists(dir / "out/fit.png"));
  // The log: a header, then one line per candidate the method evaluated.
  EXPECT_EQ(file_lines(dir / "out/inversion_log.jsonl").size(), s["evaluations"].get<std::size_t>() + 1);
  EXPECT_EQ(manifest("out")["status"], "complete");
  hetflow::test::expect_outputs_are_the_files(dir / "out");
  // The headline: the fitted parameters (6 digits) and the misfit.
  const std::size_t at = r.output.find("karst_inversion: Pe ");
  ASSERT_NE(at, std::string::npos) << r.output;
  const std::string headline = r.output.substr(at, r.output.find('\n', at) - at);
  EXPECT_NEAR(number_after(headline, ", St "), 12, 12e-5) << headline;
  EXPECT_NEAR(number_after(headline, ", Theta "), 3.2, 3.2e-5) << headline;
  EXPECT_NEAR(number_after(headline, "; RMS "), s["rms"].get<double>(), 1e-3 * s["rms"].get<double>()) << headline;
}

// Ctrl-C during 20000 forward runs: the run stops after the batch it is in (batches are sized to take a
// fraction of a second), writes the outlets of the sets done and exits 130 with status interrupted. The
// grid is fine enough that a GPU, too, is still running when the signal comes.
TEST_F(KarstCase, SigintStopsForwardRunsAfterTheCurrentBatch) {
  std::string st = "model:\n  st: [";
  for (int i = 0; i < 20000; ++i) st += (i ? ", " : "") + std::to_string(1 + i % 20);
  std::string text = forward_case(st + "]\n");
  const std::string coarse = "nodes: 30\n  rock_nodes: 10\n";
  text.replace(text.find(coarse), coarse.size(), "nodes: 400\n  rock_nodes: 40\n");
  write("many.yaml", text);
  // A short run first puts the kernel in the binary cache, so that the interrupt comes while running.
  ASSERT_EQ(hetflow("run many.yaml -q --set model.st=[1] -o warm").status, 0);
  EXPECT_EQ(run_interrupted({"many.yaml"}, "out/manifest.json", std::chrono::milliseconds(700)), 130);
  const auto m = manifest("out");
  EXPECT_EQ(m["status"], "interrupted");
  const std::size_t runs = m["result"]["runs"].get<std::size_t>();
  EXPECT_GT(runs, 0u);
  EXPECT_LT(runs, 20000u);
  const auto table = file_lines(dir / "out/outlet.csv");
  ASSERT_EQ(table.size(), 301u);
  EXPECT_EQ(static_cast<std::size_t>(std::count(table[0].begin(), table[0].end(), ',')), runs);
}

// Ctrl-C during an inversion with a large budget: the method stops after the batch of forward runs it is
// in, writes the best point so far (inversion.json, fit.csv) and exits 130 with status interrupted.
TEST_F(KarstCase, SigintStopsAnInversionAndWritesTheBestSoFar) {
  write("truth.yaml", forward_case());
  ASSERT_EQ(hetflow("run truth.yaml -q").status, 0);
  fs::copy_file(dir / "out/outlet.csv", dir / "observed.csv");
  fs::remove_all(dir / "out");
  write("slow.yaml", inversion_case("  start: [1950, 2, 1]\n"));
  EXPECT_EQ(run_interrupted({"slow.yaml", "--set", "inversion.max_evaluations=1000000", "--set", "grid.nodes=400",
                             "--set", "grid.rock_nodes=40", "--set", "observed.substeps=8"},
                            "out/inversion_log.jsonl", std::chrono::milliseconds(500)),
            130);
  const auto m = manifest("out");
  EXPECT_EQ(m["status"], "interrupted");
  EXPECT_EQ(m["result"]["stop_reason"], "interrupted by a signal");
  std::ifstream in(dir / "out/inversion.json");
  EXPECT_EQ(nlohmann::json::parse(in)["stop_reason"], "interrupted by a signal");
  EXPECT_EQ(file_lines(dir / "out/fit.csv").size(), 301u);
}

TEST_F(KarstCase, BadInputsAreRejectedWithFileAndLine) {
  write("backwards.csv", "t,v\n0,1\n0.5,1\n\n0.5,1.2\n4,1\n");
  write("negative.csv", "t,v\n0,1\n1,-0.5\n4,1\n");
  write("observed.csv", "t,T\n0.5,10\n1,10.5\n");
  expect_rejected({
      {"backwards",
       "type: karst\nforcing:\n  inlet: inlet.csv\n  velocity: backwards.csv\noutput:\n  dir: out\n",
       "backwards.csv:5: t = 0.5 is not after t = 0.5 on line 3: times must increase strictly"},
      {"negative", "type: karst\nforcing:\n  inlet: inlet.csv\n  velocity: negative.csv\noutput:\n  dir: out\n",
       "negative.csv:3: v = -0.5 is not > 0"},
      {"start", inversion_case("  start: [2000, 10, 7]\n"),
       "start.yaml:14: karst inversion: start Theta = 7 is outside its bounds [0.1, 6]"},
      {"sizes", forward_case("model:\n  st: [1, 2]\n  theta: [1, 2, 3]\n"),
       "sizes.yaml:11: model.st has 2 entries: expected 1 or 3 (one per parameter set)"},
  });
}

}  // namespace
