#include "hetflow/fem/step_diagnostics.hpp"

#include <algorithm>
#include <cmath>

#include "hetflow/core/build_options.hpp"
#include "hetflow/core/kernel_args.hpp"
#include "hetflow/core/program.hpp"

namespace hetflow::fem {
namespace {

// A group's partials, in fem_diagnostics.cl's slot order.
constexpr std::size_t slot_count = 6;

double norm(const Vec3& v) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

Vec3 minus(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }

double node_rate(double relative_speed, double h, double viscosity) {
  return 2 * relative_speed / h + 4 * viscosity / (h * h);
}

}  // namespace

std::vector<double> stability_rates(const EdgeData& data, std::span<const Vec3> u, double viscosity) {
  check_size(data, u.size(), "u");
  std::vector<double> rates(u.size());
  for (std::size_t i = 0; i < u.size(); ++i) {
    double relative = norm(u[i]);
    for (std::uint32_t k = data.row_start[i]; k < data.row_start[i + 1]; ++k)
      relative = std::max(relative, norm(minus(u[data.col[k]], u[i])));
    rates[i] = node_rate(relative, data.h_min[i], viscosity);
  }
  return rates;
}

FlowDiagnostics flow_diagnostics(const EdgeData& data, std::span<const Vec3> u, std::span<const double> p,
                                 double viscosity) {
  check_size(data, p.size(), "p");
  const std::vector<double> divergence = strong_divergence(data, u);
  const std::vector<double> rates = stability_rates(data, u, viscosity);
  FlowDiagnostics d;
  d.first_bad = u.size();
  for (std::size_t i = 0; i < u.size(); ++i) {
    const double speed = norm(u[i]);
    if (!std::isfinite(speed) || !std::isfinite(p[i]) || !std::isfinite(divergence[i])) {
      if (d.bad_nodes++ == 0) d.first_bad = i;
      continue;
    }
    d.kinetic_energy += 0.5 * data.lumped_mass[i] * speed * speed;
    d.divergence += divergence[i] * divergence[i] / data.lumped_mass[i];
    d.stability_rate = std::max(d.stability_rate, rates[i]);
    d.max_speed = std::max(d.max_speed, speed);
  }
  d.divergence = std::sqrt(d.divergence);
  return d;
}

StepDiagnostics::StepDiagnostics(const core::DeviceSet& devices, std::size_t device, const DeviceEdgeData& data,
                                 double viscosity, std::size_t rows)
    : launch_(devices, device, data.nodes, "the diagnostics kernels"), rows_(std::min<std::size_t>(rows, data.nodes)) {
  const core::Context& context = devices.context(device);
  partial_ = core::Buffer<double>(context, slot_count * launch_.groups());
  total_ = core::Buffer<double>(context, slot_count);
  const core::Program& program = context.program(
      "fem/fem_diagnostics.cl",
      data.build_options().define("DIAG_WG", static_cast<long long>(NodeLaunch::work_group)));
  kernel_ = program.kernel("fem_step_diagnostics");
  core::KernelArgs args(kernel_, core::Precision::f64);
  args.add(static_cast<cl_uint>(rows_));
  data.add_graph(args);
  args.add(data.mass).add(data.h_min).skip(2).real(viscosity).add(partial_);
  total_kernel_ = program.kernel("fem_diagnostics_total");
  core::KernelArgs(total_kernel_).add(static_cast<cl_uint>(launch_.groups())).add(partial_).add(total_);
}

FlowDiagnostics StepDiagnostics::measure(const core::Buffer<double>& u, const core::Buffer<double>& p) {
  enqueue(u, p);
  return read();
}

void StepDiagnostics::enqueue(const core::Buffer<double>& u, const core::Buffer<double>& p) {
  launch_.check_size(u, 3, "u");
  launch_.check_size(p, 1, "p");
  core::KernelArgs(kernel_, 6).add(u).add(p);
  launch_.launch(kernel_);
  total_kernel_.enqueue(launch_.queue(), NodeLaunch::work_group, NodeLaunch::work_group);
}

FlowDiagnostics StepDiagnostics::read() const {
  const std::vector<double> s = total_.to_vector(launch_.queue());
  FlowDiagnostics d;
  d.kinetic_energy = s[0];
  d.divergence = std::sqrt(s[1]);
  d.stability_rate = s[2];
  d.max_speed = s[3];
  d.bad_nodes = static_cast<std::size_t>(s[4]);
  d.first_bad = static_cast<std::size_t>(s[5]);
  return d;
}

}  // namespace hetflow::fem
