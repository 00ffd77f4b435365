#pragma once
#include <cmath>
#include <random>

#include "hetflow/lbm/geometry.hpp"
#include "hetflow/lbm/references.hpp"
#include "hetflow/lbm/solver.hpp"

namespace hetflow::test {

// Relative L2 error of u_z on the fluid nodes of a duct against the series solution.
inline double duct_error(const lbm::Fields& f, int nx, int ny, int nz, double g, double nu) {
  const double a = (nx - 2) / 2.0, b = (ny - 2) / 2.0;
  double err = 0, norm = 0;
  for (int z = 0; z < nz; ++z) {
    for (int y = 1; y < ny - 1; ++y) {
      for (int x = 1; x < nx - 1; ++x) {
        const std::size_t n = static_cast<std::size_t>(x + nx * (y + ny * z));
        const double exact = lbm::duct_poiseuille(x - (nx - 1) / 2.0, y - (ny - 1) / 2.0, a, b, g, nu);
        err += (f.u[3 * n + 2] - exact) * (f.u[3 * n + 2] - exact);
        norm += exact * exact;
      }
    }
  }
  return std::sqrt(err / norm);
}

// A 37 x 11 x 9 periodic box with a fifth of its nodes walls, at random: walls straddle every face and
// edge of any split over devices. Along x it holds whole vectors of the CPU kernels (8 nodes) with and
// without walls, beside nodes that wrap and take the one-node path; split along x over devices, the
// vectors start at other nodes, so the device-grid test also holds the vector path to the one-node bits.
inline lbm::Geometry random_walls() {
  lbm::Geometry geo(37, 11, 9);
  std::mt19937 rng(7);
  for (std::size_t z = 0; z < 9; ++z) {
    for (std::size_t y = 0; y < 11; ++y) {
      for (std::size_t x = 0; x < 37; ++x) {
        if (rng() % 5 == 0) geo.set(x, y, z, lbm::NodeType::wall);
      }
    }
  }
  return geo;
}

// Flow under a skewed body force: packets move in every direction, across every face.
inline lbm::Config skewed_flow(lbm::Pattern pattern, lbm::Storage storage) {
  lbm::Config c;
  c.tau = 0.7;
  c.force = {2e-5, -1e-5, 3e-5};
  c.pattern = pattern;
  c.storage = storage;
  return c;
}

}  // namespace hetflow::test
