#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>

#include "command_test.hpp"

// `mpiexec -n 2 hetflow run`: a plain test program (not an MPI one) that starts mpiexec itself, as a
// user would, and compares with one process.
namespace hetflow::test {
namespace {

// The double gyre on a small grid, with every collective read the case makes: field, flow map,
// stretch direction, pathlines, stopped tracers.
constexpr const char* gyre_case = R"(type: ftle
ftle:
  dt: 0.2
seeds:
  counts: [101, 51]
output:
  flow_map: true
  eigenvector: true
  pathlines:
    every: 25
    stride: [10, 10]
)";

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// `mpiexec` with one program per entry of `ranks` (the arguments of `hetflow` on that rank), each on
// one rank and each with the launcher flags CTest's other MPI test uses (Open MPI applies -x only to
// the program it precedes: on the GPU machine the second rank lost the GPU without its own).
std::string mpiexec(const std::vector<std::string>& ranks) {
  std::string line = HETFLOW_MPIEXEC;
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    line += std::string(r ? " :" : "") + " " + HETFLOW_MPIEXEC_NUMPROC_FLAG + " 1 " + HETFLOW_MPIEXEC_PREFLAGS + " " +
            quoted(HETFLOW_EXE) + " " + ranks[r];
  }
  return line;
}

