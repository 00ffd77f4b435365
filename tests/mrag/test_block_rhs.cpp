#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "hetflow/mrag/block_rhs.hpp"
#include "hetflow/mrag/reflux_table.hpp"
#include "hetflow/mrag/reference_1d.hpp"
#include "hetflow/mrag/stiffened_gas.hpp"
#include "test_devices.hpp"

namespace hetflow::mrag {
namespace {

constexpr int s = 8;

// A smooth air-helium state along one line of 2 s cells on [0, 1), periodic: density, velocity and closure
// vary, the pressure too.
std::vector<FaceState> line_state() {
  const StiffenedGas air{1.4, 0}, helium{1.67, 0};
  std::vector<FaceState> cells;
  for (int k = 0; k < 2 * s; ++k) {
    const double x = (k + 0.5) / (2 * s), blend = 0.5 + 0.5 * std::sin(2 * M_PI * x);
    cells.push_back({1 + 0.3 * std::cos(2 * M_PI * x), 0.4 + 0.1 * std::sin(4 * M_PI * x), 0, 1 + 0.2 * blend,
                     blend * air.big_gamma() + (1 - blend) * helium.big_gamma(), 0});
  }
  return cells;
}

// The device's right-hand side on two level-0 blocks of a periodic grid, for a state that varies along x
// (blocks side by side) or along y (one above the other), equals Reference1d's rate on every line: the
// ghosts, the WENO faces, the Riemann fluxes (HLLE and HLLC) and the closure source line up, and the other
// axis adds exact zeros.
TEST(MragBlockRhs, AStateAlongOneAxisGivesTheOneDimensionalRate) {
  core::DeviceSet devices = test::test_device();
  const core::Queue& queue = devices.compute(0);
  const std::vector<FaceState> line = line_state();
  for (const RiemannSolver solver : {RiemannSolver::hlle, RiemannSolver::hllc}) {
    const Reference1d reference(line, 1.0 / (2 * s), Reference1d::Boundary::periodic, solver);
    const std::vector<Reference1d::Conserved> expected = reference.rate();
    for (int axis = 0; axis < 2; ++axis) {
      const BlockTree tree(axis == 0 ? 2 : 1, axis == 0 ? 1 : 2, 0);
      BlockRhs<double> rhs(queue, tree, s, sides(Edge::periodic, Edge::periodic), 0.5, true,
                           SpatialScheme{.riemann = solver, .colour = {}});
      std::vector<double> data(rhs.values());
      for (int b = 0; b < 2; ++b)
        for (int j = 0; j < s; ++j)
          for (int i = 0; i < s; ++i) {
            const int k = b * s + (axis == 0 ? i : j);
            const Reference1d::Conserved q = conserved(line[static_cast<std::size_t>(k)]);
            // The line's normal momentum is ρu along x, ρv along y.
            const double fields_of_cell[fields] = {q[0], axis == 0 ? q[1] : 0, axis == 0 ? 0 : q[1], q[3], q[4], q[5]};
            for (int f = 0; f < fields; ++f)
              data[static_cast<std::size_t>((b * fields + f) * s * s + i + s * j)] = fields_of_cell[f];
          }
      core::Buffer<double> d(queue.context(), data.size()), r(queue.context(), data.size());
      d.write(queue, std::span<const double>(data));
      rhs(queue, d, r);
      std::vector<double> got(data.size());
      r.read(queue, std::span<double>(got));
      double largest = 0;
      for (const auto& q : expected)
        for (double v : q) largest = std::max(largest, std::abs(v));
      for (int b = 0; b < 2; ++b)
        for (int j = 0; j < s; ++j)
          for (int i = 0; i < s; ++i) {
            const auto& e = expected[static_cast<std::size_t>(b * s + (axis == 0 ? i : j))];
            const double want[fields] = {e[0], axis == 0 ? e[1] : 0, axis == 0 ? 0 : e[1], e[3], e[4], e[5]};
            for (int f = 0; f < fields; ++f)
              EXPECT_NEAR(got[static_cast<std::size_t>((b * fields + f) * s * s + i + s * j)], want[f], 1e-12 * largest)
                  << (solver == RiemannSolver::hllc ? "hllc" : "hlle") << " axis " << axis << " block " << b
                  << " cell (" << i << ", " << j << ") field " << f;
          }
    }
  }
}

// A uniform state on a tree with jumps of one and two levels: every ghost is predicted or restricted from
// the same values, so every flux is the same and the right-hand side vanishes to rounding.
TEST(MragBlockRhs, AUniformStateIsAtRestOnAnAdaptedTree) {
  core::DeviceSet devices = test::test_device();
  const core::Queue& queue = devices.compute(0);
  BlockTree tree(2, 2, 2);
  tree.refine({0, 0, 0});
  tree.refine({1, 1, 1});
  BlockRhs<double> rhs(queue, tree, s, sides(Edge::periodic, Edge::outflow), 1.0);
  const FaceState state{1.2, 0.3, -0.4, 2.0, 2.5, 0};
  const Reference1d::Conserved q = conserved(state);
  const double cell[fields] = {q[0], q[1], q[2], q[3], q[4], q[5]};
  std::vector<double> data(rhs.values());
  for (std::size_t k = 0; k < data.size(); ++k) data[k] = cell[(k / (s * s)) % fields];
  core::Buffer<double> d(queue.context(), data.size()), r(queue.context(), data.size());
  d.write(queue, std::span<const double>(data));
  rhs(queue, d, r);
  std::vector<double> got(data.size());
  r.read(queue, std::span<double>(got));
  // Fluxes of order ρ|u|² + p ≈ 2.3 over cells 1/32 wide: rounding left at most 1e-13 on PoCL.
  for (std::size_t k = 0; k < got.size(); ++k) EXPECT_NEAR(got[k], 0.0, 1e-12) << k;
}

// A part without leaves (a device whose share rounds to none) updates no tile, so it has no rates for the
// time step: its rate buffer's one value is never written, and reading it would make the step's rate
// whatever the device memory holds.
TEST(MragBlockRhs, APartWithoutLeavesHasNoRates) {
  core::DeviceSet devices = test::test_device();
  const core::Queue& queue = devices.compute(0);
  const BlockTree tree(2, 1, 0);
  const Sides periodic = sides(Edge::periodic, Edge::periodic);
  const LeafGrid grid(tree);
  auto recipes = std::make_shared<DeviceRecipes<double>>(queue.context(), s, rhs_ghosts, false, periodic);
  BlockRhs<double>::Part none{{}, recipes, recipes->plan(queue, grid), reflux_table(grid, s, periodic)};
  EXPECT_EQ(BlockRhs<double>(queue, tree, none, s, 1.0, false).rate_count(), 0u);
  const BlockRhs<double> whole(queue, tree, s, periodic, 1.0, false);
  EXPECT_EQ(whole.rate_count(), 2u * static_cast<std::size_t>(s / whole.tile_rows()));
}

}  // namespace
}  // namespace hetflow::mrag
