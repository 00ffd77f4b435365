#include "hetflow/karst/inversion.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "hetflow/core/error.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/optim/bounds.hpp"
#include "hetflow/optim/cholesky.hpp"
#include "hetflow/optim/finite_difference.hpp"
#include "hetflow/optim/levenberg_marquardt.hpp"
#include "hetflow/optim/nlcg.hpp"
#include "hetflow/optim/spread.hpp"

namespace hetflow::karst {
namespace {

using core::shortest_text;

const optim::Bounds unit_box({0, 0, 0}, {1, 1, 1});

// Step ends: `substeps` equal steps in each interval (0, t_0], (t_0, t_1], ...; observation k is the
// output of step (k + 1) substeps - 1.
std::vector<double> refined_times(const std::vector<double>& observed, std::size_t substeps) {
  std::vector<double> times;
  times.reserve(observed.size() * substeps);
  double from = 0;
  for (const double to : observed) {
    for (std::size_t s = 1; s < substeps; ++s)
      times.push_back(from + (to - from) * static_cast<double>(s) / static_cast<double>(substeps));
    times.push_back(to);
    from = to;
  }
  return times;
}

}  // namespace

void ParameterBox::check(const HeatPoint& start) const {
  for (std::size_t i = 0; i < 3; ++i) {
    const std::string name = heat_point_names[i];
    const std::string range = "[" + shortest_text(lower[i]) + ", " + shortest_text(upper[i]) + "]";
    if (!std::isfinite(lower[i]) || !std::isfinite(upper[i]) || !(lower[i] < upper[i]))
      throw core::Error("karst inversion: bounds of " + name + " " + range + ": expected finite lower < upper");
    // St = 0 is a model (no exchange); Pe = 0 or Theta = 0 are not.
    if (i == 1 ? lower[i] < 0 : lower[i] <= 0)
      throw core::Error("karst inversion: bounds of " + name + " " + range + " reach outside the model's " + name +
                        (i == 1 ? " >= 0" : " > 0"));
    if (!(start[i] >= lower[i] && start[i] <= upper[i]))
      throw core::Error("karst inversion: start " + name + " = " + shortest_text(start[i]) + " is outside its bounds " +
                        range);
  }
}

optim::Point ParameterBox::to_unit(const HeatPoint& x) const {
  optim::Point u(3);
  // Clamped: rounding may put a start on a bound a hair outside [0, 1], which the methods would reject.
  for (std::size_t i = 0; i < 3; ++i) u[i] = std::clamp((x[i] - lower[i]) / (upper[i] - lower[i]), 0.0, 1.0);
  return u;
}

HeatPoint ParameterBox::from_unit(std::span<const double> u) const {
  HeatPoint x{};
  for (std::size_t i = 0; i < 3; ++i) x[i] = lower[i] + u[i] * (upper[i] - lower[i]);
  return x;
}

KarstMisfit::KarstMisfit(KarstDevice& device, MisfitProblem problem, ParameterBox box)
    : device_(device), problem_(std::move(problem)), box_(box) {
  check_series(problem_.observed, "observed outlet");
  if (!(problem_.observed.t.front() > 0))
    throw core::Error("observed outlet series: t[0] = " + shortest_text(problem_.observed.t.front()) +
                      " is not after the start t* = 0");
  if (problem_.substeps == 0) throw core::Error("karst inversion: substeps must be at least 1");
  problem_.grid.model = Model::heat;
  problem_.grid.times = refined_times(problem_.observed.t, problem_.substeps);
  step_forcing(problem_.inlet, problem_.velocity, problem_.grid);  // validates grid and forcing now, not per batch
}

KarstParameters KarstMisfit::parameters(std::span<const double> unit_point) const {
  const HeatPoint x = box_.from_unit(unit_point);
  return {x[0], x[1], x[2], problem_.Psi, 0};
}

std::vector<double> KarstMisfit::at_observations(std::span<const double> model_values) const {
  std::vector<double> v(problem_.observed.size());
  for (std::size_t k = 0; k < v.size(); ++k) v[k] = model_values[(k + 1) * problem_.substeps - 1];
  return v;
}

std::vector<Series> KarstMisfit::outlet(std::span<const KarstParameters> sets) {
  std::vector<Series> runs = device_.run(problem_.inlet, problem_.velocity, sets, problem_.grid);
  forward_runs_ += sets.size();
  for (Series& s : runs) s = {problem_.observed.t, at_observations(s.value)};
  return runs;
}

std::vector<optim::Evaluation> KarstMisfit::operator()(std::span<const optim::Point> unit_points) {
  std::vector<optim::Evaluation> out(unit_points.size());
  std::vector<KarstParameters> sets;
  std::vector<std::size_t> index;  // of sets[j] in the batch
  for (std::size_t i = 0; i < unit_points.size(); ++i) {
    const KarstParameters p = parameters(unit_points[i]);
    try {
      check_parameters(std::span(&p, 1), Model::heat);
      sets.push_back(p);
      index.push_back(i);
    } catch (const core::Error& e) {
      out[i] = optim::Evaluation::failed(e.what());
    }
  }
  if (sets.empty()) return out;
  std::vector<Series> runs;
  try {
    runs = outlet(sets);
  } catch (const std::exception& e) {
    for (const std::size_t i : index) out[i] = optim::Evaluation::failed(std::string("forward model: ") + e.what());
    return out;
  }
  const Series& observed = problem_.observed;
  for (std::size_t j = 0; j < sets.size(); ++j) {
    std::vector<double> r(observed.size());
    std::string failure;
    for (std::size_t k = 0; k < r.size() && failure.empty(); ++k) {
      r[k] = runs[j].value[k] - observed.value[k];
      if (!std::isfinite(runs[j].value[k]))
        failure = "forward model: outlet value " + shortest_text(runs[j].value[k]) + " at t* = " + shortest_text(observed.t[k]);
    }
    out[index[j]] = failure.empty() ? optim::Evaluation::of_residuals(std::move(r)) : optim::Evaluation::failed(failure);
  }
  return out;
}

optim::Result minimise(const optim::BatchObjective& objective, const ParameterBox& box, const InversionOptions& options) {
  box.check(options.start);
  const optim::Point start = box.to_unit(options.start);
  if (options.method == Method::levenberg_marquardt) {
    optim::LevenbergMarquardtOptions o;
    o.bounds = unit_box;
    o.run = options.run;
    return optim::levenberg_marquardt(objective, start, o);
  }
  optim::NlcgOptions o;
  o.bounds = unit_box;
  o.run = options.run;
  // The misfit is 1/2 sum r^2 over hundreds of samples; with noise-free data it falls to round-off, so an
  // absolute gradient test would stop too early there. The value and step tests end the run instead.
  o.gradient_tolerance = 0;
  return optim::nlcg(objective, start, o);
}

InversionResult invert(KarstMisfit& misfit, const InversionOptions& options, core::Link* processes) {
  InversionResult result;
  optim::BatchObjective objective = [&misfit](std::span<const optim::Point> p) { return misfit(p); };
  if (processes) objective = optim::spread_over(*processes, std::move(objective));
  result.optimisation = minimise(objective, misfit.box(), options);
  const optim::Result& opt = result.optimisation;
  if (!std::isfinite(opt.value))
    throw core::Error("karst inversion: no candidate could be evaluated: " + opt.stop_reason);
  result.best = misfit.parameters(opt.best);

  // The solution and its central-difference stencil in one device run: the residuals there (NLCG keeps
  // only the value) and the Jacobian for the uncertainties.
  const optim::DifferenceStencil stencil(opt.best, unit_box, {});
  std::vector<optim::Point> batch{opt.best};
  batch.insert(batch.end(), stencil.points().begin(), stencil.points().end());
  const std::vector<optim::Evaluation> evaluations = objective(batch);
  if (!evaluations[0].ok()) throw core::Error("karst inversion: re-running the solution failed: " + evaluations[0].failure);
  const std::vector<double>& r = evaluations[0].residuals;
  const Series& observed = misfit.observed();
  const double k = static_cast<double>(r.size());
  double sum = 0;
  result.fit = observed;
  for (std::size_t i = 0; i < r.size(); ++i) {
    result.fit.value[i] += r[i];
    sum += r[i] * r[i];
  }
  result.rms = std::sqrt(sum / k);
  result.noise = options.noise > 0 ? options.noise : r.size() > 3 ? std::sqrt(sum / (k - 3)) : result.rms;

  result.sigma.fill(std::numeric_limits<double>::quiet_NaN());
  const auto jacobian = stencil.derivatives(r, std::span(evaluations).subspan(1), true);  // row i: dr/du_i
  if (jacobian) {
    std::vector<double> jtj(9);
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t j = 0; j < 3; ++j)
        for (std::size_t m = 0; m < r.size(); ++m) jtj[i * 3 + j] += (*jacobian)[i][m] * (*jacobian)[j][m];
    for (std::size_t i = 0; i < 3; ++i) {
      std::vector<double> e(3, 0.0);
      e[i] = 1;
      if (!optim::cholesky_solve(jtj, e)) break;
      // Back from unit coordinates: x = lower + u (upper - lower).
      result.sigma[i] = result.noise * std::sqrt(e[i]) * (misfit.box().upper[i] - misfit.box().lower[i]);
    }
  }
  result.forward_runs = misfit.forward_runs();
  if (processes) {
    const double mine = static_cast<double>(result.forward_runs);
    result.forward_runs = 0;
    for (const std::vector<double>& runs : processes->all_gather(std::span(&mine, 1)))
      result.forward_runs += static_cast<std::size_t>(runs.at(0));
  }
  return result;
}

}  // namespace hetflow::karst
