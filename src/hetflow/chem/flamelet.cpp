#include "hetflow/chem/flamelet.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "hetflow/core/number_text.hpp"

namespace hetflow::chem {
namespace {

std::string number(double v) { return core::number_text(v, 6); }

}  // namespace

const char* splitting_name(Splitting s) { return s == Splitting::lie ? "lie" : "strang"; }

Flamelet::Flamelet(const core::DeviceSet& devices, const Mechanism& mechanism, FlameletConfig config)
    : species_(mechanism.species.size()),
      config_(std::move(config)),
      diffusion_(devices, 0, config_.z.size() < 3 ? 1 : config_.z.size() - 2, species_ + 1),
      reactors_(devices, reactor_system(mechanism, config_.jacobian), config_.options) {
  diffusion_.set_operator(flamelet_diffusion_operator(config_.z, config_.chi));
  reactors_.prepare(points());
}

void Flamelet::set_state(std::vector<double> state) {
  if (state.size() != config_.z.size() * components())
    throw core::Error("flamelet: a state of " + std::to_string(state.size()) + " values, expected " +
                      std::to_string(config_.z.size() * components()));
  state_ = std::move(state);
  time_ = 0.0;
  steps_ = 0;
}

void Flamelet::set_dissipation_rates(std::vector<double> chi) {
  diffusion_.set_operator(flamelet_diffusion_operator(config_.z, chi));
  config_.chi = std::move(chi);
}

void Flamelet::check_finite(const std::vector<double>& state, const char* after, double dt) const {
  const std::size_t n = components();
  for (std::size_t i = 0; i < state.size(); ++i)
    if (!std::isfinite(state[i])) {
      const std::size_t node = i / n, k = i % n;
      throw FlameletError("flamelet step " + std::to_string(steps_ + 1) + " (t = " + number(time_) + " to " +
                          number(time_ + dt) + " s): " + (k == species_ ? "T" : "a mass fraction") +
                          " is not finite after " + after + " at grid point " + std::to_string(node) +
                          " (z = " + number(config_.z[node]) + ")");
    }
}

FlameletStep Flamelet::step(double dt) {
  if (state_.empty()) throw core::Error("flamelet: step() before set_state()");
  const std::size_t n = components(), points = this->points();
  std::vector<double> next = state_;
  const bool strang = config_.splitting == Splitting::strang;
  diffusion_.advance(next, strang ? 0.5 * dt : dt);
  check_finite(next, "diffusion", dt);

  ode::Batch batch;
  batch.y0.assign(next.begin() + static_cast<std::ptrdiff_t>(n), next.end() - static_cast<std::ptrdiff_t>(n));
  batch.params.assign(points, config_.pressure);
  batch.t_end = {dt};
  const ode::Result r = reactors_.integrate(batch);
  FlameletStep report;
  for (std::size_t i = 0; i < points; ++i) {
    const ode::Statistics& st = r.statistics[i];
    if (!st.ok())
      throw FlameletError("flamelet step " + std::to_string(steps_ + 1) + " (t = " + number(time_) + " to " +
                          number(time_ + dt) + " s): RADAU5 failed at grid point " + std::to_string(i + 1) +
                          " (z = " + number(config_.z[i + 1]) + "): " + ode::describe(st, r.nmax));
    report.reactor_steps += st.naccpt;
    report.most_reactor_steps = std::max(report.most_reactor_steps, st.naccpt);
  }
  std::copy(r.y.begin(), r.y.end(), next.begin() + static_cast<std::ptrdiff_t>(n));
  check_finite(next, "chemistry", dt);
  if (strang) {
    diffusion_.advance(next, 0.5 * dt);
    check_finite(next, "diffusion", dt);
  }

  double hottest = 0.0, change = 0.0;
  for (std::size_t j = 1; j <= points; ++j) hottest = std::max(hottest, next[j * n + species_]);
  for (std::size_t j = 1; j <= points; ++j)
    for (std::size_t k = 0; k < n; ++k) {
      const double d = std::abs(next[j * n + k] - state_[j * n + k]);
      change = std::max(change, k == species_ ? d / hottest : d);
    }
  report.rate = change / dt;
  state_ = std::move(next);
  time_ += dt;
  ++steps_;
  return report;
}

double temperature_rise(const std::vector<double>& state, const std::vector<double>& mixing, std::size_t components) {
  double rise = 0.0;
  for (std::size_t j = components - 1; j < state.size(); j += components) rise = std::max(rise, state[j] - mixing[j]);
  return rise;
}

}  // namespace hetflow::chem
