#include "hetflow/app/compressible/flow_measures.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hetflow::app {

double MaterialContrast::fraction(const mrag::FaceState& s) const {
  const bool by_gamma = other.big_gamma() != tracked.big_gamma();
  const double a = by_gamma ? other.big_gamma() : other.big_pi();
  const double b = by_gamma ? tracked.big_gamma() : tracked.big_pi();
  if (a == b) return 0;
  return std::clamp(((by_gamma ? s.big_gamma : s.big_pi) - a) / (b - a), 0.0, 1.0);
}

std::vector<std::string> FlowMeasures::columns() {
  return {"step",
          "time",
          "leaves",
          "cells",
          "mass",
          "momentum_x",
          "momentum_y",
          "energy",
          "gamma_integral",
          "min_p",
          "max_p",
          "interface_x_min",
          "interface_x_max",
          "shock_x"};
}

std::vector<double> FlowMeasures::row() const {
  return {static_cast<double>(step),
          time,
          static_cast<double>(leaves),
          static_cast<double>(cells),
          mass,
          momentum_x,
          momentum_y,
          energy,
          gamma_integral,
          min_p,
          max_p,
          interface_x_min,
          interface_x_max,
          shock_x};
}

FlowMeasures measure_flow(const FlowSnapshot& snapshot, const UniformFields& finest,
                          const std::optional<MaterialContrast>& contrast, double shock_threshold) {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  FlowMeasures m;
  m.step = snapshot.step;
  m.time = snapshot.time;
  m.leaves = snapshot.leaves.size();
  m.cells = snapshot.cells.size();
  m.min_p = std::numeric_limits<double>::infinity();
  m.max_p = -m.min_p;
  double lo = m.min_p, hi = m.max_p;
  for (const mrag::BlockFlow::Cell& c : snapshot.cells) {
    const mrag::FaceState& q = c.state;
    const double area = c.h * c.h, kinetic = 0.5 * q.rho * (q.un * q.un + q.ut * q.ut);
    m.mass += area * q.rho;
    m.momentum_x += area * q.rho * q.un;
    m.momentum_y += area * q.rho * q.ut;
    m.energy += area * (q.big_gamma * q.p + q.big_pi + kinetic);
    m.gamma_integral += area * q.big_gamma;
    m.min_p = std::min(m.min_p, q.p);
    m.max_p = std::max(m.max_p, q.p);
    if (contrast && contrast->fraction(q) > 0.5) {
      lo = std::min(lo, c.x - 0.5 * c.h);
      hi = std::max(hi, c.x + 0.5 * c.h);
    }
  }
  m.interface_x_min = lo <= hi ? lo : nan;
  m.interface_x_max = lo <= hi ? hi : nan;
  m.shock_x = nan;
  for (std::size_t j = 0; j < finest.ny; ++j) {
    for (std::size_t i = finest.nx - 1; i > 0; --i) {
      const std::size_t a = finest.index(i - 1, j), b = finest.index(i, j);
      const double scale = std::min(finest.p[a] + finest.p_inf[a], finest.p[b] + finest.p_inf[b]);
      if (std::abs(finest.p[b] - finest.p[a]) <= shock_threshold * scale) continue;
      const double x = static_cast<double>(i) * finest.h;  // the face between the two cells
      if (std::isnan(m.shock_x) || x > m.shock_x) m.shock_x = x;
      break;
    }
  }
  return m;
}

}  // namespace hetflow::app
