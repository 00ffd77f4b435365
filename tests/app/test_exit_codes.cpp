// The README's table of exit statuses, one test per row: each makes the real `hetflow` executable exit
// with that status, for every kind of error the row lists (the run directory in use by another run, a
// kind of status 1, is tested with the run directory's locking).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>

#include "command_test.hpp"
#include "hetflow/io/pvd.hpp"

namespace {

namespace fs = std::filesystem;
using Result = hetflow::test::CommandResult;

class ExitCodes : public hetflow::test::CommandTest {
 protected:
  Result hetflow(const std::string& args, const std::string& env = "") const { return run_hetflow(args, env); }
  // A short self-test with extra arguments, on the test device unless they name one.
  Result selftest(const std::string& args, const std::string& env = "") const {
    write("selftest.yaml", "type: selftest\nselftest:\n  size: [8, 8, 8]\n  steps: 4\n  bandwidth: false\n");
    const bool device_given = args.find("--device") != std::string::npos;
    return hetflow("run selftest.yaml " + (device_given ? "" : "--device " + device() + " ") + args, env);
  }
  // `result` exited with `status` and says `message`.
  static void expect(const Result& result, int status, const std::string& message, const std::string& what) {
    EXPECT_EQ(result.status, status) << what << ": " << result.output;
    EXPECT_NE(result.output.find(message), std::string::npos) << what << ": " << result.output;
  }
};

TEST_F(ExitCodes, DoneIsZero) {
  const Result r = selftest("-o run");
  expect(r, 0, "results in run", "a complete run");
  EXPECT_EQ(manifest("run")["status"], "complete");
  EXPECT_NE(r.output.find("self-test passed"), std::string::npos) << r.output;
  // Quiet: where the results are, not the headline.
  const Result quiet = selftest("-o quiet -q");
  expect(quiet, 0, "results in quiet", "a quiet run");
  EXPECT_EQ(quiet.output.find("self-test passed"), std::string::npos) << quiet.output;
}

TEST_F(ExitCodes, FailureIsOne) {
  // A self-test mismatch: float arithmetic cannot meet a tolerance of 1e-12.
  expect(selftest("-o mismatch --set selftest.tolerance=1e-12"), 1, "self-test failed", "self-test mismatch");
  EXPECT_EQ(manifest("mismatch")["status"], "failed");
  // A numerical failure: a force that accelerates a periodic box past the lattice's speed limit.
  write("fast.yaml", "type: lbm\nlbm:\n  force: [0.01, 0, 0]\n  steps: 100\ngeometry:\n  kind: box\n"
                     "  size: [4, 4, 4]\noutput:\n  dir: fast\n  every: 10\n  png: false\n  vti: false\n");
  expect(hetflow("run fast.yaml --device " + device()), 1, "exceeds 0.3", "numerical failure");
  // An I/O error: the run directory would be inside a regular file.
  write("file", "not a folder\n");
  expect(selftest("-o file/run"), 1, "output error", "I/O error");
}

TEST_F(ExitCodes, InvalidCaseOrCommandLineIsTwo) {
  write("bad.yaml", "type: selftest\nselftest:\n  steps: 0\noutput:\n  dir: out\n");
  expect(hetflow("run bad.yaml --device " + device()), 2, "bad.yaml:3: selftest.steps = 0", "invalid case");
  expect(hetflow("run missing.yaml"), 2, "missing.yaml", "missing case file");
  expect(selftest("--set selftest.nothing=1"), 2, "unknown key selftest.nothing", "unknown --set key");
  expect(selftest("--set selftest.steps"), 2, "no '='", "--set without '='");
  expect(selftest("--set output.dir="), 2, "output.dir", "empty output.dir");
  expect(selftest("--no-such-flag"), 2, "--no-such-flag", "unknown option");
  expect(selftest("--output ''"), 2, "--output", "empty --output");
  expect(selftest("--device ''"), 2, "--device", "empty --device");
  expect(selftest("--set device.select="), 2, "device.select", "empty device.select");
  // A malformed device selection is the command line's mistake on any machine.
  for (const char* spec : {"cpu:x", "gpu:x", ":0", "cpu,,gpu"})
    expect(selftest("--device '" + std::string(spec) + "'"), 2, "invalid device selection", spec);
  expect(hetflow("devices --device gpu:x"), 2, "invalid device selection", "devices --device gpu:x");
  expect(hetflow("bench nonsense"), 2, "nonsense", "bench nonsense");
  expect(hetflow("tune nonsense"), 2, "nonsense", "tune nonsense");
  expect(hetflow("cases nonsense"), 2, "no case type named 'nonsense'", "cases nonsense");
  expect(hetflow("nonsense"), 2, "A subcommand is required", "no such command");
  EXPECT_FALSE(fs::exists(dir / "out"));
  EXPECT_FALSE(fs::exists(dir / "run"));  // the default run directory: nothing was run
}

TEST_F(ExitCodes, NoPlatformOrDeviceIsThree) {
  // Well-formed selections that no device here matches.
  for (const char* spec : {"cpu:99", "gpu:99", "99", "nonsense", "nonsense:0"})
    expect(selftest("-o out --device '" + std::string(spec) + "'"), 3, "device selection '", spec);
  expect(hetflow("devices --device gpu:99"), 3, "gpu:99", "devices --device gpu:99");
  expect(hetflow("bench probe --device nonsense"), 3, "nonsense", "bench probe --device nonsense");
  EXPECT_FALSE(fs::exists(dir / "out"));
  // No platform at all.
  fs::create_directories(dir / "no-vendors");
  const std::string hidden = "OCL_ICD_VENDORS='" + (dir / "no-vendors").string() + "'";
  const Result r = hetflow("devices", hidden);
  if (r.status == 0 && r.output.find("platform") != std::string::npos) {
    // The ocl-icd loader (Debian, CI) reads only OCL_ICD_VENDORS; the loader of NVIDIA's CUDA image
    // finds its driver regardless, so no platform can be hidden there.
    GTEST_SKIP() << "this OpenCL loader ignores OCL_ICD_VENDORS";
  }
  expect(r, 3, "no OpenCL platform found", "no platform");
  expect(hetflow("run -o x", hidden), 3, "no OpenCL platform found", "run without a platform");
}

TEST_F(ExitCodes, KernelBuildErrorIsFourAndShowsTheBuildLog) {
  const Result r = selftest("-o run --set 'device.build_options=-D REAL=not_a_type'", "HETFLOW_CACHE=off");
  expect(r, 4, "kernel build failed", "build error");
  EXPECT_NE(r.output.find("not_a_type"), std::string::npos) << r.output;
  EXPECT_EQ(manifest("run")["status"], "failed");  // the run directory says what happened
}

TEST_F(ExitCodes, InterruptedIs130AfterTheCurrentStepWithFinalOutputs) {
  // A short run first puts the kernels in the binary cache: a cold build on a loaded machine can outlast
  // the wait below, and an interrupt before the first step rightly leaves zero steps.
  ASSERT_EQ(selftest("-o warm -q").status, 0);
  // Interrupted once the run has started stepping (its manifest says "running").
  EXPECT_EQ(run_interrupted({"selftest.yaml", "-o", "run", "--set", "selftest.steps=100000000", "--set",
                             "output.every=1000000000"},
                            "run/manifest.json", std::chrono::milliseconds(500)),
            130);
  const auto m = manifest("run");
  EXPECT_EQ(m["status"], "interrupted");
  const long steps = m["result"]["steps"];
  EXPECT_GT(steps, 0);
  EXPECT_LT(steps, 100000000);
  EXPECT_EQ(m["result"]["passed"], true);  // the steps done still match the host reference
  const auto entries = hetflow::io::read_pvd(dir / "run" / "field.pvd");
  ASSERT_EQ(entries.size(), 2u);  // the initial field and the final one
  EXPECT_EQ(entries.back().time, static_cast<double>(steps));
}

}  // namespace
