#include "hetflow/app/chem/radau5_tunable.hpp"

#include <cmath>
#include <memory>
#include <optional>
#include <string>

#include "hetflow/app/chem/reactor_batch_case.hpp"
#include "hetflow/app/tuning_lookup.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/sha256.hpp"

namespace hetflow::app {
namespace {

const std::vector<std::string>& radau5_files() {
  static const std::vector<std::string> files{"ode/radau5.cl"};
  return files;
}

// The system (its source, which holds the mechanism, and its Jacobian) and the batch's decade: the best
// mapping changes with the batch size, the launch shape with the system's registers.
std::string radau5_class(const ode::System& system, bool analytic, std::size_t systems) {
  const std::string hash = core::Sha256().update(system.source).hex().substr(0, 16);
  const long decade = std::lround(std::log10(static_cast<double>(std::max<std::size_t>(systems, 1))));
  return "system " + hash + " n=" + std::to_string(system.n) + (analytic ? " jac" : " fd") + ", 1e" +
         std::to_string(decade) + " systems";
}

}  // namespace

tune::Tunable radau5_tunable(const core::DeviceSet& devices, const casefile::Case& c,
                             const tune::MeasureOptions& measure) {
  const core::DeviceInfo& info = devices.device(0).info;
  const bool gpu = info.kind == core::DeviceKind::gpu;
  auto batch = std::make_shared<const ReactorBatch>(reactor_batch(c));
  const std::size_t systems = batch->batch.params.size();
  const ode::Radau5 standard(devices, batch->system, batch->options);
  const ode::Radau5::LaunchShape shape = standard.launch_shape(systems);
  const std::size_t biggest = std::min<std::size_t>(256, info.max_work_group);
  // The decompositions in panels (ode::Options::lu_panel) are a dimension: against none, panels help or
  // hurt by GPU model, mapping and dt (docs/chem.md, Performance).
  std::vector<tune::Dimension> dimensions{tune::Dimension::choice("mapping", {"work_item", "work_group", "phased"}),
                                          tune::Dimension::ordered("work_group", tune::powers_of_two(4, biggest)),
                                          tune::Dimension::ordered("groups_per_unit", tune::powers_of_two(1, 128)),
                                          tune::Dimension::ordered("lu_panel", {"0", "2", "4", "8"})};
  tune::Setting defaults{{"mapping", ode::to_string(shape.mapping)},
                         {"work_group", std::to_string(shape.work_group)},
                         {"groups_per_unit", std::to_string(shape.groups_per_unit)},
                         {"lu_panel", std::to_string(shape.lu_panel)}};
  // NVIDIA's compiler takes a register budget (ode::Options::max_registers); 255 is its own choice. The
  // best one differs by mechanism: GRI-Mech 3.0 in mapping 1 ran faster at 128 than at 64 at dt 1e-6 s
  // and slower at 1e-4 s (docs/chem.md).
  if (core::takes_register_budget(info)) {
    dimensions.push_back(tune::Dimension::ordered("max_registers", {"64", "96", "128", "255"}));
    defaults["max_registers"] = std::to_string(shape.max_registers ? shape.max_registers : 255);
  }
  tune::Tunable t{"radau5",
                  radau5_files(),
                  radau5_class(batch->system, standard.analytic_jacobian(), systems),
                  "reactor batch of " + c.source() + ": " + std::to_string(systems) + " systems of " +
                      std::to_string(batch->system.n) + " equations",
                  // Mapping 2 and the phased mapping only on GPUs (ode/radau5_launch.cpp says why).
                  tune::TuningSpace(std::move(dimensions),
                                    [gpu](const tune::Setting& s) { return s.at("mapping") == "work_item" || gpu; }),
                  std::move(defaults),
                  {},
                  [systems](double seconds) { return static_cast<double>(systems) / seconds; },
                  "systems/s"};
  t.seconds = [&devices, batch, measure](const tune::Setting& s) {
    ode::Options o = batch->options;
    o.mapping = *ode::mapping_named(s.at("mapping"));
    o.work_group = std::stoul(s.at("work_group"));
    o.groups_per_unit = std::stoul(s.at("groups_per_unit"));
    o.lu_panel = std::stoi(s.at("lu_panel"));
    if (s.contains("max_registers")) o.max_registers = std::stoul(s.at("max_registers"));
    const ode::Radau5 solver(devices, batch->system, o);
    solver.prepare(batch->batch.params.size());  // the build is not the setting's cost
    return tune::measure(tune::wall_clock([&] {
                           const ode::Result r = solver.integrate(batch->batch);
                           if (r.failures() != 0) throw core::Error("failed systems:\n" + r.report());
                         }),
                         measure)
        .median;
  };
  return t;
}

ode::Options with_radau5_tuning(ode::Options options, const ode::System& system, std::size_t systems,
                                const core::DeviceSet& devices, nlohmann::json& record) {
  if (options.mapping != ode::Mapping::automatic || options.work_group != 0 || options.groups_per_unit != 0 ||
      options.max_registers != 0 || options.lu_panel >= 0) {
    record = "none: the options set the mapping, the launch shape, the register budget or the panel width";
    return options;
  }
  const core::DeviceInfo& first = devices.device(0).info;
  const bool analytic = options.jacobian == ode::Jacobian::analytic ||
                        (options.jacobian == ode::Jacobian::automatic && system.analytic_jacobian);
  const std::optional<tune::Entry> entry = find_tuning(
      devices, tune::make_key("radau5", first, radau5_files(), radau5_class(system, analytic, systems)), record);
  if (!entry) return options;
  const auto it = entry->best.find("mapping");
  const std::optional<ode::Mapping> mapping = ode::mapping_named(it == entry->best.end() ? std::string() : it->second);
  const std::optional<std::size_t> wg = whole_number(entry->best, "work_group", 1, first.max_work_group),
                                   groups = whole_number(entry->best, "groups_per_unit", 1, 4096);
  if (!mapping || !wg || !groups) {
    record["ignored"] = "the entry's mapping, work_group or groups_per_unit does not fit this device";  // advisory
    return options;
  }
  options.mapping = *mapping;
  options.work_group = *wg;
  options.groups_per_unit = *groups;
  record["mapping"] = ode::to_string(*mapping);
  record["work_group"] = *wg;
  record["groups_per_unit"] = *groups;
  // An entry written before panels were tuned has none.
  if (const std::optional<std::size_t> panel = whole_number(entry->best, "lu_panel", 0, 16)) {
    options.lu_panel = static_cast<int>(*panel);
    record["lu_panel"] = *panel;
  }
  // An entry tuned elsewhere than on NVIDIA has no budget; one that has gives it to every device.
  if (const std::optional<std::size_t> registers = whole_number(entry->best, "max_registers", 16, 255)) {
    options.max_registers = *registers;
    record["max_registers"] = *registers;
  }
  return options;
}

}  // namespace hetflow::app
