// Tuning on the test device: the core probe kernels through the library, and `hetflow tune lbm`
// through the executable on a tiny lattice, whose database entry a following `hetflow run` takes up.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "../app/command_test.hpp"
#include "hetflow/tune/probe_tunable.hpp"
#include "test_devices.hpp"

namespace hetflow::tune {
namespace {

TEST(ProbeTuning, EveryWorkGroupOfTheProbeKernels) {
  const core::DeviceSet devices = test::test_device();
  // Small arrays and few repeats: this checks the plumbing, not the device.
  const Tunable t = probe_tunable(devices.compute(0), {.warmup = 1, .repeats = 2}, std::size_t{4} << 20);
  EXPECT_EQ(t.space.dimensions().size(), 3u);
  EXPECT_EQ(t.space.dimensions()[0].values.front(), "32");
  const TuneResult r = tune(t.space, t.seconds, t.defaults, {});
  EXPECT_EQ(r.search, Search::exhaustive);
  EXPECT_EQ(r.trials.size(), r.space_size);
  for (const Trial& trial : r.trials) EXPECT_TRUE(trial.failure.empty()) << trial.failure;
  EXPECT_GT(r.best_seconds, 0.0);
  EXPECT_LE(r.best_seconds, r.mean_seconds);
  EXPECT_LE(r.mean_seconds, r.worst_seconds);
  const Entry e = entry_of(t, r);
  EXPECT_EQ(e.evaluations, r.space_size);
  EXPECT_EQ(e.best, r.best);
}

// An entry `hetflow tune probe` would store: the probe measures with its work-groups, and not with
// HETFLOW_NO_TUNE, nor from values that are not sizes.
TEST(ProbeTuning, TheProbeReadsItsEntryBack) {
  const core::DeviceSet devices = test::test_device();
  const core::DeviceInfo& info = devices.device(0).info;
  const std::filesystem::path path = std::filesystem::temp_directory_path() / ("probe-db-" + std::to_string(::getpid()) + ".json");
  const Database db(path);
  Entry entry;
  entry.best = {{"copy_work_group", "32"}, {"triad_work_group", "64"}, {"fma_work_group", "128"}};
  db.store(probe_key(info), entry);

  core::ProbeOptions options;
  options.bytes_per_array = std::size_t{1} << 20;
  options.repeats = 1;
  core::FlopOptions flops;
  apply_probe_tuning(info, db, options, &flops);
  EXPECT_EQ(options.copy_work_group, 32u);
  EXPECT_EQ(options.triad_work_group, 64u);
  EXPECT_EQ(flops.work_group, 128u);
  const core::Bandwidth bw = core::measure_bandwidth(devices.compute(0), options);
  EXPECT_EQ(bw.copy_work_group, 32u);
  EXPECT_EQ(bw.triad_work_group, 64u);
  EXPECT_GT(bw.copy.median, 0.0);

  core::ProbeOptions untouched;
  ::setenv("HETFLOW_NO_TUNE", "1", 1);
  apply_probe_tuning(info, db, untouched);
  ::unsetenv("HETFLOW_NO_TUNE");
  EXPECT_EQ(untouched.copy_work_group, 0u);
  entry.best["copy_work_group"] = "many";
  db.store(probe_key(info), entry);
  apply_probe_tuning(info, db, untouched);
  EXPECT_EQ(untouched.copy_work_group, 0u);  // not a size: the default stays
  EXPECT_EQ(untouched.triad_work_group, 64u);
  std::filesystem::remove(path);
}

class TuneCommand : public test::CommandTest {
 protected:
  std::filesystem::path db_path() const { return dir / "tuning.json"; }
  // The environment that points hetflow at this test's own tuning database.
  std::string tuning_env() const { return "HETFLOW_TUNING_DB='" + db_path().string() + "'"; }
  nlohmann::json database() const {
    std::ifstream in(db_path());
    return nlohmann::json::parse(in);
  }
  // Whether the test device's compiler takes a register budget (core::takes_register_budget: NVIDIA's
  // platform), as `hetflow devices` lists it. This process must not touch OpenCL itself: on the GPU
  // machine, once it had so much as listed the NVIDIA platform, the hetflow runs it started found no GPU.
  bool takes_budget() const {
    const test::CommandResult r = run_hetflow("devices --device " + device());
    EXPECT_EQ(r.status, 0) << r.output;
    return r.output.find("platform      NVIDIA") != std::string::npos;
  }
  // The machine's GPUs and other devices, as `hetflow devices` lists them (this process must not open
  // OpenCL, as above).
  std::pair<int, int> device_kinds() const {
    const test::CommandResult listed = run_hetflow("devices --device all");
    EXPECT_EQ(listed.status, 0) << listed.output;
    int gpus = 0, others = 0;
    for (std::size_t at = listed.output.find("\n    type "); at != std::string::npos;
         at = listed.output.find("\n    type ", at + 1)) {
      (listed.output.compare(listed.output.find_first_not_of(' ', at + 10), 3, "GPU") == 0 ? gpus : others) += 1;
    }
    return {gpus, others};
  }
  // The chosen count of `kind` ("gpus", "cpus") in a device choice's entry.
  static int chosen(const nlohmann::json& entry, const char* kind) {
    return std::stoi(entry.at("best").at(kind).get<std::string>());
  }
  // The entry's best setting replaced by a given device choice.
  void choose(const std::string& gpus, const std::string& cpus, const std::string& weight) const {
    nlohmann::json db = database();
    db["entries"][0]["best"] = {{"gpus", gpus}, {"cpus", cpus}, {"cpu_weight", weight}};
    std::ofstream(db_path()) << db.dump(2);
  }
  // `hetflow run YAML --device tuned` against this test's database; its manifest.
  nlohmann::json run_tuned(const std::string& yaml, const std::string& folder, const std::string& env = "") const {
    const test::CommandResult run = run_hetflow("run " + yaml + " --device tuned -o " + folder + " -q",
                                                tuning_env() + " " + env);
    EXPECT_EQ(run.status, 0) << run.output;
    return manifest(folder);
  }
  // A run of `yaml` on one GPU and one CPU at a quarter of the GPU's share completes with those shares.
  void expect_mixed_run(const std::string& yaml) const {
    choose("1", "1", "0.25");
    const nlohmann::json m = run_tuned(yaml, "mixed");
    EXPECT_EQ(m.at("devices").size(), 2u);
    EXPECT_EQ(m.at("status"), "complete");
    std::vector<double> weights = m.at("device_choice").at("weights");
    std::sort(weights.begin(), weights.end());
    EXPECT_EQ(weights, (std::vector<double>{0.25, 1.0}));
  }
  // The one entry of this test's database (each test tunes once).
  nlohmann::json only_entry() const {
    const nlohmann::json db = database();
    EXPECT_EQ(db.at("entries").size(), 1u);
    return db.at("entries").at(0);
  }
  // `hetflow run ARGS` against this test's database, output in `folder`; its manifest's "tuning".
  nlohmann::json run_tuning(const std::string& args, const std::string& folder, const std::string& env = "") const {
    const test::CommandResult r = run_hetflow("run " + args + " -o " + folder + " -q", tuning_env() + " " + env);
    EXPECT_EQ(r.status, 0) << r.output;
    return manifest(folder).at("tuning");
  }
  // The run took each of the whole-number `keys` (numbers in the manifest, text in the entry) from the
  // entry's best setting.
  static void expect_taken(const nlohmann::json& tuning, const nlohmann::json& entry,
                           std::initializer_list<const char*> keys) {
    for (const char* key : keys)
      EXPECT_EQ(std::to_string(tuning.at(key).get<long>()), entry.at("best").at(key).get<std::string>()) << key << ": " << tuning;
  }
};

TEST_F(TuneCommand, LbmWritesAnEntryThatARunTakesUp) {
  const std::string env = tuning_env();
  test::CommandResult r = run_hetflow("tune lbm --device " + device() + " --size 12 --repeats 2", env);
  ASSERT_EQ(r.status, 0) << r.output;
  // Work-groups 32 ... 512 along x times 1, 2 or 4 along y, at most 512 work-items (12 shapes), x 3 patterns,
  // x 6 register budgets where the compiler takes one (tune_command.cpp).
  const int settings = 36 * (takes_budget() ? 6 : 1);
  const std::string evaluated = std::to_string(settings) + " of " + std::to_string(settings) + " settings evaluated";
  EXPECT_NE(r.output.find(evaluated), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("best/mean "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("best/worst "), std::string::npos) << r.output;

  const nlohmann::json e = only_entry();
  EXPECT_EQ(e.at("key").at("tunable"), "lbm");
  EXPECT_EQ(e.at("key").at("problem_class"), "fp32 single-phase");
  EXPECT_EQ(e.at("key").at("source_hash").get<std::string>().size(), 64u);
  EXPECT_EQ(e.at("evaluations"), settings);
  EXPECT_EQ(e.at("unit"), "MLUPs/s");
  EXPECT_GT(e.at("best_rate").get<double>(), 0.0);
  EXPECT_LE(e.at("best_seconds").get<double>(), e.at("mean_seconds").get<double>());
  EXPECT_LE(e.at("mean_seconds").get<double>(), e.at("worst_seconds").get<double>());

  // The LBM case takes the tuned work-group and pattern when it leaves them open, and not with
  // HETFLOW_NO_TUNE.
  write("duct.yaml", "type: lbm\nlbm:\n  steps: 4\ngeometry:\n  kind: duct\n  size: [8, 8, 4]\n");
  const nlohmann::json tuning = run_tuning("duct.yaml --device " + device(), "tuned");
  expect_taken(tuning, e, {"work_group", "work_group_y"});
  EXPECT_EQ(tuning.at("pattern"), e.at("best").at("pattern")) << tuning;
  // Written as the template prints them, with their defaults, the tuned keys stay open.
  write("printed.yaml", "type: lbm\nlbm:\n  steps: 4\n  pattern: aa\n  work_group: 0\n  work_group_y: 0\n"
                        "  max_registers: 0\n  device_grid: [0, 0, 0]\ngeometry:\n  kind: duct\n  size: [8, 8, 4]\n");
  EXPECT_EQ(run_tuning("printed.yaml --device " + device(), "printed"), tuning);
  EXPECT_EQ(run_tuning("duct.yaml --device " + device(), "untuned", "HETFLOW_NO_TUNE=1"), "disabled (HETFLOW_NO_TUNE)");
  EXPECT_EQ(run_tuning("duct.yaml --no-tune --device " + device(), "no-tune"), "disabled (HETFLOW_NO_TUNE)");
}

// On several devices the device grid is tuned too (every split of the lattice, no Lagrangian pattern),
// under a class of its own; a run on as many devices takes the grid, one on a single device does not.
TEST_F(TuneCommand, LbmTunesTheDeviceGridOnSeveralDevices) {
  const std::string several = several_devices();
  const std::string env = tuning_env();
  test::CommandResult r = run_hetflow("tune lbm --device " + several + " --size 12 --repeats 1", env);
  if (r.status == 1 && r.output.find("a device grid is tuned on devices of one model") != std::string::npos)
    GTEST_SKIP() << several << " selects devices of different models";  // the GPU machine's GPU and CPU
  ASSERT_EQ(r.status, 0) << r.output;
  const nlohmann::json e = only_entry();
  const std::string problem = e.at("key").at("problem_class");
  if (problem == "fp32 single-phase") GTEST_SKIP() << several << " selects one device";
  ASSERT_EQ(problem.rfind("fp32 single-phase, ", 0), 0u) << problem;  // "..., 2 devices"
  const int count = std::stoi(problem.substr(19));
  int grids = 0;  // boxes along x, y and z whose product is the device count (2 devices: 3 grids)
  for (int x = 1; x <= count; ++x)
    for (int y = 1; y <= count; ++y) grids += count % (x * y) == 0 ? 1 : 0;
  // 12 work-group shapes, A-A and A-B, and 6 register budgets where the compiler takes one.
  EXPECT_EQ(e.at("evaluations"), 12 * 2 * grids * (takes_budget() ? 6 : 1)) << problem;
  EXPECT_NE(e.at("best").at("pattern"), "lagrangian");
  EXPECT_EQ(e.at("best").at("device_grid").get<std::string>().size(), 5u);

  write("duct.yaml", "type: lbm\nlbm:\n  steps: 4\ngeometry:\n  kind: duct\n  size: [8, 8, 8]\n");
  EXPECT_EQ(run_tuning("duct.yaml --device " + several, "split").at("device_grid"), e.at("best").at("device_grid"));
  EXPECT_EQ(run_tuning("duct.yaml --device " + device(), "one").get<std::string>().rfind("none: nothing tuned", 0), 0u);
}

// `hetflow tune lbm-devices` measures every choice of all devices (how many GPUs, how many CPUs, the
// CPUs' share where both run) and stores the best for the whole machine; `device.select: tuned` runs on
// the devices and shares the entry names, falls back to auto without one, and only lbm and ftle cases
// take it.
TEST_F(TuneCommand, LbmDevicesChoosesAmongAllDevicesAndARunTakesTheChoice) {
  const auto [gpus, others] = device_kinds();
  ASSERT_GE(gpus + others, 1);
  const std::string env = tuning_env();
  test::CommandResult r = run_hetflow("tune lbm-devices --size 8 --repeats 1", env);
  ASSERT_EQ(r.status, 0) << r.output;
  // Each kind alone at every count, and both together at every pair of counts with 9 CPU shares.
  const int settings = gpus + others + 9 * gpus * others;
  EXPECT_NE(r.output.find(std::to_string(settings) + " of " + std::to_string(settings) + " settings evaluated"),
            std::string::npos)
      << r.output;
  const nlohmann::json e = only_entry();
  EXPECT_EQ(e.at("key").at("tunable"), "lbm-devices");
  EXPECT_EQ(e.at("key").at("problem_class"), "fp32 single-phase");
  EXPECT_LE(chosen(e, "gpus"), gpus);
  EXPECT_LE(chosen(e, "cpus"), others);

  // A run takes the best choice: as many devices, and the record says which.
  write("duct.yaml", "type: lbm\nlbm:\n  steps: 4\ngeometry:\n  kind: duct\n  size: [8, 8, 8]\n");
  nlohmann::json m = run_tuned("duct.yaml", "best");
  EXPECT_EQ(static_cast<int>(m.at("devices").size()), chosen(e, "gpus") + chosen(e, "cpus")) << m.at("device_choice");
  EXPECT_EQ(m.at("device_choice").at("gpus"), chosen(e, "gpus"));
  EXPECT_EQ(m.at("device_choice").at("cpus"), chosen(e, "cpus"));
  // Given choices: every CPU; and where there are both kinds, one of each with the CPU at a quarter share.
  if (others > 0) {
    choose("0", std::to_string(others), "1");
    m = run_tuned("duct.yaml", "cpus");
    EXPECT_EQ(static_cast<int>(m.at("devices").size()), others);
    EXPECT_EQ(m.at("device_choice").at("weights"), nlohmann::json::array());
  }
  if (gpus > 0 && others > 0) expect_mixed_run("duct.yaml");
  // No entry to take: auto, and the record says why.
  EXPECT_EQ(run_tuned("duct.yaml", "disabled", "HETFLOW_NO_TUNE=1").at("device_choice"), "disabled (HETFLOW_NO_TUNE)");
  choose("0", "99", "1");
  const std::string misfit = run_tuned("duct.yaml", "misfit").at("device_choice");
  EXPECT_EQ(misfit.rfind("none: the entry does not fit this machine's devices: a device choice of '99' cpus", 0), 0u)
      << misfit;
  // A case type without a device choice refuses `tuned` before it opens a device, at the key.
  write("inlet.csv", "t,T\n0,10\n1,12\n");
  write("velocity.csv", "t,v\n0,1\n1,1\n");
  write("storm.yaml", "type: karst\ndevice:\n  select: tuned\nforcing:\n  inlet: inlet.csv\n  velocity: velocity.csv\n"
                      "grid:\n  nodes: 20\n  rock_nodes: 5\n  rock_extent: 3\n  initial: 10\ntime:\n  dt: 0.01\n  end: 0.2\n");
  r = run_hetflow("run storm.yaml -o storm -q", env);
  EXPECT_NE(r.status, 0) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "storm")) << "a refused case leaves no run directory";
  EXPECT_NE(r.output.find("storm.yaml:3: device.select: tuned: a karst case has no device choice to take"),
            std::string::npos)
      << r.output;
}

// `hetflow tune ftle-devices` does the same for the FTLE, per precision; an ftle case of that precision
// takes the choice, and where a GPU and a CPU mix, their shares of the seed planes.
TEST_F(TuneCommand, FtleDevicesWritesAChoiceThatARunTakes) {
  test::CommandResult r = run_hetflow("tune ftle-devices --storage fp32 --size 32 --repeats 1", tuning_env());
  ASSERT_EQ(r.status, 0) << r.output;
  const nlohmann::json e = only_entry();
  EXPECT_EQ(e.at("key").at("tunable"), "ftle-devices");
  EXPECT_EQ(e.at("key").at("problem_class"), "gridded 2d fp32");
  write("gyre.yaml", "type: ftle\nftle:\n  dt: 0.5\n  precision: fp32\nseeds:\n  counts: [41, 21]\n");
  nlohmann::json m = run_tuned("gyre.yaml", "best");
  EXPECT_EQ(static_cast<int>(m.at("devices").size()), chosen(e, "gpus") + chosen(e, "cpus")) << m.at("device_choice");
  EXPECT_EQ(m.at("device_choice").at("cpus"), chosen(e, "cpus"));
  // The fp64 class has no entry: auto.
  write("gyre64.yaml", "type: ftle\nftle:\n  dt: 0.5\nseeds:\n  counts: [41, 21]\n");
  const std::string none = run_tuned("gyre64.yaml", "fp64").at("device_choice");
  EXPECT_EQ(none.rfind("none: nothing tuned", 0), 0u) << none;
  const auto [gpus, others] = device_kinds();
  if (gpus > 0 && others > 0) expect_mixed_run("gyre.yaml");
}

// Each storage is tuned apart, under its own problem class; an FP16 case takes the FP16 entry.
TEST_F(TuneCommand, LbmStoragesAreTunedApart) {
  const std::string env = tuning_env();
  test::CommandResult r = run_hetflow("tune lbm --storage fp16 --device " + device() + " --size 12 --repeats 1", env);
  ASSERT_EQ(r.status, 0) << r.output;
  const nlohmann::json e = only_entry();
  EXPECT_EQ(e.at("key").at("problem_class"), "fp16 single-phase");
  write("duct.yaml", "type: lbm\nlbm:\n  steps: 2\n  storage: fp16\ngeometry:\n  kind: duct\n  size: [8, 8, 4]\n");
  EXPECT_EQ(run_tuning("duct.yaml --device " + device(), "fp16").at("pattern"), e.at("best").at("pattern"));
  write("duct.yaml", "type: lbm\nlbm:\n  steps: 2\ngeometry:\n  kind: duct\n  size: [8, 8, 4]\n");
  const nlohmann::json fp32 = run_tuning("duct.yaml --device " + device(), "fp32");
  EXPECT_TRUE(fp32.is_string()) << fp32;  // nothing for FP32
}

// `hetflow bench probe` measures with the stored work-groups and says so in its JSON. The entry is
// keyed by `hetflow tune probe` itself (one setting) and then given other work-groups, so this process
// never opens the device: on the GPU machine (compute mode Default) the bench found no GPU while this
// process held a context on it, for a reason not found.
TEST_F(TuneCommand, TheBenchmarksReferenceUsesTheTunedProbe) {
  const std::string env = tuning_env();
  test::CommandResult r = run_hetflow("tune probe --budget 1 --repeats 1 --device " + device(), env);
  ASSERT_EQ(r.status, 0) << r.output;
  nlohmann::json db = database();
  ASSERT_EQ(db.at("entries").size(), 1u);
  db["entries"][0]["best"] = {{"copy_work_group", "32"}, {"triad_work_group", "128"}, {"fma_work_group", "64"}};
  std::ofstream(db_path()) << db.dump(2);
  r = run_hetflow("bench probe --repeats 1 --output out --device " + device(), env);
  ASSERT_EQ(r.status, 0) << r.output;
  std::filesystem::path json;
  for (const auto& f : std::filesystem::recursive_directory_iterator(dir / "out"))
    if (f.path().filename() == "probe.json") json = f.path();
  ASSERT_FALSE(json.empty()) << r.output;
  std::ifstream in(json);
  const nlohmann::json report = nlohmann::json::parse(in);
  ASSERT_FALSE(report.at("cases").empty());
  for (const nlohmann::json& c : report.at("cases")) {
    const bool copy = c.at("name").get<std::string>().rfind("copy", 0) == 0;
    EXPECT_EQ(c.at("params").at("work_group"), copy ? 32 : 128) << c.at("name");
  }
}

// `hetflow tune karst` stores the karst solver's work-group; karst runs take it up unless told not to.
TEST_F(TuneCommand, KarstWritesAnEntryThatARunTakesUp) {
  const std::string env = tuning_env();
  test::CommandResult r = run_hetflow("tune karst --device " + device() + " --size 30 --repeats 1", env);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("runs/s"), std::string::npos) << r.output;
  const nlohmann::json e = only_entry();
  EXPECT_EQ(e.at("key").at("tunable"), "karst");
  EXPECT_EQ(e.at("key").at("problem_class"), "heat fp64");

