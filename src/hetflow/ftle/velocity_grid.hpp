#pragma once
#include <array>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace hetflow::ftle {

// Velocity snapshots on a uniform grid: node (i, j, k) sits at origin + (i hx, j hy, k hz). Each
// snapshot holds `dimension` components per node, together, nodes x-fastest (2D: dims[2] = 1). Between
// snapshots the velocity is linear in time; a single snapshot is a steady flow. The snapshots are views,
// so that a caller's arrays serve without a copy; `storage` keeps their memory alive, and copies of the
// grid share it.
struct VelocityGrid {
  int dimension = 2;
  std::array<std::size_t, 3> dims{1, 1, 1};
  std::array<double, 3> origin{0.0, 0.0, 0.0};
  std::array<double, 3> spacing{1.0, 1.0, 1.0};
  std::vector<double> times;                   // one per snapshot, strictly increasing
  std::vector<std::span<const double>> snapshots;  // nodes() * dimension values each
  std::shared_ptr<const void> storage;             // owns the snapshots' values; empty: the caller does

  // Takes `values` (one vector per snapshot) into `storage` and views them as the snapshots.
  void hold(std::vector<std::vector<double>> values);

  std::size_t nodes() const { return dims[0] * dims[1] * dims[2]; }
  // The far corner of the grid, origin + (n - 1) h per axis.
  double upper(int axis) const;

  // Throws core::Error naming `source` and the first problem: a dimension other than 2 or 3, fewer than
  // two nodes on an axis (2D: dims[2] != 1), a non-positive or non-finite spacing, snapshot sizes, times
  // that are missing, non-finite or not increasing, or a non-finite velocity (with snapshot, node and
  // component).
  void check(const std::string& source) const;
};

// The analytic field f(x, y[, z], t) -> dimension components sampled on a grid, for tests and demos.
template <class F>
VelocityGrid sample_on_grid(int dimension, std::array<std::size_t, 3> dims, std::array<double, 3> origin,
                            std::array<double, 3> spacing, const std::vector<double>& times, F velocity) {
  VelocityGrid g{dimension, dims, origin, spacing, times, {}, {}};
  std::vector<std::vector<double>> values;
  for (double t : times) {
    std::vector<double> snap;
    snap.reserve(g.nodes() * static_cast<std::size_t>(dimension));
    for (std::size_t k = 0; k < dims[2]; ++k) {
      for (std::size_t j = 0; j < dims[1]; ++j) {
        for (std::size_t i = 0; i < dims[0]; ++i) {
          const std::array<double, 3> x{origin[0] + static_cast<double>(i) * spacing[0],
                                        origin[1] + static_cast<double>(j) * spacing[1],
                                        origin[2] + static_cast<double>(k) * spacing[2]};
          const std::array<double, 3> u = velocity(x, t);
          snap.insert(snap.end(), u.begin(), u.begin() + dimension);
        }
      }
    }
    values.push_back(std::move(snap));
  }
  g.hold(std::move(values));
  return g;
}

}  // namespace hetflow::ftle
