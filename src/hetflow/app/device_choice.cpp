#include "hetflow/app/device_choice.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "hetflow/app/tuning_lookup.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/number_text.hpp"

namespace hetflow::app {
namespace {

// A CPU's share relative to a GPU's, halving from an even split: a GPU can outrun a CPU by two or more
// orders of magnitude, and an ordered dimension lets annealing step between neighbouring shares.
std::vector<std::string> cpu_weights() {
  std::vector<std::string> weights;
  for (int k = 0; k <= 8; ++k) weights.push_back(core::number_text(std::ldexp(1.0, -k), 10));
  return weights;
}

struct Kinds {
  std::vector<std::size_t> gpus, cpus;  // positions in the candidates
};

// Everything that is not a GPU counts as a CPU.
bool is_gpu(const core::Device& device) { return device.info.kind == core::DeviceKind::gpu; }

Kinds kinds_of(std::span<const core::Device> candidates) {
  Kinds k;
  for (std::size_t i = 0; i < candidates.size(); ++i) (is_gpu(candidates[i]) ? k.gpus : k.cpus).push_back(i);
  return k;
}

std::vector<std::string> counts_up_to(std::size_t n) {
  std::vector<std::string> counts;
  for (std::size_t i = 0; i <= n; ++i) counts.push_back(std::to_string(i));
  return counts;
}

std::size_t count_in(const tune::Setting& setting, const std::string& name, std::size_t most) {
  const std::optional<std::size_t> count = whole_number(setting, name, 0, most);
  if (!count) {
    const auto it = setting.find(name);
    throw core::Error("a device choice of " + (it == setting.end() ? std::string("no") : "'" + it->second + "'") + " " +
                      name + ": this machine has " + std::to_string(most));
  }
  return *count;
}

}  // namespace

ChosenDevices chosen_devices(std::span<const core::Device> candidates, const DeviceChoice& choice) {
  const Kinds kinds = kinds_of(candidates);
  if (choice.gpus > kinds.gpus.size() || choice.cpus > kinds.cpus.size() || choice.gpus + choice.cpus == 0)
    throw core::Error("a choice of " + std::to_string(choice.gpus) + " GPUs and " + std::to_string(choice.cpus) +
                      " CPUs from " + std::to_string(kinds.gpus.size()) + " and " + std::to_string(kinds.cpus.size()));
  if (!(choice.cpu_weight > 0) || !std::isfinite(choice.cpu_weight))
    throw core::Error("a CPU share of " + std::to_string(choice.cpu_weight) + ": expected a finite number above 0");
  ChosenDevices chosen;
  const bool mixed = choice.gpus > 0 && choice.cpus > 0;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const bool gpu = is_gpu(candidates[i]);
    const std::vector<std::size_t>& same = gpu ? kinds.gpus : kinds.cpus;
    const std::size_t rank = static_cast<std::size_t>(std::find(same.begin(), same.end(), i) - same.begin());
    if (rank >= (gpu ? choice.gpus : choice.cpus)) continue;
    chosen.devices.push_back(candidates[i]);
    if (mixed) chosen.weights.push_back(gpu ? 1.0 : choice.cpu_weight);
  }
  return chosen;
}

tune::Tunable device_choice_tunable(ChoiceWorkload workload, const core::DeviceSet& candidate_set) {
  std::vector<core::Device> candidates;
  for (std::size_t i = 0; i < candidate_set.size(); ++i) candidates.push_back(candidate_set.device(i));
  const Kinds kinds = kinds_of(candidates);
  const std::vector<std::string> weights = cpu_weights();
  const std::string even = weights.front();
  tune::TuningSpace space({tune::Dimension::ordered("gpus", counts_up_to(kinds.gpus.size())),
                           tune::Dimension::ordered("cpus", counts_up_to(kinds.cpus.size())),
                           tune::Dimension::ordered("cpu_weight", weights)},
                          [even](const tune::Setting& s) {
                            const bool gpus = s.at("gpus") != "0", cpus = s.at("cpus") != "0";
                            // The share matters only where both kinds run: elsewhere one value stands for all.
                            return (gpus || cpus) && ((gpus && cpus) || s.at("cpu_weight") == even);
                          });
  tune::Setting defaults{{"gpus", std::to_string(kinds.gpus.size())},
                         {"cpus", kinds.gpus.empty() ? std::to_string(kinds.cpus.size()) : "0"},
                         {"cpu_weight", even}};
  // One device set per combination of counts, built once: a context per setting would rebuild the kernels.
  auto sets = std::make_shared<std::map<std::pair<std::size_t, std::size_t>, std::unique_ptr<core::DeviceSet>>>();
  tune::Objective seconds = [candidates, run = std::move(workload.run), sets](const tune::Setting& s) {
    const DeviceChoice choice = parse_device_choice(s, candidates);
    const ChosenDevices chosen = chosen_devices(candidates, choice);
    std::unique_ptr<core::DeviceSet>& set = (*sets)[{choice.gpus, choice.cpus}];
    if (!set) set = std::make_unique<core::DeviceSet>(chosen.devices);
    return run(*set, chosen.weights);
  };
  return {std::move(workload.name),
          std::move(workload.kernel_files),
          std::move(workload.problem_class),
          std::move(workload.problem),
          std::move(space),
          std::move(defaults),
          std::move(seconds),
          std::move(workload.rate),
          std::move(workload.unit)};
}

tune::Key device_choice_key(const ChoiceKey& key, std::span<const core::Device> candidates) {
  core::DeviceInfo machine = candidates.front().info;
  machine.name.clear();
  machine.driver.clear();
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const core::DeviceInfo& d = candidates[i].info;
    machine.name += (i ? " + " : "") + d.name;
    machine.driver += (i ? " + " : "") + d.driver;
  }
  return tune::make_key(key.tunable, machine, key.kernel_files, key.problem_class);
}

std::optional<ChosenDevices> tuned_devices(const ChoiceKey& key, std::span<const core::Device> candidates,
                                           nlohmann::json& record) {
  const std::optional<tune::Entry> entry = find_entry(device_choice_key(key, candidates), record);
  if (!entry) return std::nullopt;
  try {
    const DeviceChoice choice = parse_device_choice(entry->best, candidates);
    ChosenDevices chosen = chosen_devices(candidates, choice);
    record["gpus"] = choice.gpus;
    record["cpus"] = choice.cpus;
    record["weights"] = chosen.weights;
    return chosen;
  } catch (const core::Error& e) {
    record = std::string("none: the entry does not fit this machine's devices: ") + e.what();  // advisory data
    return std::nullopt;
  }
}

DeviceChoice parse_device_choice(const tune::Setting& setting, std::span<const core::Device> candidates) {
  const Kinds kinds = kinds_of(candidates);
  DeviceChoice choice;
  choice.gpus = count_in(setting, "gpus", kinds.gpus.size());
  choice.cpus = count_in(setting, "cpus", kinds.cpus.size());
  const auto it = setting.find("cpu_weight");
  if (it == setting.end()) throw core::Error("a device choice without 'cpu_weight'");
  std::size_t used = 0;
  choice.cpu_weight = std::stod(it->second, &used);
  if (used != it->second.size() || !(choice.cpu_weight > 0) || !std::isfinite(choice.cpu_weight))
    throw core::Error("a device choice's cpu_weight " + it->second + ": expected a finite number above 0");
  if (choice.gpus + choice.cpus == 0) throw core::Error("a device choice of no device");
  return choice;
}

}  // namespace hetflow::app
