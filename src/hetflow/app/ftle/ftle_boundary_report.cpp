#include "hetflow/app/ftle/ftle_boundary_report.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>

namespace hetflow::app {
namespace {

// What a boundary hit is, per mode in the order of ftle::Boundary's values.
constexpr std::array<const char*, 6> hit_meanings{
    "tracers pulled back into the data box at a face at least once",
    "tracers halted before a step that would have left the data box",
    "none: periodic data have no faces",
    "tracers that ended a step outside the data box (they move on through the continued velocity)",
    "tracers that ended a step outside the data box (they move on through the continued velocity)",
    "tracers frozen where they left the data box (finite exit_time)"};

}  // namespace

bool keeps_exit_times(const FtleSetup& setup) {
  return std::holds_alternative<std::shared_ptr<const ftle::VelocityGrid>>(setup.flow) &&
         setup.config.boundary == ftle::Boundary::freeze;
}

nlohmann::json boundary_report(const FtleSetup& setup, std::size_t hits, const std::vector<double>& exit_times) {
  if (std::holds_alternative<ftle::AnalyticFlow>(setup.flow))
    return {{"mode", "none"}, {"tracers_hit", hits}, {"meaning", "none: an analytic flow has no walls"}};
  nlohmann::json r = {{"mode", ftle::to_string(setup.config.boundary)},
                      {"tracers_hit", hits},
                      {"meaning", hit_meanings[static_cast<std::size_t>(setup.config.boundary)]}};
  double low = std::numeric_limits<double>::infinity(), high = -low;
  for (const double t : exit_times) {
    if (std::isnan(t)) continue;
    low = std::min(low, t);
    high = std::max(high, t);
  }
  if (low <= high) {
    r["min_exit_time"] = low;
    r["max_exit_time"] = high;
  }
  return r;
}

}  // namespace hetflow::app
