#include "hetflow/fem/momentum_step.hpp"

#include "hetflow/core/build_options.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/kernel_args.hpp"
#include "hetflow/core/program.hpp"
#include "hetflow/fem/node_launch.hpp"

namespace hetflow::fem {
MomentumStep::MomentumStep(const core::DeviceSet& devices, std::size_t device, const DeviceEdgeData& edges,
                           const MomentumParameters& parameters, VelocityConstraints& constraints, NodeHalo* halo)
    : launch_(devices, device, edges.nodes, "the momentum kernels"),
      constraints_(&constraints),
      halo_(halo),
      parameters_(parameters) {
  check_momentum_parameters(parameters);
  const core::Context& context = devices.context(device);
  const cl_uint nodes = launch_.nodes();
  tau_ = core::Buffer<double>(context, nodes);
  projection_ = core::Buffer<double>(context, 3 * std::size_t{nodes});
  stage_velocity_ = core::Buffer<double>(context, 3 * std::size_t{nodes});
  stage_residual_ = core::Buffer<double>(context, 3 * std::size_t{nodes});

  const core::Program& program = context.program("fem/fem_momentum.cl", edges.build_options());
  tau_kernel_ = program.kernel("fem_stabilisation_tau");
  projection_kernel_ = program.kernel("fem_convective_projection");
  residual_kernel_ = program.kernel("fem_momentum_residual");
  stage_kernel_ = program.kernel("fem_rk_stage");
  core::KernelArgs projection_args(projection_kernel_);
  projection_args.add(nodes);
  edges.add_graph(projection_args);
  projection_args.add(edges.inv_mass);
  const StabilisationConstants& c = parameters_.stabilisation;
  // The velocity and Δt (arguments 2 and 3) are set per launch.
  core::KernelArgs(tau_kernel_)
      .add(nodes)
      .add(edges.mass)
      .skip(2)
      .add(parameters_.viscosity)
      .add(c.time)
      .add(c.viscous)
      .add(c.convective)
      .add(tau_);
  core::KernelArgs residual_args(residual_kernel_);
  residual_args.add(nodes);
  edges.add_graph(residual_args);
  residual_args.add(edges.mass).add(parameters_.viscosity);
  residual_args.add(parameters_.density);
  for (double f : parameters_.body_force) residual_args.add(f);
  residual_args.add(tau_).add(projection_);
  residual_fields_arg_ = residual_args.next();
  core::KernelArgs(stage_kernel_).add(nodes).add(edges.inv_mass);
}

void MomentumStep::stabilisation(const core::Buffer<double>& u, double dt) {
  launch_.check_size(u, 3, "u");
  check_time_step(dt);
  core::KernelArgs(tau_kernel_, 2).add(u).add(dt);
  launch_.launch(tau_kernel_);
}

void MomentumStep::convective_projection(const core::Buffer<double>& u) {
  launch_.check_size(u, 3, "u");
  core::KernelArgs(projection_kernel_, 5).add(u).add(projection_);
  launch_.launch(projection_kernel_);
}

void MomentumStep::residual(const core::Buffer<double>& velocity, const core::Buffer<double>& pressure,
                            const core::Buffer<double>& out) {
  launch_.check_size(velocity, 3, "velocity");
  launch_.check_size(pressure, 1, "pressure");
  launch_.check_size(out, 3, "residual");
  core::KernelArgs(residual_kernel_, residual_fields_arg_).add(velocity).add(pressure).add(out);
  launch_.launch(residual_kernel_);
}

void MomentumStep::advance(const core::Buffer<double>& u_n, const core::Buffer<double>& pressure, double time,
                           double dt, core::Buffer<double>& u_hat) {
  launch_.check_size(u_n, 3, "u_n");
  launch_.check_size(u_hat, 3, "u_hat");
  if (u_n.get() == u_hat.get()) throw core::Error("the momentum step needs u_hat apart from u_n");
  stabilisation(u_n, dt);
  convective_projection(u_n);
  if (halo_) halo_->exchange(projection_, 3);
  // W starts at uⁿ; U needs no copy, since the first stage reads uⁿ itself.
  u_hat.copy_from(launch_.queue(), u_n, 0, 0, u_n.size());
  for (std::size_t s = 0; s < 4; ++s) {
    residual(s == 0 ? u_n : stage_velocity_, pressure, stage_residual_);
    const cl_uint last = s == 3 ? 1 : 0;
    core::KernelArgs(stage_kernel_, 2)
        .add(u_n)
        .add(stage_residual_)
        .add(rk4_weight[s] * dt)
        .add(last ? 0.0 : rk4_stage[s] * dt)
        .add(last)
        .add(u_hat)
        .add(stage_velocity_);
    launch_.launch(stage_kernel_);
    if (last) continue;
    constraints_->apply(stage_velocity_, time + rk4_stage[s] * dt);
    if (halo_) halo_->exchange(stage_velocity_, 3);
  }
  constraints_->apply(u_hat, time + dt);
  if (halo_) halo_->exchange(u_hat, 3);
}

}  // namespace hetflow::fem
