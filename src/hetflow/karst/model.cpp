#include "hetflow/karst/model.hpp"

#include <cmath>
#include <string>

#include "hetflow/core/error.hpp"
#include "hetflow/core/number_text.hpp"

namespace hetflow::karst {
namespace {

[[noreturn]] void fail(const std::string& what) { throw core::Error(what); }

std::string num(double v) { return core::shortest_text(v); }

}  // namespace

std::vector<double> Grid::uniform_times(double dt, std::size_t steps) {
  std::vector<double> t(steps);
  for (std::size_t k = 0; k < steps; ++k) t[k] = static_cast<double>(k + 1) * dt;
  return t;
}

void check_grid_space(const Grid& g) {
  if (g.nodes < 2) fail("karst grid: nodes = " + std::to_string(g.nodes) + " must be at least 2");
  if (g.has_rock()) {
    if (g.rock_nodes < 3) fail("karst grid: rock_nodes = " + std::to_string(g.rock_nodes) + " must be at least 3");
    if (!(g.rock_extent > 0) || !std::isfinite(g.rock_extent))
      fail("karst grid: rock_extent = " + num(g.rock_extent) + " must be finite and > 0");
  }
  if (!std::isfinite(g.initial)) fail("karst grid: initial = " + num(g.initial) + " must be finite");
}

void check_grid(const Grid& g) {
  check_grid_space(g);
  if (g.times.empty()) fail("karst grid: times is empty: the run needs at least one step");
  for (std::size_t k = 0; k < g.times.size(); ++k) {
    const double before = k ? g.times[k - 1] : 0.0;
    if (!std::isfinite(g.times[k]) || !(g.times[k] > before))
      fail("karst grid: times[" + std::to_string(k) + "] = " + num(g.times[k]) + " is not after " +
           (k ? "times[" + std::to_string(k - 1) + "] = " + num(before) : std::string("the start t* = 0")));
  }
}

void check_parameters(std::span<const KarstParameters> sets, Model model) {
  if (sets.empty()) fail("karst: no parameter sets");
  for (std::size_t p = 0; p < sets.size(); ++p) {
    const KarstParameters& s = sets[p];
    const auto require = [&](const char* name, double v, bool ok, const char* rule) {
      if (!ok || !std::isfinite(v)) fail("karst parameter set " + std::to_string(p) + ": " + name + " = " + num(v) + " " + rule);
    };
    require("Pe", s.Pe, s.Pe > 0, "must be finite and > 0");
    if (model == Model::heat) {
      require("St", s.St, s.St >= 0, "must be finite and >= 0");
      require("Theta", s.Theta, s.Theta > 0, "must be finite and > 0");
      require("Psi", s.Psi, s.Psi > 0, "must be finite and > 0");
    } else {
      require("Da", s.Da, true, "must be finite");
    }
  }
}

HeatGroups heat_groups(const ConduitProperties& c) {
  const double props[] = {c.length, c.hydraulic_diameter, c.mean_velocity, c.dispersion, c.friction_factor,
                          c.water_heat_capacity, c.water_conductivity, c.water_viscosity, c.water_density,
                          c.rock_heat_capacity, c.rock_conductivity, c.rock_density};
  for (const double v : props)
    if (!(v > 0) || !std::isfinite(v)) fail("karst conduit properties: every property must be finite and > 0, got " + num(v));
  HeatGroups g;
  const double dh = c.hydraulic_diameter, radius = dh / 2;
  g.Re = c.water_density * c.mean_velocity * dh / c.water_viscosity;
  if (g.Re <= 1000) fail("karst conduit properties: Re = " + num(g.Re) + " must be > 1000 for the Gnielinski correlation");
  g.Pr = c.water_heat_capacity * c.water_viscosity / c.water_conductivity;
  const double f8 = c.friction_factor / 8;
  g.Nu = f8 * (g.Re - 1000) * g.Pr / (1 + 12.7 * std::sqrt(f8) * (std::pow(g.Pr, 2.0 / 3.0) - 1));
  g.h = c.water_conductivity * g.Nu / dh;
  const double rho_c_w = c.water_density * c.water_heat_capacity, rho_c_r = c.rock_density * c.rock_heat_capacity;
  const double alpha_r = c.rock_conductivity / rho_c_r;
  g.parameters.Pe = c.length * c.mean_velocity / c.dispersion;
  g.parameters.St = 4 * g.h * c.length / (rho_c_w * dh * c.mean_velocity);
  g.parameters.Theta = radius * radius * c.mean_velocity / (c.length * alpha_r);
  g.parameters.Psi = rho_c_w / rho_c_r;
  return g;
}

}  // namespace hetflow::karst
