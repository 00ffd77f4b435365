#include "hetflow/lbm/device_grid.hpp"

#include <string>

#include "hetflow/core/error.hpp"
#include "hetflow/core/partition.hpp"

namespace hetflow::lbm {
namespace {

const char* axis_name(int axis) { return axis == 0 ? "x" : axis == 1 ? "y" : "z"; }

}  // namespace

DeviceGrid::DeviceGrid(const Extent& lattice, const Extent& grid, std::size_t devices, std::size_t per_device,
                       std::span<const double> weights)
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
  if (!weights.empty()) weigh_slabs(weights, devices, per_device);
}

void DeviceGrid::weigh_slabs(std::span<const double> weights, std::size_t devices, std::size_t per_device) {
  if (weights.size() != devices)
    throw core::Error("device weights: " + std::to_string(weights.size()) + " given for " + std::to_string(devices) +
                      " devices");
  if (grid_[0] != 1 || grid_[1] != 1)
    throw core::Error("device weights size z-slabs only; the device grid splits x or y (lbm.device_grid)");
  const core::Partition slabs(static_cast<std::size_t>(lattice_[2]), 1, weights);  // checks the weights
  const auto boxes = static_cast<int>(per_device);
  z_starts_.assign(1, 0);
  for (std::size_t d = 0; d < devices; ++d) {
    const auto planes = static_cast<int>(slabs.share(d).count);
    if (planes < boxes) {
      throw core::Error("device weights give device " + std::to_string(d) + " " + std::to_string(planes) +
                        " of the lattice's " + std::to_string(lattice_[2]) + " z-planes, fewer than its " +
                        std::to_string(boxes) + " box(es): raise its weight");
    }
    for (int b = 0; b < boxes; ++b) z_starts_.push_back(z_starts_.back() + planes / boxes + (b < planes % boxes ? 1 : 0));
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
  if (!z_starts_.empty()) o[2] = z_starts_[static_cast<std::size_t>(c[2])];
  return o;
}

Extent DeviceGrid::extent(std::size_t part) const {
  const Extent c = cell(part);
  Extent e{};
  for (int a = 0; a < 3; ++a) e[a] = lattice_[a] / grid_[a] + (c[a] < lattice_[a] % grid_[a] ? 1 : 0);
  if (!z_starts_.empty()) e[2] = z_starts_[static_cast<std::size_t>(c[2]) + 1] - z_starts_[static_cast<std::size_t>(c[2])];
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
