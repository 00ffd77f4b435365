#include "hetflow/fem/pressure_step.hpp"

#include <algorithm>
#include <string>
#include <type_traits>

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
                           const AmgHierarchy* whole_amg, core::Precision precision)
    : launch_(devices, device, data.node_count(), "the pressure kernels"), halo_(halo) {
  const bool fp32 = precision == core::Precision::f32;
  if (fp32 && halo) throw core::Error("an FP32 pressure solve runs on one device; a split run solves in FP64");
  const std::vector<std::uint8_t> mask = fixed_node_mask(data.node_count(), fixed_pressure, "fixed pressure");
  const core::Context& context = devices.context(device);
  const core::Queue& queue = launch_.queue();
  fixed_ = core::upload(queue, mask, CL_MEM_READ_ONLY);
  const std::unique_ptr<AmgHierarchy> own_amg = halo ? nullptr : pressure_hierarchy(data, fixed_pressure, options);
  const AmgHierarchy* amg = halo ? whole_amg : own_amg.get();
  if (fp32) {
    solve32_ = std::make_unique<Solve<float>>(queue, unit_pattern(data), shape, options, amg, halo);
  } else {
    solve64_ = std::make_unique<Solve<double>>(queue, unit_pattern(data), shape, options, amg, halo);
  }

  core::BuildOptions build = edges.build_options();
  if (fp32) build.define("CG_REAL", "float");
  const core::Program& program = context.program("fem/fem_pressure.cl", build);
  assemble_ = program.kernel("fem_pressure_assemble");
  correct_ = program.kernel("fem_pressure_correct");
  projection_ = program.kernel("fem_pressure_projection");
  // Every kernel starts with the node count, the edge graph and the records; the correction and the
  // projection then take the inverse masses.
  for (core::Kernel* kernel : {&assemble_, &correct_, &projection_}) {
    core::KernelArgs args(*kernel);
    args.add(launch_.nodes());
    edges.add_graph(args);
    if (kernel != &assemble_) args.add(edges.inv_mass);
  }
}

const PressureStep::Solve<double>& PressureStep::fp64() const {
  if (!solve64_) throw core::Error("the pressure step solves in FP32: its matrix and vectors are not FP64");
  return *solve64_;
}

void PressureStep::assemble(const PressureParameters& param, const core::Buffer<double>& tau,
                            const core::Buffer<double>& u_hat, const core::Buffer<double>& u_n,
                            const core::Buffer<double>& xi, const core::Buffer<double>& p) {
  launch_.check_size(tau, 1, "tau");
  launch_.check_size(u_hat, 3, "u_hat");
  launch_.check_size(u_n, 3, "u_n");
  launch_.check_size(xi, 3, "xi");
  launch_.check_size(p, 1, "p");
  core::KernelArgs args(assemble_, core::Precision::f64, 4);
  args.add(fixed_)
      .add(tau)
      .real(param.theta_dt())
      .real(param.density)
      .add(u_hat)
      .add(u_n)
      .add(cl_uint{param.mass_correction ? 1u : 0u})
      .add(xi)
      .add(p);
  with_solve([&](auto& s) {
    args.add(s.cg.matrix().slice_start).add(s.cg.values()).add(s.cg.preconditioner()).add(s.rhs);
  });
  launch_.launch(assemble_);
}

CgResult PressureStep::run(const PressureParameters& param, const core::Buffer<double>& tau,
                           const core::Buffer<double>& u_hat, const core::Buffer<double>& u_n,
                           core::Buffer<double>& p, core::Buffer<double>& xi, core::Buffer<double>& u) {
  launch_.check_size(u, 3, "u");
  assemble(param, tau, u_hat, u_n, xi, p);
  const CgResult result = with_solve([&](auto& s) {
    const CgResult r = s.cg.solve(launch_.queue(), s.rhs, s.delta);
    if constexpr (std::is_same_v<decltype(s.delta), core::Buffer<double>>) {
      if (halo_) halo_->exchange(s.delta, 1);
    }
    core::KernelArgs(correct_, core::Precision::f64, 5)
        .real(param.theta_dt() / param.density)
        .add(s.delta)
        .add(u_hat)
        .add(u)
        .add(p);
    return r;
  });
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
