#include "hetflow/fem/flow_part.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "hetflow/core/number_text.hpp"

namespace hetflow::fem {
namespace {

std::vector<double> packed(std::span<const Vec3> values) {
  std::vector<double> out;
  out.reserve(3 * values.size());
  for (const Vec3& v : values) out.insert(out.end(), v.begin(), v.end());
  return out;
}

std::vector<Vec3> unpacked(const std::vector<double>& values) {
  std::vector<Vec3> out(values.size() / 3);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = {values[3 * i], values[3 * i + 1], values[3 * i + 2]};
  return out;
}

void check_state(const FlowState& s, std::size_t nodes) {
  if (s.velocity.size() != nodes || s.pressure.size() != nodes || s.projection.size() != nodes)
    throw core::Error("a flow state needs one velocity, pressure and projection per node (" + std::to_string(nodes) +
                      "), got " + std::to_string(s.velocity.size()) + ", " + std::to_string(s.pressure.size()) +
                      " and " + std::to_string(s.projection.size()));
}

}  // namespace

FlowPart::FlowPart(const core::DeviceSet& devices, std::size_t device, std::span<const Point> positions,
                   const EdgeData& data, const FlowParameters& parameters, const BoundaryConstraints& constraints,
                   NodeHalo* halo, const AmgHierarchy* whole_amg)
    : queue_(&devices.compute(device)),
      positions_(positions),
      data_(&data),
      parameters_(parameters),
      constraints_(constraints),
      halo_(halo),
      device_data_(devices, device, data, parameters.edge_precision),
      velocity_constraints_(devices, device, constraints, data.node_count()),
      momentum_(devices, device, device_data_, parameters.momentum, velocity_constraints_, halo),
      pressure_(devices, device, data, device_data_, constraints.pressure_nodes, parameters.cg, parameters.spmv, halo,
                whole_amg, parameters.cg_precision),
      measure_(devices, device, device_data_, parameters.momentum.viscosity, owned()) {
  if (!halo && positions.size() != data.node_count())
    throw core::Error("the mesh has " + std::to_string(positions.size()) + " nodes, its edge data " +
                      std::to_string(data.node_count()));
  if (!(parameters.theta > 0) || !(parameters.max_courant > 0))
    throw core::Error("the pressure factor theta and the Courant limit must be positive, got " +
                      core::number_text(parameters.theta, 6) + " and " + core::number_text(parameters.max_courant, 6));
  const core::Context& context = devices.context(device);
  const std::size_t n = data.node_count();
  for (core::Buffer<double>* v : {&u_, &u_hat_, &u_next_, &xi_}) *v = core::Buffer<double>(context, 3 * n);
  p_ = core::Buffer<double>(context, n);
}

void FlowPart::set_state(const FlowState& given) {
  check_state(given, local_count());
  FlowState s = given;
  apply_constraints(constraints_, s.time, s.velocity);
  for (std::size_t k = 0; k < constraints_.pressure_nodes.size(); ++k)
    s.pressure[constraints_.pressure_nodes[k]] = constraints_.pressure_values[k];
  u_.write(*queue_, packed(s.velocity));
  p_.write(*queue_, s.pressure);
  xi_.write(*queue_, packed(s.projection));
  time_ = s.time;
  step_ = s.step;
  diagnostics_ = measure(u_, p_);
  if (diagnostics_.bad_nodes > 0)
    throw FlowError("the flow state at t = " + core::number_text(time_, 6) + " holds " +
                    std::to_string(diagnostics_.bad_nodes) + " nodes whose velocity or pressure is not finite" +
                    node_text(diagnostics_.first_bad, "first"));
}

FlowState FlowPart::state() const { return {velocity(), pressure(), unpacked(xi_.to_vector(*queue_)), time_, step_}; }

std::vector<Vec3> FlowPart::velocity() const { return unpacked(u_.to_vector(*queue_)); }

std::vector<double> FlowPart::pressure() const { return p_.to_vector(*queue_); }

void FlowPart::set_dirichlet_values(std::span<const Vec3> values) {
  velocity_constraints_.set_dirichlet_values(values);
  constraints_.dirichlet_values.assign(values.begin(), values.end());
}

FlowDiagnostics FlowPart::measure(const core::Buffer<double>& u, const core::Buffer<double>& p) {
  FlowDiagnostics d = measure_.measure(u, p);
  if (!halo_) return d;
  const double first_bad = static_cast<double>(d.bad_nodes > 0 ? global(d.first_bad) : positions_.size());
  const std::array<double, 6> mine{d.kinetic_energy, d.divergence * d.divergence, d.stability_rate, d.max_speed,
                                   static_cast<double>(d.bad_nodes), first_bad};
  const std::vector<double> all = halo_->all_gather(mine);
  FlowDiagnostics sum;
  double divergence = 0, first = static_cast<double>(positions_.size());
  for (std::size_t k = 0; k < all.size(); k += mine.size()) {
    sum.kinetic_energy += all[k];
    divergence += all[k + 1];
    sum.stability_rate = std::max(sum.stability_rate, all[k + 2]);
    sum.max_speed = std::max(sum.max_speed, all[k + 3]);
    sum.bad_nodes += static_cast<std::size_t>(all[k + 4]);
    first = std::min(first, all[k + 5]);
  }
  sum.divergence = std::sqrt(divergence);
  sum.first_bad = static_cast<std::size_t>(first);
  return sum;
}

std::size_t FlowPart::fastest_node(const core::Buffer<double>& u) {
  const std::vector<double> rates =
      stability_rates(*data_, unpacked(u.to_vector(*queue_)), parameters_.momentum.viscosity);
  const auto own_end = rates.begin() + static_cast<std::ptrdiff_t>(owned());
  const auto worst = static_cast<std::size_t>(std::max_element(rates.begin(), own_end) - rates.begin());
  if (!halo_) return worst;
  const std::array<double, 2> mine{rates[worst], static_cast<double>(global(worst))};
  const std::vector<double> all = halo_->all_gather(mine);
  std::size_t best = 0;
  for (std::size_t k = 2; k < all.size(); k += 2) {
    if (all[k] > all[best] || (all[k] == all[best] && all[k + 1] < all[best + 1])) best = k;
  }
  return static_cast<std::size_t>(all[best + 1]);
}

StepReport FlowPart::advance(double dt) {
  check_time_step(dt);
  StepReport report;
  report.step = step_ + 1;
  report.dt = dt;
  momentum_.advance(u_, p_, time_, dt, u_hat_);
  const PressureParameters pressure{dt, parameters_.momentum.density, parameters_.theta, parameters_.mass_correction};
  report.cg = pressure_.run(pressure, momentum_.tau(), u_hat_, u_, p_, xi_, u_next_);
  velocity_constraints_.apply(u_next_, time_ + dt);
  if (!report.cg.converged())
    fail(std::string("the pressure solve failed: ") + to_string(report.cg.status) + " after " +
             std::to_string(report.cg.iterations) + " iterations, relative residual " +
             core::number_text(report.cg.residual, 3),
         positions_.size(), "");
  report.diagnostics = measure(u_next_, p_);
  if (report.diagnostics.bad_nodes > 0)
    fail(std::to_string(report.diagnostics.bad_nodes) + " nodes hold a velocity or pressure that is not finite",
         report.diagnostics.first_bad, "first");
  report.courant = dt * report.diagnostics.stability_rate;
  if (report.courant > parameters_.max_courant) {
    fail("the Courant number dt * rate = " + core::number_text(report.courant, 4) + " exceeds " +
             core::number_text(parameters_.max_courant, 4) + " (dt = " + core::number_text(dt, 4) +
             "); take a smaller time step or Courant number",
         fastest_node(u_next_), "largest");
  }
  std::swap(u_, u_next_);
  diagnostics_ = report.diagnostics;
  time_ += dt;
  step_ = report.step;
  report.time = time_;
  return report;
}

std::string FlowPart::node_text(std::size_t node, const char* which) const {
  if (node >= positions_.size()) return "";
  const Point& x = positions_[node];
  return std::string(", ") + which + " at node " + std::to_string(node) + " (" + core::number_text(x[0], 6) + ", " +
         core::number_text(x[1], 6) + ", " + core::number_text(x[2], 6) + ")";
}

void FlowPart::fail(const std::string& reason, std::size_t node, const char* which) const {
  throw FlowError("step " + std::to_string(step_ + 1) + " (from t = " + core::number_text(time_, 6) + "): " + reason +
                  node_text(node, which));
}

}  // namespace hetflow::fem
