#pragma once
// Helpers of the long validation runs (test_validation_slow.cpp): a run to a steady state, fields sampled
// along a line, and the resolution override that lets the same tests run coarse on a CPU.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "hetflow/fem/flow_solver.hpp"
#include "hetflow/fem/point_locator.hpp"

namespace hetflow::fem::test {

// HETFLOW_FEM_VALIDATION_COARSEN = k divides every cell count of the validation meshes by k (at least 1
// cell stays): the tests then check that the runs work in seconds on PoCL, and their assertions report
// how far the coarse mesh is from the reference. Unset, the tests run at the resolution that meets it.
inline std::uint32_t coarsened(std::uint32_t cells) {
  const char* text = std::getenv("HETFLOW_FEM_VALIDATION_COARSEN");
  if (!text || !*text) return cells;
  const long k = std::strtol(text, nullptr, 10);
  if (k < 1) throw std::invalid_argument(std::string("HETFLOW_FEM_VALIDATION_COARSEN = '") + text +
                                         "': expected a positive integer");
  return std::max<std::uint32_t>(1, cells / static_cast<std::uint32_t>(k));
}

struct SteadyRun {
  bool steady = false;  // stopped by the tolerance rather than at t_end
  double time = 0;
  long steps = 0;
  double change = 0;  // the last relative change of the kinetic energy per unit time
};

// Steps at the stable Δt of Courant number `courant` until the kinetic energy changes by less than
// `tolerance` of itself per unit time (after t_min, which covers an inflow ramp) or t reaches t_end.
inline SteadyRun run_to_steady(FlowSolver& solver, double courant, double tolerance, double t_min,
                               double t_end) {
  SteadyRun run;
  double kinetic = solver.diagnostics().kinetic_energy;
  while (solver.time() < t_end) {
    const StepReport r = solver.advance(solver.stable_dt(courant));
    const double energy = r.diagnostics.kinetic_energy;
    run.change = std::abs(energy - kinetic) / (r.dt * std::max(energy, 1e-300));
    kinetic = energy;
    run.time = r.time;
    run.steps = r.step;
    if (r.time > t_min && run.change < tolerance) {
      run.steady = true;
      break;
    }
  }
  return run;
}

// Component `component` of a nodal velocity at each point; throws std::runtime_error for a point outside
// the mesh.
inline std::vector<double> sample_velocity(const PointLocator& locator, const std::vector<Vec3>& u,
                                           const std::vector<Point>& points, std::size_t component) {
  std::vector<double> values;
  for (const Point& p : points) {
    const auto at = locator.locate(p);
    if (!at)
      throw std::runtime_error("sample point (" + std::to_string(p[0]) + ", " + std::to_string(p[1]) + ", " +
                               std::to_string(p[2]) + ") is outside the mesh");
    values.push_back(interpolate(*at, std::span<const std::array<double, 3>>(u))[component]);
  }
  return values;
}

// n + 1 evenly spaced points from a to b.
inline std::vector<Point> line_points(const Point& a, const Point& b, std::size_t n) {
  std::vector<Point> points;
  for (std::size_t k = 0; k <= n; ++k) {
    const double s = static_cast<double>(k) / static_cast<double>(n);
    points.push_back({a[0] + s * (b[0] - a[0]), a[1] + s * (b[1] - a[1]), a[2] + s * (b[2] - a[2])});
  }
  return points;
}

}  // namespace hetflow::fem::test
