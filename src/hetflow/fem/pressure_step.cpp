#include "hetflow/fem/pressure_step.hpp"

#include <algorithm>
#include <string>

#include "hetflow/core/build_options.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/kernel_args.hpp"
#include "hetflow/core/program.hpp"

namespace hetflow::fem {
namespace {

// One launch width per kernel and device, whatever the node count, as the edge kernels use.
constexpr std::size_t work_group = 64;
constexpr std::size_t groups_per_unit = 32;

template <class T>
core::Buffer<T> upload(const core::Context& context, const core::Queue& queue, std::span<const T> values) {
  core::Buffer<T> buffer(context, values.size(), CL_MEM_READ_ONLY);
  buffer.write(queue, values);
  return buffer;
}

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
    : queue_(&devices.compute(device)),
      global_(core::strided_range(devices.device(device).info, work_group, groups_per_unit)),
      local_(work_group),
      nodes_(static_cast<cl_uint>(data.node_count())),
      fixed_velocity_count_(static_cast<cl_uint>(fixed_velocity.nodes.size())),
      cg_(devices.compute(device), unit_pattern(data), shape, options) {
  if (fixed_velocity.nodes.size() != fixed_velocity.values.size())
    throw core::Error("fixed velocity: " + std::to_string(fixed_velocity.nodes.size()) + " nodes but " +
                      std::to_string(fixed_velocity.values.size()) + " values");
  fixed_node_mask(data.node_count(), fixed_velocity.nodes, "fixed velocity");
  const std::vector<std::uint8_t> mask = fixed_node_mask(data.node_count(), fixed_pressure, "fixed pressure");
  const core::Context& context = devices.context(device);
  row_start_ = upload<std::uint32_t>(context, *queue_, data.row_start);
  col_ = upload<std::uint32_t>(context, *queue_, data.col);
  records_ = upload<double>(context, *queue_, data.records);
  inv_mass_ = upload<double>(context, *queue_, data.inv_lumped_mass);
  fixed_ = upload<cl_uchar>(context, *queue_, mask);
  // A buffer is never empty: an empty list keeps one unused slot.
  std::vector<std::uint32_t> velocity_nodes = fixed_velocity.nodes;
  std::vector<double> velocity_values = flatten(fixed_velocity.values);
  velocity_nodes.resize(std::max<std::size_t>(velocity_nodes.size(), 1), 0);
  velocity_values.resize(std::max<std::size_t>(velocity_values.size(), 3), 0.0);
  velocity_nodes_ = upload<std::uint32_t>(context, *queue_, velocity_nodes);
  velocity_values_ = upload<double>(context, *queue_, velocity_values);
  rhs_ = core::Buffer<double>(context, data.node_count());
  delta_ = core::Buffer<double>(context, data.node_count());

  const core::Program& program = context.program("fem/fem_pressure.cl", core::BuildOptions(core::Precision::f64));
  assemble_ = program.kernel("fem_pressure_assemble");
  correct_ = program.kernel("fem_pressure_correct");
  projection_ = program.kernel("fem_pressure_projection");
  set_velocity_ = program.kernel("fem_set_velocity");
  core::KernelArgs(projection_).add(nodes_).add(row_start_).add(col_).add(records_).add(inv_mass_);
  core::KernelArgs(set_velocity_).add(fixed_velocity_count_).add(velocity_nodes_).add(velocity_values_);
}

void PressureStep::check_size(const core::Buffer<double>& field, std::size_t per_node, const char* name) const {
  if (field.size() != per_node * nodes_)
    throw core::Error(std::string("the device field ") + name + " holds " + std::to_string(field.size()) +
                      " values; the pressure step needs " + std::to_string(per_node * nodes_));
}

void PressureStep::assemble(const PressureParameters& param, const core::Buffer<double>& tau,
                            const core::Buffer<double>& u_hat, const core::Buffer<double>& xi,
                            const core::Buffer<double>& p) {
  check_size(tau, 1, "tau");
  check_size(u_hat, 3, "u_hat");
  check_size(xi, 3, "xi");
  check_size(p, 1, "p");
  core::KernelArgs(assemble_, core::Precision::f64)
      .add(nodes_)
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
  assemble_.launch(*queue_, global_, local_);
}

CgResult PressureStep::run(const PressureParameters& param, const core::Buffer<double>& tau,
                           const core::Buffer<double>& u_hat, core::Buffer<double>& p, core::Buffer<double>& xi,
                           core::Buffer<double>& u) {
  check_size(u, 3, "u");
  assemble(param, tau, u_hat, xi, p);
  const CgResult result = cg_.solve(*queue_, rhs_, delta_);
  core::KernelArgs(correct_, core::Precision::f64)
      .add(nodes_)
      .add(row_start_)
      .add(col_)
      .add(records_)
      .add(inv_mass_)
      .real(param.theta_dt() / param.density)
      .add(delta_)
      .add(u_hat)
      .add(u)
      .add(p);
  correct_.launch(*queue_, global_, local_);
  core::KernelArgs(projection_, 5).add(p).add(xi);
  projection_.launch(*queue_, global_, local_);
  if (fixed_velocity_count_ > 0) {
    core::KernelArgs(set_velocity_, 3).add(u);
    set_velocity_.launch(*queue_, global_, local_);
  }
  return result;
}

}  // namespace hetflow::fem
