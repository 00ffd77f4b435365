#include "hetflow/app/karst/karst_tunable.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hetflow/app/tuning_lookup.hpp"
#include "hetflow/karst/device_solver.hpp"
#include "hetflow/karst/workload.hpp"

namespace hetflow::app {
namespace {

const std::vector<std::string>& karst_files() {
  static const std::vector<std::string> files{"karst/karst.cl"};
  return files;
}
constexpr const char* karst_class = "heat fp64";

}  // namespace

tune::Tunable karst_tunable(const core::DeviceSet& devices, int nodes, const tune::MeasureOptions& measure) {
  const core::DeviceInfo& info = devices.device(0).info;
  const bool gpu = info.kind == core::DeviceKind::gpu;
  auto grid = std::make_shared<karst::Grid>();
  grid->nodes = static_cast<std::size_t>(nodes);
  grid->rock_nodes = std::max<std::size_t>(grid->nodes / 10, 3);  // the karst grid takes at least 3
  grid->times = karst::Grid::uniform_times(1e-3, 100);
  auto sets = std::make_shared<const std::vector<karst::KarstParameters>>(karst::spread_sets(gpu ? 500 : 16));
  auto velocity = std::make_shared<const karst::Series>(karst::storm(1, 1, 0.3));
  auto inlet = std::make_shared<const karst::Series>(karst::storm(1, 0.4, 0.35));
  const std::size_t limit = std::min<std::size_t>(1024, karst::KarstDevice(devices, 0, std::size_t{1} << 20).work_group());
  const double runs = static_cast<double>(sets->size());
  tune::Tunable t{"karst",
                  karst_files(),
                  karst_class,
                  "N=" + std::to_string(grid->nodes) + " M=" + std::to_string(grid->rock_nodes) + " 100 steps, " +
                      std::to_string(sets->size()) + " sets",
                  tune::TuningSpace({tune::Dimension::ordered("work_group", tune::powers_of_two(32, limit))}),
                  {{"work_group", std::to_string(std::min<std::size_t>(256, limit))}},
                  {},
                  [runs](double seconds) { return runs / seconds; },
                  "runs/s"};
  t.seconds = [&devices, grid, sets, velocity, inlet, measure](const tune::Setting& s) {
    karst::KarstDevice device(devices, 0, std::stoul(s.at("work_group")));
    return tune::measure(tune::wall_clock([&] { device.run(*inlet, *velocity, *sets, *grid); }), measure).median;
  };
  return t;
}

std::size_t karst_tuned_work_group(const core::DeviceSet& devices, nlohmann::json& record) {
  const core::DeviceInfo& first = devices.device(0).info;
  const std::optional<tune::Entry> entry =
      find_tuning(devices, tune::make_key("karst", first, karst_files(), karst_class), record);
  if (!entry || !entry->best.contains("work_group")) return 0;
  const std::optional<std::size_t> wg = whole_number(entry->best, "work_group", 1, first.max_work_group);
  if (!wg) {
    record["ignored"] = "work_group " + entry->best.at("work_group") + " is not a work-group size of this device";
    return 0;
  }
  record["work_group"] = *wg;
  return *wg;
}

}  // namespace hetflow::app