std::string bytes(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class HetflowRunMpi : public CommandTest {
 protected:
  // Runs `case_file` on one process into one/ and on two ranks into two/: the two-rank run's result.
  CommandResult one_and_two(const std::string& case_file) {
    const std::string args = "run " + case_file + " --device " + device() + " -q -o ";
    const CommandResult one = run_hetflow(args + "one");
    EXPECT_EQ(one.status, 0) << one.output;
    const CommandResult two = run_shell(mpiexec({args + "two", args + "two"}));
    EXPECT_EQ(two.status, 0) << two.output;
    return two;
  }
};

TEST_F(HetflowRunMpi, FtleOnTwoRanksWritesTheOneProcessFieldBitForBit) {
  write("gyre.yaml", gyre_case);
  const CommandResult two = one_and_two("gyre.yaml");
  ASSERT_FALSE(HasFailure());

  for (const char* file : {"ftle.vti", "pathlines.vtp"}) {
    ASSERT_TRUE(std::filesystem::exists(dir / "two" / file)) << file;
    EXPECT_EQ(bytes(dir / "two" / file), bytes(dir / "one" / file)) << file;
  }
  const nlohmann::json m = manifest("two");
  EXPECT_EQ(m["status"], "complete");
  EXPECT_EQ(m["processes"]["count"], 2);
  ASSERT_EQ(m["processes"]["ranks"].size(), 2u);
  for (const nlohmann::json& rank : m["processes"]["ranks"]) EXPECT_EQ(rank["devices"].size(), 1u);
  EXPECT_EQ(manifest("one")["processes"]["count"], 1);
  EXPECT_EQ(m["result"]["mean_ftle"], manifest("one")["result"]["mean_ftle"]);
  EXPECT_EQ(m["result"]["stopped_tracers"], manifest("one")["result"]["stopped_tracers"]);
  // Rank 0 alone prints where the results are.
  EXPECT_EQ(two.output, "results in two\n");
}

// Flow past a cylinder, z-slabs over the two ranks with halos sent between them.
TEST_F(HetflowRunMpi, LbmOnTwoRanksWritesTheOneProcessFieldsBitForBit) {
  write("cylinder.yaml",
        "type: lbm\nlbm:\n  force: [1e-5, 0, 0]\n  steps: 200\ngeometry:\n  kind: cylinder\n"
        "  size: [48, 24, 12]\noutput:\n  every: 100\n");
  one_and_two("cylinder.yaml");
  ASSERT_FALSE(HasFailure());
  for (const char* file : {"fields_000100.vti", "fields_000200.vti", "lbm.csv"}) {
    ASSERT_TRUE(std::filesystem::exists(dir / "two" / file)) << file;
    EXPECT_EQ(bytes(dir / "two" / file), bytes(dir / "one" / file)) << file;
  }
  EXPECT_EQ(manifest("two")["status"], "complete");
  EXPECT_EQ(manifest("two")["processes"]["count"], 2);
  EXPECT_EQ(manifest("two")["result"]["mass_drift"], manifest("one")["result"]["mass_drift"]);
}

// The karst inversion with each batch of forward runs split over the two ranks: the same candidates in
// the same order as one process, so the same log and parameters; rank 0 alone writes them.
TEST_F(HetflowRunMpi, KarstInversionOnTwoRanksTakesTheOneProcessSteps) {
  std::string inlet = "t,T\n", velocity = "t,v\n";
  for (int i = 0; i <= 30; ++i) {
    const double t = 0.1 * i;
    inlet += std::to_string(t) + "," + std::to_string(10 + 3 * std::exp(-std::pow((t - 0.8) / 0.3, 2))) + "\n";
    velocity += std::to_string(t) + "," + std::to_string(1 + std::exp(-std::pow((t - 0.6) / 0.4, 2))) + "\n";
  }
  write("inlet.csv", inlet);
  write("velocity.csv", velocity);
  const std::string common =
      "forcing:\n  inlet: inlet.csv\n  velocity: velocity.csv\ngrid:\n  nodes: 30\n"
      "  rock_nodes: 10\n  rock_extent: 3\n  initial: 10\n";
  write("truth.yaml", "type: karst\n" + common +
                          "model:\n  st: [12]\n  theta: [3.2]\n  pe: [1960]\n"
                          "time:\n  dt: 0.01\n  end: 3\noutput:\n  png: false\n");
  ASSERT_EQ(run_hetflow("run truth.yaml -q --device " + device() + " -o truth").status, 0);
  std::filesystem::copy_file(dir / "truth/outlet.csv", dir / "observed.csv");
  write("inversion.yaml", "type: karst_inversion\n" + common +
                              "observed:\n  file: observed.csv\ninversion:\n  max_evaluations: 80\n"
                              "output:\n  png: false\n");
  one_and_two("inversion.yaml");
  ASSERT_FALSE(HasFailure());
  EXPECT_EQ(bytes(dir / "two/inversion_log.jsonl"), bytes(dir / "one/inversion_log.jsonl"));
  const nlohmann::json a = manifest("one")["result"], b = manifest("two")["result"];
  EXPECT_EQ(b["parameters"], a["parameters"]);
  EXPECT_EQ(b["evaluations"], a["evaluations"]);
  EXPECT_EQ(b["forward_runs"], a["forward_runs"]);  // summed over the ranks
  EXPECT_EQ(manifest("two")["processes"]["count"], 2);
  EXPECT_GT(a["evaluations"].get<int>(), 20);  // several batches of candidates to split
}

// SIGINT to rank 1 alone: the ranks agree after every chunk, so rank 0 stops after the same chunk,
// writes the outputs and both exit 130 (mpiexec passes that on; SIGINT to mpiexec itself reaches every
// rank too, but mpiexec then exits 1 whatever they return). dt = 1e-6 makes 15 million steps, more
// than any device finishes before the signal (a fast GPU takes dt = 0.01 within a second).
TEST_F(HetflowRunMpi, InterruptingOneRankStopsEveryRank) {
  write("gyre.yaml", "type: ftle\nftle:\n  dt: 0.000001\n");
  const std::string args = "run gyre.yaml --device " + device() + " -q -o stopped";
  const std::string line = "exec " + mpiexec({args, args});
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    if (chdir(dir.c_str()) != 0) _exit(99);
    execl("/bin/sh", "sh", "-c", line.c_str(), static_cast<char*>(nullptr));
    _exit(98);
  }
  // Rank 0 writes the manifest once every rank has its case and devices.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!std::filesystem::exists(dir / "stopped" / "manifest.json") && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::this_thread::sleep_for(std::chrono::seconds(1));
  // mpiexec starts the ranks of one host as its own children, in rank order.
  std::ifstream children("/proc/" + std::to_string(pid) + "/task/" + std::to_string(pid) + "/children");
  std::vector<pid_t> ranks{std::istream_iterator<pid_t>(children), std::istream_iterator<pid_t>()};
  if (ranks.size() != 2) kill(pid, SIGKILL);
  ASSERT_EQ(ranks.size(), 2u) << "mpiexec's children";
  kill(ranks[1], SIGINT);
  int raw = 0;
  ASSERT_EQ(waitpid(pid, &raw, 0), pid);
  ASSERT_TRUE(WIFEXITED(raw));
  EXPECT_EQ(WEXITSTATUS(raw), 130);
  const nlohmann::json m = manifest("stopped");
  EXPECT_EQ(m["status"], "interrupted");
  EXPECT_GT(m["result"]["steps"].get<long>(), 0);
  EXPECT_LT(m["result"]["steps"].get<long>(), 15000000);
  EXPECT_TRUE(std::filesystem::exists(dir / "stopped" / "ftle.vti"));
}

