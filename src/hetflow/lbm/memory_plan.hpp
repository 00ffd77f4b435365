#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "hetflow/lbm/solver.hpp"

namespace hetflow::lbm {

// "123 MiB", rounded up: how memory messages state sizes.
std::string mib(double bytes);

// The largest lattice of the proportions of `dims` whose Solver::required_bytes with `config` is at most
// `bytes`; a dimension is never below 1.
std::array<std::size_t, 3> largest_fitting(const std::array<std::size_t, 3>& dims, const Config& config, double bytes);

// The fewest boxes per device (DeviceGrid) for which every buffer of every box, halos included, fits in
// one allocation of `max_alloc` bytes, for a lattice of `dims` split over `devices` devices as
// `config` says; throws when even boxes one z-plane thick do not fit.
std::size_t boxes_per_device(const std::array<int, 3>& dims, const Config& config, std::size_t devices,
                             std::uint64_t max_alloc);

// What would fit when a lattice of `dims` with `config`, split evenly over `devices` devices (halos
// aside), does not fit their `device_bytes` each: the clause a memory error ends with. It names the
// largest lattice of the same proportions at the current settings, the one-array pattern aa where the
// config has two arrays (ab), FP16 storage where it is not FP16 already, each with what it needs per
// device, and how many devices of this size (device.select, lbm.device_grid) the lattice needs as it is.
std::string memory_advice(const std::array<std::size_t, 3>& dims, const Config& config, std::size_t device_bytes,
                          std::size_t devices);

}  // namespace hetflow::lbm