  write("inlet.csv", "t,T\n0,10\n1,12\n");
  write("velocity.csv", "t,v\n0,1\n1,1\n");
  write("storm.yaml", "type: karst\nforcing:\n  inlet: inlet.csv\n  velocity: velocity.csv\ngrid:\n  nodes: 20\n"
                      "  rock_nodes: 5\n  rock_extent: 3\n  initial: 10\ntime:\n  dt: 0.01\n  end: 0.2\noutput:\n  png: false\n");
  expect_taken(run_tuning("storm.yaml --device " + device(), "tuned"), e, {"work_group"});
  EXPECT_EQ(run_tuning("storm.yaml --no-tune --device " + device(), "untuned"), "disabled (HETFLOW_NO_TUNE)");
}

// `hetflow tune fem` stores the pressure SpMV's shape for the precision it was asked for.
TEST_F(TuneCommand, FemStoresAnSpmvShape) {
  test::CommandResult r =
      run_hetflow("tune fem --device " + device() + " --size 4 --storage fp32 --budget 3 --repeats 1", tuning_env());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("Gnnz/s"), std::string::npos) << r.output;
  const nlohmann::json e = only_entry();
  EXPECT_EQ(e.at("key").at("tunable"), "fem");
  EXPECT_EQ(e.at("key").at("problem_class"), "spmv fp32");
  const int wg_bits = std::stoi(e.at("best").at("wg_bits").get<std::string>());
  const int row_bits = std::stoi(e.at("best").at("row_bits").get<std::string>());
  EXPECT_LE(row_bits, wg_bits);
  EXPECT_LE(wg_bits, 8);
}

