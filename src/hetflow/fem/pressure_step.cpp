#include "hetflow/fem/pressure_step.hpp"

#include <algorithm>
#include <string>

#include "hetflow/core/build_options.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/kernel_args.hpp"
#include "hetflow/core/program.hpp"
#include "hetflow/fem/pressure_stiffness.hpp"

namespace hetflow::fem {
namespace {

// The pressure pattern with the identity's values: the CG's matrix until the first assembly overwrites
// them on the device.
CsrMatrix unit_pattern(const EdgeData& data) {
  CsrMatrix a;
  a.n = data.node_count();
  a.row_start.assign(data.matrix_row_start.begin(), data.matrix_row_start.end());
  a.col.assign(data.matrix_col.begin(), data.matrix_col.end());
  for (std::uint32_t e : data.matrix_edge) a.values.push_back(e == no_edge ? 1.0 : 0.0);
  return a;
}

}  // namespace

PressureStep::PressureStep(const core::DeviceSet& devices, std::size_t device, const EdgeData& data,
                           const DeviceEdgeData& edges, std::span<const std::uint32_t> fixed_pressure,
                           const CgOptions& options, const SpmvShape& shape, NodeHalo* halo,
                           const AmgHierarchy* whole_amg)
    : launch_(devices, device, data.node_count(), "the pressure kernels"),
      halo_(halo),
      cg_(devices.compute(device), unit_pattern(data), shape, options,
          halo ? whole_amg : pressure_hierarchy(data, fixed_pressure, options).get(), halo) {
  const std::vector<std::uint8_t> mask = fixed_node_mask(data.node_count(), fixed_pressure, "fixed pressure");
  const core::Context& context = devices.context(device);
  const core::Queue& queue = launch_.queue();
  fixed_ = upload<cl_uchar>(context, queue, mask);
  rhs_ = core::Buffer<double>(context, data.node_count());
  delta_ = core::Buffer<double>(context, data.node_count());

  const core::Program& program = context.program("fem/fem_pressure.cl", edges.build_options());
  assemble_ = program.kernel("fem_pressure_assemble");
  correct_ = program.kernel("fem_pressure_correct");
  projection_ = program.kernel("fem_pressure_projection");
  // Every kernel starts with the node count, the edge graph and the records; the correction and the
  // projection then take the inverse masses.
  for (core::Kernel* kernel : {&assemble_, &correct_, &projection_}) {
    core::KernelArgs args(*kernel);
    args.add(launch_.nodes()).add(edges.row_start).add(edges.col);
    edges.add_records(args);
    if (kernel != &assemble_) args.add(edges.inv_mass);
  }
}

void PressureStep::assemble(const PressureParameters& param, const core::Buffer<double>& tau,
                            const core::Buffer<double>& u_hat, const core::Buffer<double>& u_n,
                            const core::Buffer<double>& xi, const core::Buffer<double>& p) {
  launch_.check_size(tau, 1, "tau");
  launch_.check_size(u_hat, 3, "u_hat");
  launch_.check_size(u_n, 3, "u_n");
  launch_.check_size(xi, 3, "xi");
  launch_.check_size(p, 1, "p");
  core::KernelArgs(assemble_, core::Precision::f64, 4)
      .add(fixed_)
      .add(tau)
      .real(param.theta_dt())
      .real(param.density)
      .add(u_hat)
      .add(u_n)
      .add(cl_uint{param.mass_correction ? 1u : 0u})
      .add(xi)
      .add(p)
      .add(cg_.values())
      .add(cg_.preconditioner())
      .add(rhs_);
  launch_.launch(assemble_);
}

CgResult PressureStep::run(const PressureParameters& param, const core::Buffer<double>& tau,
                           const core::Buffer<double>& u_hat, const core::Buffer<double>& u_n,
                           core::Buffer<double>& p, core::Buffer<double>& xi, core::Buffer<double>& u) {
  launch_.check_size(u, 3, "u");
  assemble(param, tau, u_hat, u_n, xi, p);
  const CgResult result = cg_.solve(launch_.queue(), rhs_, delta_);
  if (halo_) halo_->exchange(delta_, 1);
  core::KernelArgs(correct_, core::Precision::f64, 5)
      .real(param.theta_dt() / param.density)
      .add(delta_)
      .add(u_hat)
      .add(u)
      .add(p);
  launch_.launch(correct_);
  core::KernelArgs(projection_, 5).add(p).add(xi);
  launch_.launch(projection_);
  if (halo_) {
    halo_->exchange(u, 3);
    halo_->exchange(xi, 3);
  }
  return result;
}

}  // namespace hetflow::fem
