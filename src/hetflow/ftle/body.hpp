#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "hetflow/ftle/seed_grid.hpp"

namespace hetflow::ftle {

// A solid body in the flow (a cylinder in a wake, an obstacle in measured data). Seeds inside it start
// in no fluid, so their exponents describe nothing: the masks below mark them, and a field shows NaN
// there. Points on a body's surface count as inside.

// A disc in 2D, a ball in 3D: |x - centre| <= radius over the flow's axes.
struct Ball {
  std::array<double, 3> centre{0.0, 0.0, 0.0};
  double radius = 0.0;
};

// A circular cylinder of infinite length along `axis` (0, 1, 2: x, y, z) through `centre`; 3D only.
struct Cylinder {
  std::array<double, 3> centre{0.0, 0.0, 0.0};
  double radius = 0.0;
  int axis = 2;
};

// The axis-aligned box lower <= x <= upper over the flow's axes.
struct Box {
  std::array<double, 3> lower{0.0, 0.0, 0.0};
  std::array<double, 3> upper{0.0, 0.0, 0.0};
};

// A voxel mask: node (i, j, k) at origin + (i hx, j hy, k hz), x fastest, non-zero `solid` entries are
// the body. A point belongs to its nearest node (a voxel of size h centred on the node); points beyond
// the outer voxels are outside the body. 2D flows take one layer (dims[2] = 1).
struct Voxels {
  std::array<std::size_t, 3> dims{1, 1, 1};
  std::array<double, 3> origin{0.0, 0.0, 0.0};
  std::array<double, 3> spacing{1.0, 1.0, 1.0};
  std::vector<std::uint8_t> solid;
};

using Body = std::variant<Ball, Cylinder, Box, Voxels>;

// What kind of body it is: "ball", "cylinder", "box" or "voxels".
std::string body_kind(const Body& body);

// Throws core::Error naming the problem when `body` cannot be used in a `dimension`-D flow: a radius that
// is not positive and finite, non-finite coordinates, a cylinder in 2D or with an axis other than 0, 1,
// 2, a box whose lower corner is not below its upper one on every axis, voxels of the wrong count, a
// non-positive spacing, or more than one layer in 2D.
void check_body(const Body& body, int dimension);

// Whether the point x (its first `dimension` coordinates) lies in the body.
bool inside(const Body& body, const std::array<double, 3>& x, int dimension);

// One flag per seed, x fastest: 1 where the seed lies in the body. Checks the body first (check_body).
std::vector<std::uint8_t> body_mask(const Body& body, const SeedGrid& seeds);

// Sets the `per_seed` values of every flagged seed to NaN (values hold per_seed values per seed, in
// mask order) and returns the number of flagged seeds.
std::size_t mask_seeds(std::span<const std::uint8_t> mask, std::span<double> values, std::size_t per_seed = 1);

}  // namespace hetflow::ftle
