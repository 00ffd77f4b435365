#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "hetflow/mrag/block_flow.hpp"
#include "hetflow/mrag/exact_riemann.hpp"
#include "test_devices.hpp"

namespace hetflow::mrag {
namespace {

const StiffenedGas air{1.4, 0}, helium{1.67, 0};

struct Problem {
  const char* name;
  Primitive1d left, right;
  double diaphragm, time;
  StiffenedGas right_gas = air;
};

// Toro's tests 1-5 (Toro 2009, Table 4.1), diaphragm and time as there, and Sod's problem with helium on the
// right (two gases).
const Problem problems[] = {{"Toro 1", {1, 0, 1}, {0.125, 0, 0.1}, 0.3, 0.2},
                            {"Toro 2", {1, -2, 0.4}, {1, 2, 0.4}, 0.5, 0.15},
                            {"Toro 3", {1, 0, 1000}, {1, 0, 0.01}, 0.5, 0.012},
                            {"Toro 4", {1, 0, 0.01}, {1, 0, 100}, 0.4, 0.035},
                            {"Toro 5", {5.99924, 19.5975, 460.894}, {5.99242, -6.19633, 46.0950}, 0.4, 0.035},
                            {"air-helium Sod", {1, 0, 1}, {0.125, 0, 0.1}, 0.5, 0.2, helium}};

// The states along the line after running a problem on `cells` cells along x (periodic in y), or along y
// (periodic in x), with the velocity along the line returned as un.
std::vector<FaceState> run(const Problem& p, int cells, int axis = 0, RiemannSolver solver = RiemannSolver::hlle) {
  core::DeviceSet devices = test::test_device();
  const int roots = cells / 16;
  BlockFlow flow(devices.compute(0), axis == 0 ? BlockTree(roots, 1, 0) : BlockTree(1, roots, 0), 16,
                 axis == 0 ? sides(Edge::outflow, Edge::periodic) : sides(Edge::periodic, Edge::outflow), 1.0 / roots,
                 TimeScheme::ssp_rk3, core::Precision::f64, SpatialScheme{.riemann = solver, .colour = {}});
  flow.set([&](double x, double y) {
    const bool left = (axis == 0 ? x : y) < p.diaphragm;
    const Primitive1d& w = left ? p.left : p.right;
    const StiffenedGas& gas = left ? air : p.right_gas;
    return axis == 0 ? FaceState{w.rho, w.u, 0, w.p, gas.big_gamma(), gas.big_pi()}
                     : FaceState{w.rho, 0, w.u, w.p, gas.big_gamma(), gas.big_pi()};
  });
  while (flow.time() < p.time) flow.step(std::min(flow.stable_dt(0.5), p.time - flow.time()));
  std::vector<FaceState> line(static_cast<std::size_t>(cells));
  for (const BlockFlow::Cell& c : flow.cells())
    if ((axis == 0 ? c.y : c.x) < 1.0 / roots / 16) {
      FaceState w = c.state;
      if (axis == 1) std::swap(w.un, w.ut);
      line[static_cast<std::size_t>((axis == 0 ? c.x : c.y) * cells)] = w;
    }
  return line;
}

// The exact solution's density jumps (shocks and contacts) at time t: position, density before and after,
// found where the solution sampled every 1e-5 of the domain changes by more than 1e-3 of its range.
struct Jump {
  double x, before, after;
};
std::vector<Jump> density_jumps(const ExactRiemann& exact, const Problem& p) {
  constexpr int samples = 100000;
  std::vector<double> rho(samples + 1);
  for (int k = 0; k <= samples; ++k) rho[k] = exact.sample((double(k) / samples - p.diaphragm) / p.time).state.rho;
  const auto [low, high] = std::minmax_element(rho.begin(), rho.end());
  std::vector<Jump> jumps;
  for (int k = 0; k < samples; ++k)
    if (std::abs(rho[k + 1] - rho[k]) > 1e-3 * (*high - *low))
      jumps.push_back({(k + 0.5) / samples, rho[std::max(k - 10, 0)], rho[std::min(k + 11, samples)]});
  return jumps;
}

// Where the line's density crosses `level` nearest to x, by linear interpolation between cell centres.
double nearest_crossing(const std::vector<FaceState>& line, double level, double x) {
  const auto cells = static_cast<double>(line.size());
  double best = INFINITY;
  for (std::size_t k = 0; k + 1 < line.size(); ++k) {
    const double a = line[k].rho - level, b = line[k + 1].rho - level;
    if (a * b > 0 || a == b) continue;
    const double at = (static_cast<double>(k) + 0.5 + a / (a - b)) / cells;
    if (std::abs(at - x) < std::abs(best - x)) best = at;
  }
  return best;
}

// The 1D Riemann problems along x on 64 and 128 cells against the exact solution: the density's L1 error
// falls by at least a third (the discontinuities keep it near first order), no density or pressure goes
// negative, the strong shocks of tests 3-5 and the near-vacuum of test 2 included, and on 128 cells each
// shock and contact (where the density's mid-value is crossed) lies within 2 cells of the exact one.
TEST(MragRiemannTable, TheRiemannProblemsConvergeAndStayPositive) {
  for (const Problem& p : problems) {
    const ExactRiemann exact(p.left, p.right, air, p.right_gas);
    double errors[2] = {0, 0};
    for (int r = 0; r < 2; ++r) {
      const int cells = 64 << r;
      const std::vector<FaceState> line = run(p, cells);
      double low_rho = 1e300, low_p = 1e300;
      for (int k = 0; k < cells; ++k) {
        const double exact_rho = exact.sample(((k + 0.5) / cells - p.diaphragm) / p.time).state.rho;
        errors[r] += std::abs(line[k].rho - exact_rho) / cells;
        low_rho = std::min(low_rho, line[k].rho);
        low_p = std::min(low_p, line[k].p);
      }
      std::cout << p.name << ", " << cells << " cells: density L1 " << errors[r] << ", least density " << low_rho
                << ", least pressure " << low_p << "\n";
      EXPECT_GT(low_rho, 0) << p.name;
      EXPECT_GT(low_p, 0) << p.name;
      if (r == 0) continue;
      for (const Jump& jump : density_jumps(exact, p)) {
        const double at = nearest_crossing(line, 0.5 * (jump.before + jump.after), jump.x);
        std::cout << "  jump at " << jump.x << " (" << jump.before << " to " << jump.after << "): crossed at " << at
                  << "\n";
        EXPECT_LT(std::abs(at - jump.x), 2.0 / cells) << p.name << ", jump at " << jump.x;
      }
    }
    EXPECT_LT(errors[1], 0.67 * errors[0]) << p.name;
  }
}

// The density's L1 error of each problem on 128 cells with HLLC, which restores the contact: at least 3 %
// below HLLE's where the contact stands apart and carries most of the error (Toro 1, the air–helium Sod
// problem: 3.5 % and 7.2 % on PoCL), within 1 % of it elsewhere (the strong shocks of tests 3 and 4 sit next
// to their contacts, and HLLC's is 0.03 % larger there); every jump within 2 cells of its exact place; no
// negative density or pressure.
TEST(MragRiemannTable, HllcResolvesTheContactsAtLeastAsWellAsHlle) {
  const int cells = 128;
  for (const Problem& p : problems) {
    const ExactRiemann exact(p.left, p.right, air, p.right_gas);
    double errors[2] = {0, 0};
    std::vector<FaceState> lines[2];
    for (int k = 0; k < 2; ++k) {
      lines[k] = run(p, cells, 0, k == 0 ? RiemannSolver::hlle : RiemannSolver::hllc);
      for (int i = 0; i < cells; ++i)
        errors[k] +=
            std::abs(lines[k][i].rho - exact.sample(((i + 0.5) / cells - p.diaphragm) / p.time).state.rho) / cells;
    }
    std::cout << p.name << ", 128 cells: density L1 " << errors[0] << " (hlle), " << errors[1] << " (hllc)\n";
    const std::string name = p.name;
    EXPECT_LT(errors[1], (name == "Toro 1" || name == "air-helium Sod" ? 0.97 : 1.01) * errors[0]) << p.name;
    for (const FaceState& w : lines[1]) {
      EXPECT_GT(w.rho, 0) << p.name;
      EXPECT_GT(w.p, 0) << p.name;
    }
    for (const Jump& jump : density_jumps(exact, p))
      EXPECT_LT(std::abs(nearest_crossing(lines[1], 0.5 * (jump.before + jump.after), jump.x) - jump.x), 2.0 / cells)
          << p.name << ", jump at " << jump.x;
  }
}

// The same problems along y on 64 cells give the line along x: density, velocity and pressure within 1e-12.
TEST(MragRiemannTable, AlongYTheProblemsGiveTheLineAlongX) {
  for (const Problem& p : problems) {
    const std::vector<FaceState> x = run(p, 64), y = run(p, 64, 1);
    for (std::size_t k = 0; k < x.size(); ++k) {
      const double scale = std::max({1.0, std::abs(x[k].p), std::abs(x[k].un)});
      EXPECT_NEAR(y[k].rho, x[k].rho, 1e-12 * std::max(1.0, x[k].rho)) << p.name << " cell " << k;
      EXPECT_NEAR(y[k].un, x[k].un, 1e-12 * scale) << p.name << " cell " << k;
      EXPECT_NEAR(y[k].p, x[k].p, 1e-12 * scale) << p.name << " cell " << k;
    }
  }
}

}  // namespace
}  // namespace hetflow::mrag
