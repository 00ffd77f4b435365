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

std::vector<double> flatten(const std::vector<Vec3>& v) {
  std::vector<double> out;
  for (const Vec3& x : v) out.insert(out.end(), x.begin(), x.end());
  return out;
}

}  // namespace

PressureStep::PressureStep(const core::DeviceSet& devices, std::size_t device, const EdgeData& data,
                           std::span<const std::uint32_t> fixed_pressure, const FixedVelocity& fixed_velocity,
                           const CgOptions& options, const SpmvShape& shape)
    : launch_(devices, device, data.node_count(), "the pressure kernels"),
      fixed_velocity_count_(static_cast<cl_uint>(fixed_velocity.nodes.size())),
      cg_(devices.compute(device), unit_pattern(data), shape, options,
          pressure_hierarchy(data, fixed_pressure, options).get()) {
  if (fixed_velocity.nodes.size() != fixed_velocity.values.size())
    throw core::Error("fixed velocity: " + std::to_string(fixed_velocity.nodes.size()) + " nodes but " +
                      std::to_string(fixed_velocity.values.size()) + " values");
  fixed_node_mask(data.node_count(), fixed_velocity.nodes, "fixed velocity");
  const std::vector<std::uint8_t> mask = fixed_node_mask(data.node_count(), fixed_pressure, "fixed pressure");
  const core::Context& context = devices.context(device);
  const core::Queue& queue = launch_.queue();
  row_start_ = upload<std::uint32_t>(context, queue, data.row_start);
  col_ = upload<std::uint32_t>(context, queue, data.col);
  records_ = upload<double>(context, queue, data.records);
  inv_mass_ = upload<double>(context, queue, data.inv_lumped_mass);
  fixed_ = upload<cl_uchar>(context, queue, mask);
  // A buffer is never empty: an empty list keeps one unused slot.
  std::vector<std::uint32_t> velocity_nodes = fixed_velocity.nodes;
  std::vector<double> velocity_values = flatten(fixed_velocity.values);
  velocity_nodes.resize(std::max<std::size_t>(velocity_nodes.size(), 1), 0);
  velocity_values.resize(std::max<std::size_t>(velocity_values.size(), 3), 0.0);
  velocity_nodes_ = upload<std::uint32_t>(context, queue, velocity_nodes);
  velocity_values_ = upload<double>(context, queue, velocity_values);
  rhs_ = core::Buffer<double>(context, data.node_count());
  delta_ = core::Buffer<double>(context, data.node_count());

  const core::Program& program = context.program("fem/fem_pressure.cl", core::BuildOptions(core::Precision::f64));
  assemble_ = program.kernel("fem_pressure_assemble");
  correct_ = program.kernel("fem_pressure_correct");
  projection_ = program.kernel("fem_pressure_projection");
  // The fixed-velocity list is the momentum step's kernel, applied here after the correction.
  set_velocity_ = context.program("fem/fem_momentum.cl", core::BuildOptions(core::Precision::f64))
                      .kernel("fem_impose_velocity");
  core::KernelArgs(projection_).add(launch_.nodes()).add(row_start_).add(col_).add(records_).add(inv_mass_);
  core::KernelArgs(set_velocity_).add(fixed_velocity_count_).add(velocity_nodes_).add(velocity_values_);
}

void PressureStep::assemble(const PressureParameters& param, const core::Buffer<double>& tau,
                            const core::Buffer<double>& u_hat, const core::Buffer<double>& xi,
                            const core::Buffer<double>& p) {
  launch_.check_size(tau, 1, "tau");
  launch_.check_size(u_hat, 3, "u_hat");
  launch_.check_size(xi, 3, "xi");
  launch_.check_size(p, 1, "p");
  core::KernelArgs(assemble_, core::Precision::f64)
      .add(launch_.nodes())
      .add(row_start_)
      .add(col_)
      .add(records_)
      .add(fixed_)
      .add(tau)
      .real(param.theta_dt())
      .real(param.density)
      .add(u_hat)
      .add(xi)
      .add(p)
      .add(cg_.values())
      .add(cg_.preconditioner())
      .add(rhs_);
  launch_.launch(assemble_);
}

CgResult PressureStep::run(const PressureParameters& param, const core::Buffer<double>& tau,
                           const core::Buffer<double>& u_hat, core::Buffer<double>& p, core::Buffer<double>& xi,
                           core::Buffer<double>& u) {
  launch_.check_size(u, 3, "u");
  assemble(param, tau, u_hat, xi, p);
  const CgResult result = cg_.solve(launch_.queue(), rhs_, delta_);
  core::KernelArgs(correct_, core::Precision::f64)
      .add(launch_.nodes())
      .add(row_start_)
      .add(col_)
      .add(records_)
      .add(inv_mass_)
      .real(param.theta_dt() / param.density)
      .add(delta_)
      .add(u_hat)
      .add(u)
      .add(p);
  launch_.launch(correct_);
  core::KernelArgs(projection_, 5).add(p).add(xi);
  launch_.launch(projection_);
  if (fixed_velocity_count_ > 0) {
    core::KernelArgs(set_velocity_, 3).add(u);
    launch_.launch(set_velocity_);
  }
  return result;
}

}  // namespace hetflow::fem