// `hetflow tune nnls` stores TNT's dense-kernel sizes per precision; `hetflow nnls` takes them up
// unless told not to, and an FP32 run does not take the FP64 entry.
TEST_F(TuneCommand, NnlsWritesAnEntryThatTheCommandTakesUp) {
  const std::string env = tuning_env();
  test::CommandResult r =
      run_hetflow("tune nnls --device " + device() + " --size 40 --repeats 1 --search annealing --budget 3", env);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("annealing search: 3 of"), std::string::npos) << r.output;
  const nlohmann::json e = only_entry();
  EXPECT_EQ(e.at("key").at("tunable"), "nnls");
  EXPECT_EQ(e.at("key").at("problem_class"), "fp64");
  EXPECT_EQ(e.at("best").size(), 4u);

  write("A.csv", "1,0\n0,1\n1,1\n");
  write("b.csv", "1\n-1\n0.5\n");
  const auto report = [&](const std::string& folder) {
    std::ifstream file(dir / folder / "report.json");
    return nlohmann::json::parse(file);
  };
  r = run_hetflow("nnls A.csv b.csv -o tuned --device " + device(), env);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(report("tuned").at("tuning").at("setting"), e.at("best"));
  r = run_hetflow("nnls A.csv b.csv -o untuned --no-tune --device " + device(), env);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(report("untuned").at("tuning"), "disabled (--no-tune)");
  r = run_hetflow("nnls A.csv b.csv -o single --fp32 --device " + device(), env);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(report("single").at("tuning").get<std::string>().rfind("none:", 0), 0u);
}

