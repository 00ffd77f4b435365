#pragma once
#include <cstddef>
#include <cstdint>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/fem/device_edge_data.hpp"
#include "hetflow/fem/edge_data.hpp"
#include "hetflow/fem/node_launch.hpp"

namespace hetflow::fem {

// The edge data's graph and records on one device of a set, in FP64, with fem_edges.cl's row-loop
// kernels bound to them. Node fields are device buffers of n doubles, 3-vectors n packed x, y, z
// triples. Each call enqueues one launch on the device's compute queue.
class EdgeKernels {
 public:
  EdgeKernels(const core::DeviceSet& devices, std::size_t device, const EdgeData& data);

  // grad = π(p), the strong gradient.
  void strong_gradient(const core::Buffer<double>& p, const core::Buffer<double>& grad);
  // out = K(φ), the stiffness operator.
  void stiffness(const core::Buffer<double>& phi, const core::Buffer<double>& out);

  std::size_t node_count() const { return launch_.nodes(); }

 private:
  NodeLaunch launch_;
  DeviceEdgeData edges_;
  core::Kernel gradient_, stiffness_;
  cl_uint fields_arg_ = 0;  // the index of each kernel's first field argument
};

}  // namespace hetflow::fem