// Rank 1 cannot select its device: every rank stops before anything is written, with a non-zero status,
// and rank 0 says which rank failed and why.
TEST_F(HetflowRunMpi, AFailureOnOneRankFailsEveryRank) {
  const std::string args = "run -q -o failed --device ";
  const CommandResult r = run_shell(mpiexec({args + device(), args + "cpu:99"}));
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("rank 0: error: rank 1 failed"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("rank 1: no such OpenCL device: device selection 'cpu:99'"), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "failed"));
}

// The lid-driven cube of 8³ cells (above the AMG's coarse size, so both runs build the same hierarchy) split
// over two ranks, one device each, against one process: the same steps and CG iterations, the kinetic
// energy to rounding, and rank 0's files.
TEST_F(HetflowRunMpi, IncompressibleOnTwoRanksTakesTheOneProcessSteps) {
  write("cavity.yaml", R"(type: incompressible
mesh:
  cells: [8, 8, 8]
fluid:
  viscosity: 0.05
boundary:
  y_max: {type: velocity, value: [1, 0, 0]}
  x_min: {type: no_slip}
  x_max: {type: no_slip}
  y_min: {type: no_slip}
  z_min: {type: no_slip}
  z_max: {type: no_slip}
time:
  end: 0.05
output:
  every: 1000
  png: false
)");
  one_and_two("cavity.yaml");
  ASSERT_FALSE(HasFailure());
  const nlohmann::json one = manifest("one")["result"], two = manifest("two")["result"];
  EXPECT_EQ(manifest("two")["processes"]["count"], 2);
  EXPECT_EQ(two["steps"], one["steps"]);
  EXPECT_EQ(two["cg_iterations_per_step"], one["cg_iterations_per_step"]);
  const double kinetic = one["kinetic_energy"].get<double>();
  EXPECT_GT(kinetic, 1e-3);
  EXPECT_NEAR(two["kinetic_energy"].get<double>(), kinetic, 1e-12 * kinetic);
  for (const char* file : {"log.csv", "checkpoint.bin", "fields.pvd"})
    EXPECT_TRUE(std::filesystem::exists(dir / "two" / file)) << file;
}

// The Sod example, shrunk to 4 roots of 8 x 8 cells up to level 1 and adapting, with its leaves split over
// two ranks, one device each: the one-process checkpoint bit for bit, the same steps, and rank 0's files.
TEST_F(HetflowRunMpi, CompressibleOnTwoRanksEndsInTheOneProcessStateBitForBit) {
  const std::string sod = std::filesystem::absolute(source_root / "examples" / "compressible_sod.yaml").string() +
                          " --set domain.block_size=8 --set domain.max_level=1 --set output.png=false";
  one_and_two(sod);
  ASSERT_FALSE(HasFailure());
  EXPECT_EQ(manifest("two")["processes"]["count"], 2);
  EXPECT_EQ(manifest("two")["result"]["steps"], manifest("one")["result"]["steps"]);
  EXPECT_EQ(manifest("two")["result"]["leaves"], manifest("one")["result"]["leaves"]);
  ASSERT_TRUE(std::filesystem::exists(dir / "two" / "checkpoint.bin"));
  EXPECT_TRUE(bytes(dir / "two" / "checkpoint.bin") == bytes(dir / "one" / "checkpoint.bin"));
  for (const char* file : {"series.csv", "fields.pvd"})
    EXPECT_TRUE(std::filesystem::exists(dir / "two" / file)) << file;
}

TEST_F(HetflowRunMpi, ACaseTypeOfOneProcessRefusesToRunOnSeveralRanks) {
  write("selftest.yaml", "type: selftest\n");
  const std::string args = "run selftest.yaml -q -o selftest --device " + device();
  const CommandResult r = run_shell(mpiexec({args, args}));
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("a selftest case runs on one process: start it without mpiexec"), std::string::npos)
      << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "selftest"));
}

TEST_F(HetflowRunMpi, AnFtleSequenceRefusesToRunOnSeveralRanks) {
  const std::string args = "run -q -o sequence --set sequence.count=3 --device " + device();
  const CommandResult r = run_shell(mpiexec({args, args}));
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("under MPI is not supported yet"), std::string::npos) << r.output;
  EXPECT_EQ(manifest("sequence")["status"], "failed");
}

}  // namespace
}  // namespace hetflow::test
