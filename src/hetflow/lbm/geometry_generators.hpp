#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "hetflow/lbm/geometry.hpp"

namespace hetflow::lbm {

// Built-in masks. Node (x, y, z) sits at integer coordinates; a solid body covers the nodes whose
// position lies inside it or on its surface. Directions without walls are meant to be periodic.
// Invalid parameters throw std::invalid_argument naming the parameter and the accepted range.

// Rectangular duct along z: one-voxel walls on the x and y boundary layers. duct(34, 34, nz) has a
// 32 x 32 fluid cross-section; nx, ny >= 3.
Geometry duct(int nx, int ny, int nz);

// Plane channel: walls at y = 0 and y = ny - 1 only; ny >= 3.
Geometry channel(int nx, int ny, int nz);

// channel() plus a solid cylinder along z with axis (cx, cy), which must clear both walls and lie
// within 0 <= x <= nx - 1.
Geometry channel_with_cylinder(int nx, int ny, int nz, double cx, double cy, double radius);

// channel() plus a solid sphere, which must clear both walls and lie inside the box in x and z.
Geometry channel_with_sphere(int nx, int ny, int nz, std::array<double, 3> centre, double radius);

struct Sphere {
  std::array<double, 3> centre{};
  double radius = 0.0;
};

struct SpherePackingOptions {
  int nx = 0, ny = 0, nz = 0;
  double target_porosity = 0.5;  // in (0, 1)
  double min_radius = 4.0;       // radii are uniform in [min_radius, max_radius]
  double max_radius = 4.0;       // < half the smallest dimension, so a sphere never meets its own image
  std::uint64_t seed = 1;
};

struct SpherePacking {
  Geometry geometry;
  std::vector<Sphere> spheres;  // in placement order
  double porosity = 1.0;        // achieved: at most the target, short of it by less than one sphere
};

// Overlapping (penetrable) spheres placed uniformly at random in a box periodic in all three
// directions, added until the porosity is at or below the target. Overlap is allowed so any porosity
// is reachable; non-overlapping placement jams near 0.6 solid fraction. Draws come from
// std::mt19937_64(seed) mapped to [0, 1) by hand, so a seed gives the same mask on every platform.
// The pore space is not guaranteed to percolate at low porosity.
SpherePacking random_sphere_packing(const SpherePackingOptions& options);

}  // namespace hetflow::lbm
