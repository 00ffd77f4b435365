// The `hetflow` command end to end: messages, run directories, benchmarks, traces (exit statuses and
// interruption: test_exit_codes.cpp).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

#include "command_test.hpp"
#include "run_outputs_check.hpp"
#include "hetflow/io/csv.hpp"
#include "hetflow/io/pvd.hpp"
#include "hetflow/io/vtk_reader.hpp"

namespace {

namespace fs = std::filesystem;
using Result = hetflow::test::CommandResult;

class Cli : public hetflow::test::CommandTest {
 protected:
  Result hetflow(const std::string& args, const std::string& env = "") const { return run_hetflow(args, env); }
  // The device self-test, no longer the built-in default case (the FTLE double gyre is: test_ftle_case.cpp).
  std::string selftest() const {
    write("selftest.yaml", "type: selftest\n");
    return "selftest.yaml";
  }
};

TEST_F(Cli, SelftestCaseWritesACompleteRunDirectory) {
  const Result r = hetflow("run " + selftest() + " --device " + device() +
                           " -o run --set selftest.steps=20 --set output.every=10" + hetflow::test::with_hdf5());
  ASSERT_EQ(r.status, 0) << r.output;
  hetflow::test::expect_outputs_are_the_files(dir / "run");
  EXPECT_NE(r.output.find("results in run"), std::string::npos) << r.output;
  const auto m = manifest("run");
  EXPECT_EQ(m["status"], "complete");
  EXPECT_EQ(m["case"]["selftest"]["steps"], 20);
  EXPECT_EQ(m["result"]["passed"], true);
  EXPECT_LE(m["result"]["max_relative_error"].get<double>(), 1e-5);
  // The headline, before where the results are: the error printed is the manifest's, to its 6 digits.
  const std::string headline = "self-test passed after 20 steps: max relative error ";
  const std::size_t at = r.output.find(headline);
  ASSERT_NE(at, std::string::npos) << r.output;
  EXPECT_LT(at, r.output.find("results in run"));
  const double printed = std::stod(r.output.substr(at + headline.size()));
  EXPECT_NEAR(printed, m["result"]["max_relative_error"].get<double>(), 1e-5 * printed);
  EXPECT_NE(r.output.find("; tolerance 1e-05\n"), std::string::npos) << r.output;
  EXPECT_FALSE(m["hetflow"]["commit"].get<std::string>().empty());
  ASSERT_EQ(m["devices"].size(), 1u);

  // The series lists steps 0, 10, 20 and each file parses back to the configured grid.
  const auto entries = hetflow::io::read_pvd(dir / "run" / "field.pvd");
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries.back().time, 20.0);
  const auto image = hetflow::io::read_vti(dir / "run" / entries.back().file);
  EXPECT_EQ(image.dims, (std::array<std::size_t, 3>{48, 40, 32}));
  ASSERT_NE(image.point_array("u"), nullptr);
  EXPECT_EQ(image.point_array("u")->size(), 48u * 40u * 32u);
  const auto csv = hetflow::io::read_csv(dir / "run" / "selftest.csv");
  ASSERT_EQ(csv.rows.size(), 3u);
  // Zero-flux diffusion conserves the total; single precision sums to ~1e-6 relative.
  const std::size_t total = csv.column("total");
  EXPECT_NEAR(csv.rows[2][total] / csv.rows[0][total], 1.0, 1e-5);
  // No temporary file is left behind.
  for (const auto& e : fs::directory_iterator(dir / "run")) {
    EXPECT_EQ(e.path().filename().string().find(".tmp"), std::string::npos) << e.path();
  }
}

// The build reads the commit at every build: --version names the sources' HEAD (and "-dirty" when tracked
// files differ from it), not the commit that was current when the build was configured.
TEST_F(Cli, VersionNamesTheCommitTheSourcesAreAt) {
  const std::string source = "git -C '" + hetflow::test::source_root.string() + "' ";
  const Result git =
      run_shell("(" + source + "rev-parse --short=12 HEAD && (" + source + "diff --quiet HEAD -- || echo dirty))");
  if (git.status != 0 || std::getenv("HETFLOW_COMMIT")) GTEST_SKIP() << "no git checkout, or the commit is given";
  std::string expected = git.output.substr(0, git.output.find('\n'));
  if (git.output.find("dirty") != std::string::npos) expected += "-dirty";
  const Result r = hetflow("--version");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("(" + expected + ")"), std::string::npos) << r.output << " against git: " << git.output;
}

