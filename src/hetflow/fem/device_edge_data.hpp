#pragma once
#include <cstddef>
#include <cstdint>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/fem/edge_data.hpp"

namespace hetflow::fem {

// The edge data on one device, uploaded once and read by every step's kernels: the edge graph and
// records (128 bytes per directed edge, the largest arrays of a run) are held once per device, whatever
// number of classes launch edge loops over them.
struct DeviceEdgeData {
  DeviceEdgeData(const core::DeviceSet& devices, std::size_t device, const EdgeData& data);

  std::size_t nodes;
  core::Buffer<std::uint32_t> row_start, col;
  core::Buffer<double> records, mass, inv_mass, h_min;
};

}  // namespace hetflow::fem
