#pragma once
#include <cstddef>
#include <cstdint>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/fem/device_edge_data.hpp"
#include "hetflow/fem/momentum.hpp"
#include "hetflow/fem/node_halo.hpp"
#include "hetflow/fem/node_launch.hpp"
#include "hetflow/fem/velocity_constraints.hpp"

namespace hetflow::fem {

// The explicit momentum part of one fractional step on one device of a set, in FP64 (docs/fem.md,
// Momentum): the step's work vectors (τ, Π, the stage velocity U and residual R) live on the device, and
// fem_momentum.cl's kernels are bound to them and to the caller's edge data and velocity constraints on the
// same device, which must outlive the step.
// Velocities are device buffers of 3n doubles, packed x, y, z per node; pressures hold n doubles. Each
// call enqueues its launches on the device's compute queue and returns without waiting.
class MomentumStep {
 public:
  // Throws core::Error for parameters that check_momentum_parameters rejects. With `halo` (outliving the
  // step) the edge data is a part's local problem, and advance() exchanges Π, the stage velocities and û
  // after writing them (collectively), since the kernels read them at neighbours.
  MomentumStep(const core::DeviceSet& devices, std::size_t device, const DeviceEdgeData& edges,
               const MomentumParameters& parameters, VelocityConstraints& constraints, NodeHalo* halo = nullptr);

  // û from uⁿ at time t to t + Δt with the pressure p fixed: τ and Π from uⁿ, then four RK4 stages with
  // the constraints applied to U after each of the first three, at the stage's time, and to û at t + Δt
  // (momentum_rk4 on the host). u_hat must be a different buffer from u_n.
  void advance(const core::Buffer<double>& u_n, const core::Buffer<double>& pressure, double time, double dt,
               core::Buffer<double>& u_hat);

  // The pieces of advance, for the tests.
  // τ from u, into tau(); throws core::Error for a time step check_time_step rejects.
  void stabilisation(const core::Buffer<double>& u, double dt);
  // Π from u, into projection().
  void convective_projection(const core::Buffer<double>& u);
  // out = F(velocity) with pressure, tau() and projection().
  void residual(const core::Buffer<double>& velocity, const core::Buffer<double>& pressure,
                const core::Buffer<double>& out);

  const core::Buffer<double>& tau() const { return tau_; }
  const core::Buffer<double>& projection() const { return projection_; }
  std::size_t node_count() const { return launch_.nodes(); }

 private:
  NodeLaunch launch_;
  VelocityConstraints* constraints_;
  NodeHalo* halo_;
  MomentumParameters parameters_;
  core::Buffer<double> tau_, projection_, stage_velocity_, stage_residual_;
  core::Kernel tau_kernel_, projection_kernel_, residual_kernel_, stage_kernel_;
  cl_uint residual_fields_arg_ = 0;  // the residual kernel's first per-launch argument
};

}  // namespace hetflow::fem
