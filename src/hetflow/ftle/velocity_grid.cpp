#include "hetflow/ftle/velocity_grid.hpp"

#include <cmath>

#include "hetflow/core/error.hpp"
#include "hetflow/core/number_text.hpp"

namespace hetflow::ftle {
namespace {

std::string number(double v) { return core::number_text(v, 17); }

}  // namespace

void VelocityGrid::hold(std::vector<std::vector<double>> values) {
  auto held = std::make_shared<const std::vector<std::vector<double>>>(std::move(values));
  snapshots.assign(held->begin(), held->end());
  storage = std::move(held);
}

double VelocityGrid::upper(int axis) const {
  const auto a = static_cast<std::size_t>(axis);
  return origin[a] + static_cast<double>(dims[a] - 1) * spacing[a];
}

void VelocityGrid::check(const std::string& source) const {
  const auto fail = [&](const std::string& what) { throw core::Error(source + ": " + what); };
  if (dimension != 2 && dimension != 3) fail("velocity of dimension " + std::to_string(dimension) + ": expected 2 or 3");
  for (int d = 0; d < 3; ++d) {
    const auto a = static_cast<std::size_t>(d);
    if (d < dimension && dims[a] < 2)
      fail("the grid has " + std::to_string(dims[a]) + " node(s) along axis " + std::to_string(d) +
           ": expected at least 2");
    if (d >= dimension && dims[a] != 1) fail("a 2D grid has one node along z, not " + std::to_string(dims[a]));
    if (d < dimension && !(spacing[a] > 0.0 && std::isfinite(spacing[a])))
      fail("spacing " + number(spacing[a]) + " along axis " + std::to_string(d) + ": expected a positive number");
    if (!std::isfinite(origin[a])) fail("origin " + number(origin[a]) + " along axis " + std::to_string(d) + " is not finite");
  }
  if (snapshots.empty()) fail("no velocity snapshot: expected at least one");
  if (times.size() != snapshots.size())
    fail(std::to_string(snapshots.size()) + " snapshots but " + std::to_string(times.size()) +
         " times: expected one time per snapshot");
  for (std::size_t k = 0; k < times.size(); ++k) {
    if (!std::isfinite(times[k])) fail("snapshot " + std::to_string(k) + " has time " + number(times[k]) + ": expected a finite time");
    if (k > 0 && !(times[k] > times[k - 1]))
      fail("snapshot " + std::to_string(k) + " has time " + number(times[k]) + " after " + number(times[k - 1]) +
           ": expected strictly increasing times");
  }
  const std::size_t values = nodes() * static_cast<std::size_t>(dimension);
  for (std::size_t k = 0; k < snapshots.size(); ++k) {
    if (snapshots[k].size() != values)
      fail("snapshot " + std::to_string(k) + " holds " + std::to_string(snapshots[k].size()) + " values: expected " +
           std::to_string(values) + " (" + std::to_string(dimension) + " per node)");
    for (std::size_t v = 0; v < values; ++v) {
      if (std::isfinite(snapshots[k][v])) continue;
      const std::size_t node = v / static_cast<std::size_t>(dimension);
      const std::size_t i = node % dims[0], j = node / dims[0] % dims[1], kz = node / (dims[0] * dims[1]);
      fail("snapshot " + std::to_string(k) + " (t = " + number(times[k]) + "), node (" + std::to_string(i) + ", " +
           std::to_string(j) + (dimension == 3 ? ", " + std::to_string(kz) : "") + "): velocity component " +
           std::string(1, "uvw"[v % static_cast<std::size_t>(dimension)]) + " = " + number(snapshots[k][v]) +
           " is not finite");
    }
  }
}

}  // namespace hetflow::ftle
