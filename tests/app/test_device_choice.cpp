// The tuner's device choice (app/device_choice.hpp): which devices a choice names and with what shares,
// its tuning space, and a search over it with a known optimum. The test devices stand in for a GPU and
// a CPU by their recorded kind, which is all the choice reads.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "hetflow/app/device_choice.hpp"
#include "hetflow/core/error.hpp"
#include "test_devices.hpp"

namespace hetflow::app {
namespace {

// Candidates [cpu, gpu, cpu]: the first and second test devices, the middle one marked a GPU.
std::vector<core::Device> mixed_candidates() {
  const core::DeviceSet several = test::test_devices();
  EXPECT_GE(several.size(), 2u) << "set POCL_DEVICES='pthread pthread'";
  core::Device gpu = several.device(0);
  gpu.info.kind = core::DeviceKind::gpu;
  gpu.info.name = "GPU stand-in";
  core::Device cpu = several.device(several.size() > 1 ? 1 : 0);
  cpu.info.kind = core::DeviceKind::cpu;
  return {cpu, gpu, cpu};
}

TEST(DeviceChoice, NamesTheFirstDevicesOfEachKindInTheCandidatesOrder) {
  const std::vector<core::Device> candidates = mixed_candidates();
  const ChosenDevices mixed = chosen_devices(candidates, {1, 1, 0.25});
  ASSERT_EQ(mixed.devices.size(), 2u);
  EXPECT_EQ(mixed.devices[0].info.kind, core::DeviceKind::cpu);  // the candidates' order, not GPUs first
  EXPECT_EQ(mixed.devices[1].info.name, "GPU stand-in");
  EXPECT_EQ(mixed.weights, (std::vector<double>{0.25, 1.0}));
  // One kind alone splits evenly: no weights.
  EXPECT_TRUE(chosen_devices(candidates, {0, 2, 0.25}).weights.empty());
  EXPECT_EQ(chosen_devices(candidates, {0, 2, 1}).devices.size(), 2u);
  EXPECT_EQ(chosen_devices(candidates, {1, 0, 1}).devices.size(), 1u);
  EXPECT_THROW(chosen_devices(candidates, {2, 0, 1}), core::Error);  // one GPU only
  EXPECT_THROW(chosen_devices(candidates, {0, 0, 1}), core::Error);
  EXPECT_THROW(chosen_devices(candidates, {1, 1, 0}), core::Error);
}

TEST(DeviceChoice, ReadsOnlyChoicesThatFitTheCandidates) {
  const std::vector<core::Device> candidates = mixed_candidates();
  const DeviceChoice c = parse_device_choice({{"gpus", "1"}, {"cpus", "2"}, {"cpu_weight", "0.125"}}, candidates);
  EXPECT_EQ(c.gpus, 1u);
  EXPECT_EQ(c.cpus, 2u);
  EXPECT_EQ(c.cpu_weight, 0.125);
  for (const tune::Setting& bad : std::vector<tune::Setting>{{{"gpus", "2"}, {"cpus", "0"}, {"cpu_weight", "1"}},
                                                             {{"gpus", "x"}, {"cpus", "1"}, {"cpu_weight", "1"}},
                                                             {{"gpus", "1"}, {"cpus", "1"}, {"cpu_weight", "-1"}},
                                                             {{"gpus", "0"}, {"cpus", "0"}, {"cpu_weight", "1"}},
                                                             {{"gpus", "1"}, {"cpus", "1"}}}) {
    EXPECT_THROW(parse_device_choice(bad, candidates), core::Error) << tune::describe(bad);
  }
  try {
    parse_device_choice({{"gpus", "3"}, {"cpus", "0"}, {"cpu_weight", "1"}}, candidates);
    ADD_FAILURE() << "3 GPUs of 1 accepted";
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find("a device choice of '3' gpus: this machine has 1"), std::string::npos)
        << e.what();
  }
}

// The key names every candidate, so a choice tuned on one machine's devices is not taken on another's.
TEST(DeviceChoice, KeyNamesTheWholeMachine) {
  const std::vector<core::Device> candidates = mixed_candidates();
  const ChoiceKey key{"lbm-devices", {"lbm/lbm.cl"}, "fp32 single-phase"};
  const tune::Key all = device_choice_key(key, candidates);
  EXPECT_EQ(all.device, candidates[0].info.name + " + GPU stand-in + " + candidates[2].info.name);
  EXPECT_EQ(all.driver,
            candidates[0].info.driver + " + " + candidates[1].info.driver + " + " + candidates[2].info.driver);
  EXPECT_EQ(all.problem_class, "fp32 single-phase");
  EXPECT_NE(device_choice_key(key, std::vector<core::Device>(candidates.begin(), candidates.begin() + 2)), all);
}

// A workload on a GPU 100 times as fast as each CPU: a step ends when the slowest share does, so the
// best CPU share is 1/100 of a GPU's. Of the halving shares, 1/128 on each of the two CPUs (0.77 % of
// the work each) beats the GPU alone by 1.5 % and one CPU by 0.8 %; at 1/64 the CPUs finish last.
// Exhaustive search over the 1 + 2 + 2 x 9 settings.
TEST(DeviceChoice, SearchFindsTheBestShareOfAModelMachine) {
  const std::vector<core::Device> candidates = mixed_candidates();
  const core::DeviceSet candidate_set(candidates);
  const auto model = [](const core::DeviceSet& devices, std::span<const double> weights) {
    double total = 0, slowest = 0;
    for (std::size_t k = 0; k < devices.size(); ++k) total += weights.empty() ? 1.0 : weights[k];
    for (std::size_t k = 0; k < devices.size(); ++k) {
      const double share = (weights.empty() ? 1.0 : weights[k]) / total;
      const double speed = devices.device(k).info.kind == core::DeviceKind::gpu ? 100.0 : 1.0;
      slowest = std::max(slowest, share / speed);
    }
    return slowest;
  };
  const tune::Tunable t = device_choice_tunable({"model", {}, "class", "model", {}, "", model}, candidate_set);
  EXPECT_EQ(t.space.feasible_size(), 21u);
  EXPECT_EQ(t.defaults, (tune::Setting{{"gpus", "1"}, {"cpus", "0"}, {"cpu_weight", "1"}}));
  const tune::TuneResult r = tune::tune(t.space, t.seconds, t.defaults, {});
  EXPECT_EQ(r.search, tune::Search::exhaustive);
  EXPECT_EQ(r.best, (tune::Setting{{"gpus", "1"}, {"cpus", "2"}, {"cpu_weight", "0.0078125"}}));
  EXPECT_NEAR(r.best_seconds, (128.0 / 130.0) / 100.0, 1e-15);
  // The CPUs alone: half the work each at speed 1.
  const tune::Trial* cpus = nullptr;
  for (const tune::Trial& trial : r.trials)
    if (trial.setting == tune::Setting{{"gpus", "0"}, {"cpus", "2"}, {"cpu_weight", "1"}}) cpus = &trial;
  ASSERT_NE(cpus, nullptr);
  EXPECT_EQ(cpus->seconds, 0.5);
}

}  // namespace
}  // namespace hetflow::app
