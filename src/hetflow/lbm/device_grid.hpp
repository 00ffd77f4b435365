#pragma once
#include <array>
#include <cstddef>
#include <span>
#include <vector>

namespace hetflow::lbm {

// Lattice nodes along x, y, z.
using Extent = std::array<int, 3>;

// The nodes of a box of extent `e`.
inline std::size_t volume(const Extent& e) {
  return static_cast<std::size_t>(e[0]) * static_cast<std::size_t>(e[1]) * static_cast<std::size_t>(e[2]);
}

// How a lattice is split over devices: a grid of gx × gy × gz boxes, one per device, part p at grid
// cell (p mod gx, (p / gx) mod gy, p / (gx gy)), so {1, 1, n} gives the z-slabs of n devices. A device
// may hold several boxes (a lattice larger than its largest allocation): each box of the device grid is
// then cut into that many along z, and the device's boxes are consecutive parts. Each
// axis is split as evenly as possible, the lower boxes taking the remainder, unless z-slabs are given
// weights: then each device's slab takes its weight's share of the z-planes (largest remainder, as
// core::Partition), so that a fast and a slow device finish a step together. An axis split into
// several boxes gives every box one halo layer on each of its sides there; an axis left whole wraps
// periodically inside the box. Neighbours are periodic.
class DeviceGrid {
 public:
  // `grid` {0, 0, 0} (or any entry 0): slabs along z, one per device; `per_device` boxes per device.
  // `weights` (one per device, positive; empty: even) size the slabs of a z-slab grid.
  DeviceGrid(const Extent& lattice, const Extent& grid, std::size_t devices, std::size_t per_device = 1,
             std::span<const double> weights = {});

  const Extent& lattice() const { return lattice_; }
  const Extent& grid() const { return grid_; }
  std::size_t parts() const { return static_cast<std::size_t>(grid_[0]) * grid_[1] * grid_[2]; }
  bool split(int axis) const { return grid_[axis] > 1; }
  bool halos() const { return split(0) || split(1) || split(2); }
  int halo(int axis) const { return split(axis) ? 1 : 0; }

  // The own nodes of a part: first global node and node count along each axis.
  Extent origin(std::size_t part) const;
  Extent extent(std::size_t part) const;
  // The part's box in its device's memory: its own nodes with their halo layers.
  Extent local(std::size_t part) const;
  // The global coordinate of the part's local coordinate `l` along `axis` (halos taken periodically).
  int global(std::size_t part, int axis, int l) const;
  // The part beside `part` along `axis`, on the lower (side -1) or upper (side +1) side.
  std::size_t neighbour(std::size_t part, int axis, int side) const;

 private:
  Extent cell(std::size_t part) const;
  void weigh_slabs(std::span<const double> weights, std::size_t devices, std::size_t per_device);

  Extent lattice_;
  Extent grid_;
  std::vector<int> z_starts_;  // weighted slabs: the first z-plane of each z-cell, then nz; else empty
};

}  // namespace hetflow::lbm