// `hetflow tune ftle` stores the FTLE kernels' launch shape for gridded 2D flows per precision; a
// gridded 2D run of that precision takes it up unless told not to, an analytic run does not.
TEST_F(TuneCommand, FtleWritesAnEntryThatAGriddedRunTakesUp) {
  const std::string env = tuning_env();
  test::CommandResult r =
      run_hetflow("tune ftle --device " + device() + " --size 32 --repeats 1 --search annealing --budget 6", env);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("annealing search: 6 of"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("steps/s"), std::string::npos) << r.output;
  const nlohmann::json e = only_entry();
  EXPECT_EQ(e.at("key").at("tunable"), "ftle");
  EXPECT_EQ(e.at("key").at("problem_class"), "gridded 2d fp64");
  EXPECT_EQ(e.at("evaluations"), 6);

  // A steady uniform flow on 8 x 5 nodes (raw doubles, u = 0.1, v = 0.05).
  std::string bytes;
  for (int node = 0; node < 40; ++node) {
    for (const double v : {0.1, 0.05}) bytes.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  write("flow.raw", bytes);
  write("flow.yaml", "dims: [8, 5]\nspacing: 0.25\nfiles: [flow.raw]\n");
  write("gridded.yaml", "type: ftle\nftle:\n  flow: file\n  duration: 1\n  steps: 4\n  velocity:\n    files: [flow.yaml]\n"
                        "  boundary: stop\n");
  expect_taken(run_tuning("gridded.yaml --device " + device(), "tuned"), e, {"work_group", "groups_per_unit"});
  EXPECT_EQ(run_tuning("gridded.yaml --no-tune --device " + device(), "untuned"), "disabled (HETFLOW_NO_TUNE)");
  write("analytic.yaml", "type: ftle\nftle:\n  duration: 1\n  steps: 4\nseeds:\n  counts: [9, 5]\n");
  EXPECT_EQ(run_tuning("analytic.yaml --device " + device(), "analytic").get<std::string>().rfind(
                "none: tuned for gridded 2D flows only", 0),
            0u);
}

// `hetflow tune radau5` stores RADAU5's mapping, launch shape and panel width (and on NVIDIA GPUs its register budget)
// for a reactor_batch case's system and batch-size decade; a batch run of that system and decade takes
// them up, one of another decade does not.
TEST_F(TuneCommand, Radau5WritesAnEntryThatABatchRunOfItsDecadeTakesUp) {
  const std::filesystem::path source_root = std::filesystem::path(__FILE__).parent_path().parent_path().parent_path();
  std::filesystem::copy_file(source_root / "data/mechanisms/h2o2.yaml", dir / "h2o2.yaml");
  write("batch.yaml", "type: reactor_batch\nmechanism:\n  file: h2o2.yaml\nmixture:\n  fuel: \"H2:1\"\n"
                      "batch:\n  count: 12\n  dt: 1e-6\n");
  const std::string env = tuning_env();
  test::CommandResult r = run_hetflow(
      "tune radau5 --case batch.yaml --device " + device() + " --repeats 1 --search annealing --budget 3", env);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("annealing search: 3 of"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("systems/s"), std::string::npos) << r.output;
  const nlohmann::json e = only_entry();
  EXPECT_EQ(e.at("key").at("tunable"), "radau5");
  const std::string problem = e.at("key").at("problem_class");
  EXPECT_NE(problem.find(" n=11 jac, 1e1 systems"), std::string::npos) << problem;  // 10 species and T
  const bool budget = takes_budget();
  EXPECT_EQ(e.at("best").size(), budget ? 5u : 4u);

  const nlohmann::json tuning = run_tuning("batch.yaml --device " + device(), "tuned");
  EXPECT_EQ(tuning.at("mapping"), e.at("best").at("mapping")) << tuning;
  expect_taken(tuning, e, {"work_group", "groups_per_unit", "lu_panel"});
  if (budget) expect_taken(tuning, e, {"max_registers"});
  // An entry's register budget is taken on any device (other devices ignore it when they build).
  nlohmann::json db = database();
  db["entries"][0]["best"]["max_registers"] = "96";
  std::ofstream(db_path()) << db.dump();
  expect_taken(run_tuning("batch.yaml --device " + device(), "budget"), db["entries"][0], {"max_registers"});
  EXPECT_EQ(run_tuning("batch.yaml --set batch.count=150 --device " + device(), "larger").get<std::string>().rfind(
                "none: nothing tuned", 0),
            0u);
  EXPECT_EQ(run_hetflow("tune radau5 --device " + device(), env).status, 1);  // no --case
}

TEST_F(TuneCommand, RefusesUnknownTunablesAndSearches) {
  EXPECT_EQ(run_hetflow("tune nothing --db x.json").status, 2);
  EXPECT_EQ(run_hetflow("tune lbm --storage fp8 --db x.json").status, 2);
  EXPECT_EQ(run_hetflow("tune lbm --search random --db x.json").status, 2);
  EXPECT_EQ(run_hetflow("tune nnls --storage fp16 --db x.json").status, 1);
  EXPECT_FALSE(std::filesystem::exists(dir / "x.json"));
}

}  // namespace
}  // namespace hetflow::tune