TEST_F(Cli, BadCaseFileIsRejectedBeforeAnythingIsWritten) {
  write("bad.yaml", "type: selftest\nselftest:\n  steps: 0\n  precission: double\noutput:\n  dir: out\n");
  const Result r = hetflow("run bad.yaml");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("bad.yaml:3: selftest.steps = 0"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("bad.yaml:4: unknown key selftest.precission"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("did you mean 'precision'"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "out"));

  EXPECT_EQ(hetflow("run missing.yaml").status, 2);
  EXPECT_EQ(hetflow("run " + selftest() + " --set selftest.nothing=1").status, 2);
  EXPECT_EQ(hetflow("run --no-such-flag").status, 2);
}

TEST_F(Cli, DevicesListsNameAndMemory) {
  const Result r = hetflow("devices --device " + device());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("OpenCL C"), std::string::npos);
  EXPECT_NE(r.output.find("memory"), std::string::npos);
  EXPECT_NE(r.output.find("fp64"), std::string::npos);
}

TEST_F(Cli, BenchOnlyRunsAndWritesTheMatchingCasesApart) {
  const Result r = hetflow("bench probe --device " + device() + " --repeats 1 --only '^triad' -o results");
  ASSERT_EQ(r.status, 0) << r.output;
  std::vector<fs::path> written;
  for (const auto& e : fs::recursive_directory_iterator(dir / "results"))
    if (e.is_regular_file()) written.push_back(e.path());
  ASSERT_EQ(written.size(), 1u) << r.output;  // the subset, never probe.json
  EXPECT_EQ(written[0].filename(), "probe-subset.json");
  std::ifstream in(written[0]);
  const nlohmann::json report = nlohmann::json::parse(in);
  EXPECT_EQ(report["subset"], "^triad");
  ASSERT_FALSE(report["cases"].empty());
  for (const auto& c : report["cases"]) EXPECT_EQ(c["name"].get<std::string>().rfind("triad ", 0), 0u) << c["name"];
}

TEST_F(Cli, BenchOnlyRefusesBadPatternsAndPatternsThatMatchNothing) {
  Result r = hetflow("bench probe --device " + device() + " --repeats 1 --only '(triad' -o results");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--only"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("not a regular expression"), std::string::npos) << r.output;
  r = hetflow("bench probe --device " + device() + " --repeats 1 --only '^nothing' -o results");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("--only '^nothing': no case of probe matches"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "results"));  // nothing written
}

// The trace's device names hold commas.
using hetflow::test::csv_fields;

TEST_F(Cli, TraceWritesEveryCommandsDeviceTimes) {
  const std::string run = "run " + selftest() + " --device " + device() +
                          " -q --set selftest.size=[8,8,8] --set selftest.bandwidth=false";
  const Result r = hetflow(run + " -o run --set selftest.steps=6", "HETFLOW_TRACE=trace.csv");
  ASSERT_EQ(r.status, 0) << r.output;
  std::ifstream in(dir / "trace.csv");
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  EXPECT_EQ(line, "device,queue,command,bytes,queued_us,submitted_us,started_us,ended_us,duration_us,host_us");
  std::size_t steps = 0, reads = 0;
  double first = 1e300, host = 0;
  while (std::getline(in, line)) {
    const std::vector<std::string> f = csv_fields(line);
    ASSERT_EQ(f.size(), 10u) << line;
    EXPECT_GE(std::stod(f[9]), host) << line;  // the host's clock, in the order of the rows
    host = std::stod(f[9]);
    const double queued = std::stod(f[4]), started = std::stod(f[6]), ended = std::stod(f[7]);
    steps += f[2] == "selftest_diffuse";
    if (f[2] == "read") {
      ++reads;
      EXPECT_GT(std::stoul(f[3]), 0u) << line;  // bytes
    }
    EXPECT_LE(queued, started + 1e-3) << line;  // printed to the ns
    EXPECT_LE(started, ended) << line;
    EXPECT_NEAR(std::stod(f[8]), ended - started, 2e-3) << line;
    first = std::min(first, started);
  }
  EXPECT_EQ(steps, 6u);  // one launch per step
  EXPECT_GT(reads, 0u);  // the outputs came back
  EXPECT_EQ(first, 0.0);  // times count from the device's first start
  // Without the variable nothing is written.
  fs::remove(dir / "trace.csv");
  ASSERT_EQ(hetflow(run + " -o again --set selftest.steps=1").status, 0);
  EXPECT_FALSE(fs::exists(dir / "trace.csv"));
}

TEST_F(Cli, TwoDevicesGiveTheSameFieldAsOne) {
  const char* several = std::getenv("HETFLOW_TEST_DEVICES");
  const std::string two = several ? several : "cpu";
  const std::string common = " --set selftest.steps=30 --set output.every=30 --set selftest.bandwidth=false";
  ASSERT_EQ(hetflow("run " + selftest() + " --device " + device() + " -o one" + common).status, 0);
  const Result r = hetflow("run selftest.yaml --device " + two + " -o two" + common);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_GE(manifest("two")["devices"].size(), 2u);
  const auto a = hetflow::io::read_vti(dir / "one" / "field_000030.vti");
  const auto b = hetflow::io::read_vti(dir / "two" / "field_000030.vti");
  ASSERT_EQ(a.point_data.size(), 1u);
  EXPECT_EQ(a.point_data[0].bytes, b.point_data[0].bytes);  // bit-identical: same operations in the same order
}

}  // namespace
