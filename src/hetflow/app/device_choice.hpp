#pragma once
#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "hetflow/core/device_set.hpp"
#include "hetflow/tune/tuner.hpp"

namespace hetflow::app {

// Which of a machine's devices a solver runs on, as the tuner chooses them (the thesis's Ch. 6 device
// dimensions: how many GPUs, how many CPUs, and the data distribution between them): the first `gpus`
// GPUs and the first `cpus` other devices of the candidates, in the candidates' order, each CPU taking
// `cpu_weight` times a GPU's share of the work.
struct DeviceChoice {
  std::size_t gpus = 0;
  std::size_t cpus = 0;
  double cpu_weight = 1.0;
};

// The devices of a choice and their shares: one weight per device where GPUs and CPUs mix, else
// empty (an even split).
struct ChosenDevices {
  std::vector<core::Device> devices;
  std::vector<double> weights;
};
ChosenDevices chosen_devices(std::span<const core::Device> candidates, const DeviceChoice& choice);

// What a tunable measures on a choice: seconds of one run on `devices` split by `weights`.
using DeviceRun = std::function<double(const core::DeviceSet& devices, std::span<const double> weights)>;

// What a device choice is tuned for: the tunable's name, kernels, problem class and problem, the rate
// of a run of given seconds, and the run itself.
struct ChoiceWorkload {
  std::string name;
  std::vector<std::string> kernel_files;
  std::string problem_class;
  std::string problem;
  std::function<double(double)> rate;
  std::string unit;
  DeviceRun run;
};

// A tunable over every choice of `candidates` (gpus 0..G, cpus 0..C, not none; the CPU's share where
// both kinds run, from 1 down to 1/256 of a GPU's), each measured by the workload's run on its own
// device set. The defaults: every GPU, or every device where there is none.
tune::Tunable device_choice_tunable(ChoiceWorkload workload, const core::DeviceSet& candidate_set);

// What a device choice's tuning entry is stored under, apart from the machine.
struct ChoiceKey {
  std::string tunable;
  std::vector<std::string> kernel_files;
  std::string problem_class;
};

// The key of a device choice: the candidates' names and drivers together take the device's place,
// since the choice is the whole machine's.
tune::Key device_choice_key(const ChoiceKey& key, std::span<const core::Device> candidates);

// The choice stored under `key` for `candidates` (all of this machine's devices) and the devices it
// names, or nothing when none is stored, tuning is disabled, or the entry does not fit the candidates;
// `record` (the manifest's "device_choice") says which choice was taken, or why none.
std::optional<ChosenDevices> tuned_devices(const ChoiceKey& key, std::span<const core::Device> candidates,
                                           nlohmann::json& record);

// The choice a tuning entry holds; core::Error naming the entry's value when it is not one of the
// candidates' (a hand-edited or foreign entry).
DeviceChoice parse_device_choice(const tune::Setting& setting, std::span<const core::Device> candidates);

}  // namespace hetflow::app
