#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace hetflow::ftle {

// Where tracers start: seed (i, j, k) at origin + (i hx, j hy, k hz), x fastest, independent of any
// velocity grid (the paper seeds one tracer per velocity node; a finer or smaller seed grid sharpens
// ridges or picks a region). The FTLE field lives on this grid; its gradient uses its spacing.
struct SeedGrid {
  int dimension = 2;
  std::array<std::size_t, 3> counts{1, 1, 1};  // 2D: counts[2] = 1
  std::array<double, 3> origin{0.0, 0.0, 0.0};
  std::array<double, 3> spacing{1.0, 1.0, 1.0};

  std::size_t size() const { return counts[0] * counts[1] * counts[2]; }
  // Seeds per plane of the last axis (y in 2D, z in 3D): the unit split across devices.
  std::size_t plane() const { return dimension == 2 ? counts[0] : counts[0] * counts[1]; }
  std::size_t planes() const { return counts[static_cast<std::size_t>(dimension - 1)]; }
  double position(int axis, std::size_t index) const {
    const auto a = static_cast<std::size_t>(axis);
    return origin[a] + static_cast<double>(index) * spacing[a];
  }

  // The grid spanning [lo, hi] per axis with `counts` seeds (spacing (hi - lo) / (n - 1)).
  // Throws core::Error unless the dimension is 2 or 3, every axis has at least 2 seeds (the gradient
  // needs a neighbour; 2D: counts[2] = 1) and the spacings are positive.
  void check() const;

  static SeedGrid spanning(std::array<double, 3> lo, std::array<double, 3> hi, std::array<std::size_t, 3> counts,
                           int dimension);
};

// One flag per seed, x fastest: 1 on the grid's faces (index 0 or n - 1 along one of its axes), where the
// flow-map gradient is a one-sided (first-order) difference rather than a central one.
std::vector<std::uint8_t> edge_mask(const SeedGrid& seeds);

}  // namespace hetflow::ftle
