#include "hetflow/lbm/device_grid.hpp"

#include <string>

#include "hetflow/core/error.hpp"

namespace hetflow::lbm {
namespace {

const char* axis_name(int axis) { return axis == 0 ? "x" : axis == 1 ? "y" : "z"; }

}  // namespace

DeviceGrid::DeviceGrid(const Extent& lattice, const Extent& grid, std::size_t devices, std::size_t per_device)
    : lattice_(lattice), grid_(grid) {
  if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0) grid_ = {1, 1, static_cast<int>(devices)};
  if (grid_[0] < 0 || grid_[1] < 0 || grid_[2] < 0 || this->parts() != devices) {
    throw core::Error("a device grid of " + std::to_string(grid[0]) + " x " + std::to_string(grid[1]) + " x " +
                      std::to_string(grid[2]) + " boxes does not match the " + std::to_string(devices) +
                      " devices of the run: their product must equal the device count");
  }
  grid_[2] *= static_cast<int>(per_device);
  for (int a = 0; a < 3; ++a) {
    if (lattice_[a] < grid_[a]) {
      throw core::Error("a lattice of " + std::to_string(lattice_[a]) + " nodes along " + axis_name(a) +
                        " cannot be split into " + std::to_string(grid_[a]) + " boxes; use fewer devices along " +
                        axis_name(a) + (per_device > 1 ? " or fewer boxes per device" : ""));
    }
  }
}

Extent DeviceGrid::cell(std::size_t part) const {
  const auto p = static_cast<int>(part);
  return {p % grid_[0], p / grid_[0] % grid_[1], p / (grid_[0] * grid_[1])};
}

Extent DeviceGrid::origin(std::size_t part) const {
  const Extent c = cell(part);
  Extent o{};
  for (int a = 0; a < 3; ++a) {
    const int base = lattice_[a] / grid_[a], extra = lattice_[a] % grid_[a];
    o[a] = c[a] * base + (c[a] < extra ? c[a] : extra);
  }
  return o;
}

Extent DeviceGrid::extent(std::size_t part) const {
  const Extent c = cell(part);
  Extent e{};
  for (int a = 0; a < 3; ++a) e[a] = lattice_[a] / grid_[a] + (c[a] < lattice_[a] % grid_[a] ? 1 : 0);
  return e;
}

Extent DeviceGrid::local(std::size_t part) const {
  Extent l = extent(part);
  for (int a = 0; a < 3; ++a) l[a] += 2 * halo(a);
  return l;
}

int DeviceGrid::global(std::size_t part, int axis, int l) const {
  const int n = lattice_[axis];
  return ((origin(part)[axis] + l - halo(axis)) % n + n) % n;
}

std::size_t DeviceGrid::neighbour(std::size_t part, int axis, int side) const {
  Extent c = cell(part);
  c[axis] = (c[axis] + side + grid_[axis]) % grid_[axis];
  return static_cast<std::size_t>(c[0] + grid_[0] * (c[1] + grid_[1] * c[2]));
}

}  // namespace hetflow::lbm
