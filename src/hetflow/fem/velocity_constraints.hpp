#pragma once
#include <cstddef>
#include <cstdint>
#include <span>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/fem/boundary_conditions.hpp"
#include "hetflow/fem/node_launch.hpp"

namespace hetflow::fem {

// The velocity constraints of BoundaryConstraints on one device of a set (docs/fem.md, Boundary
// conditions): one list of constrained nodes with their tangents, normals, values and ramp times lives on
// the device, and fem_constraints.cl applies it in one launch. The ramp is evaluated in the kernel from
// the time argument, so a ramped inlet needs no upload per step.
class VelocityConstraints {
 public:
  // Throws core::Error for lists that check_constraints rejects for node_count nodes.
  VelocityConstraints(const core::DeviceSet& devices, std::size_t device, const BoundaryConstraints& constraints,
                      std::size_t node_count);

  // Enqueues the constraints at `time` on a velocity field of 3n doubles (packed x, y, z per node) on the
  // device's compute queue and returns without waiting: apply_constraints on the host.
  void apply(const core::Buffer<double>& velocity, double time);

  // Replaces the Dirichlet values (one per BoundaryConstraints::dirichlet_nodes, in its order) for the
  // launches enqueued after it, for boundary values that vary in time otherwise than by a ramp (an exact
  // solution's, a measured inflow's). Throws core::Error for a list of another length.
  void set_dirichlet_values(std::span<const Vec3> values);

 private:
  NodeLaunch launch_;
  cl_uint count_;
  cl_uint dirichlet_begin_ = 0;  // the first Dirichlet entry
  core::Buffer<std::uint32_t> nodes_;
  core::Buffer<double> directions_, ramp_times_;
  core::Kernel kernel_;
  cl_uint time_arg_ = 0;  // the first per-launch argument
};

}  // namespace hetflow::fem
