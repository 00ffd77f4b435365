#include "hetflow/app/chem/ignition_search.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <variant>

#include "hetflow/chem/kinetics.hpp"
#include "hetflow/chem/reactor.hpp"
#include "hetflow/chem/reactor_source.hpp"
#include "hetflow/core/number_text.hpp"

namespace hetflow::app {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

struct Sample {
  double t = 0;
  std::vector<double> y;  // mass fractions, then T
  double slope = 0;       // dT/dt from the host reactor
  double temperature() const { return y.back(); }
};

// 0, then first_sample * 10^(i / samples_per_decade) below end_time, then end_time.
std::vector<double> sample_grid(const IgnitionSettings& s) {
  std::vector<double> times{0.0};
  for (int i = 0;; ++i) {
    const double t = s.first_sample * std::pow(10.0, static_cast<double>(i) / s.samples_per_decade);
    if (t >= s.end_time * (1 - 1e-9)) break;
    times.push_back(t);
  }
  times.push_back(s.end_time);
  return times;
}

// The samples around the ignition: the first pair across T0 + rise, or the largest dT/dt and its
// neighbours; nullopt when T0 + rise is never reached.
std::optional<std::pair<std::size_t, std::size_t>> bracket(const std::vector<Sample>& s, const IgnitionSettings& settings,
                                                           double target) {
  const auto hot = std::find_if(s.begin(), s.end(), [&](const Sample& x) { return x.temperature() >= target; });
  if (hot == s.end()) return std::nullopt;
  if (settings.criterion == IgnitionCriterion::temperature_rise) {
    const auto i = static_cast<std::size_t>(hot - s.begin());
    if (i == 0) return std::nullopt;  // only a refined bracket's lower end, which lies below the target
    return std::pair{i - 1, i};
  }
  const auto top = static_cast<std::size_t>(
      std::max_element(s.begin(), s.end(), [](const Sample& a, const Sample& b) { return a.slope < b.slope; }) - s.begin());
  return std::pair{top > 0 ? top - 1 : 0, std::min(top + 1, s.size() - 1)};
}

// The time where the cubic Hermite interpolant of T (values and slopes at a and b) reaches target,
// by bisection: T(a) < target <= T(b) brackets a root.
double hermite_crossing(const Sample& a, const Sample& b, double target) {
  const double h = b.t - a.t;
  const auto p = [&](double s) {
    const double s2 = s * s, s3 = s2 * s;
    return (2 * s3 - 3 * s2 + 1) * a.temperature() + (s3 - 2 * s2 + s) * h * a.slope +
           (-2 * s3 + 3 * s2) * b.temperature() + (s3 - s2) * h * b.slope - target;
  };
  double lo = 0, hi = 1;
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    (p(mid) < 0 ? lo : hi) = mid;
  }
  return a.t + 0.5 * (lo + hi) * h;
}

// The vertex of the parabola through the largest dT/dt and its neighbours; an end sample as it is.
double slope_peak(const std::vector<Sample>& s) {
  const auto j = static_cast<std::size_t>(
      std::max_element(s.begin(), s.end(), [](const Sample& a, const Sample& b) { return a.slope < b.slope; }) - s.begin());
  if (j == 0 || j + 1 == s.size()) return s[j].t;
  const Sample &p0 = s[j - 1], &p1 = s[j], &p2 = s[j + 1];
  const double d1 = (p1.slope - p0.slope) / (p1.t - p0.t), d2 = (p2.slope - p1.slope) / (p2.t - p1.t);
  const double a = (d2 - d1) / (p2.t - p0.t);
  return a < 0 ? 0.5 * (p0.t + p1.t) - d1 / (2 * a) : p1.t;
}

std::string failure(const ode::Statistics& s, long nmax, double t0, double t1) {
  return "integrating from t = " + core::number_text(t0, 6) + " s to " + core::number_text(t1, 6) +
         " s: " + ode::describe(s, nmax);
}

// One find_ignition call, in its steps: the sample grid, the brackets, their refinement, the delays.
class IgnitionSearch {
 public:
  IgnitionSearch(const ode::Radau5& solver, const chem::Kinetics& kinetics, chem::ReactorKind kind,
                 const std::vector<std::vector<double>>& y0, const std::vector<double>& params,
                 const IgnitionSettings& settings, const std::function<bool(long, long)>& keep_going)
      : solver_(solver), y0_(y0), params_(params), settings_(settings), keep_going_(keep_going),
        systems_(y0.size()), n_(systems_ ? y0[0].size() : 0) {
    for (const double p : params)
      if (kind == chem::ReactorKind::constant_volume)
        reactors_.emplace_back(chem::ConstantVolumeReactor(kinetics, p));
      else
        reactors_.emplace_back(chem::ConstantPressureReactor(kinetics, p));
  }

  IgnitionSweep run() {
    start();
    integrate_grid();
    bracket_ignitions();
    refine_brackets();
    take_delays();
    return std::move(sweep_);
  }

 private:
  Sample sample(std::size_t i, double t, std::vector<double> y) const {
    Sample s{t, std::move(y), 0.0};
    std::vector<double> dydt(n_);
    std::visit([&](const auto& reactor) { reactor.rhs(s.y, dydt); }, reactors_[i]);
    s.slope = dydt.back();
    return s;
  }

  double target(std::size_t i) const { return y0_[i].back() + settings_.rise; }

  // Every system at t = 0, on the sample grid.
  void start() {
    sweep_.times = sample_grid(settings_);
    planned_ = static_cast<long>(sweep_.times.size()) - 1 + settings_.refinements;
    samples_.resize(systems_);
    alive_.assign(systems_, true);
    sweep_.runs.resize(systems_);
    for (std::size_t i = 0; i < systems_; ++i) {
      sweep_.runs[i].temperature.assign(sweep_.times.size(), nan);
      sweep_.runs[i].temperature[0] = y0_[i].back();
      sweep_.runs[i].delay = sweep_.runs[i].final_temperature = nan;
      samples_[i].push_back(sample(i, 0.0, y0_[i]));
    }
  }

  // The sample grid: one launch per interval over the systems still running, each from its last state.
  void integrate_grid() {
    for (std::size_t k = 0; k + 1 < sweep_.times.size() && !stopped_; ++k) {
      std::vector<std::size_t> active;
      ode::Batch batch;
      for (std::size_t i = 0; i < systems_; ++i) {
        if (!alive_[i]) continue;
        active.push_back(i);
        const auto& y = samples_[i].back().y;
        batch.y0.insert(batch.y0.end(), y.begin(), y.end());
        batch.params.push_back(params_[i]);
      }
      if (active.empty()) break;
      batch.t0 = {sweep_.times[k]};
      batch.t_end = {sweep_.times[k + 1]};
      // Burnt, igniting and cold systems side by side would hold each other back on a GPU.
      batch.sort_key = chem::reactor_temperatures(batch.y0, samples_[active[0]].back().y.size() - 1);
      const ode::Result r = solver_.integrate(batch);
      ++sweep_.launches;
      for (std::size_t j = 0; j < active.size(); ++j) {
        IgnitionRun& run = sweep_.runs[active[j]];
        if (!r.statistics[j].ok()) {
          alive_[active[j]] = false;
          run.status = "failed";
          run.reason = failure(r.statistics[j], r.nmax, sweep_.times[k], sweep_.times[k + 1]);
          continue;
        }
        std::vector<double> y(r.y.begin() + static_cast<long>(j * n_), r.y.begin() + static_cast<long>((j + 1) * n_));
        run.temperature[k + 1] = y.back();
        samples_[active[j]].push_back(sample(active[j], sweep_.times[k + 1], std::move(y)));
      }
      stopped_ = !keep_going_(sweep_.launches, planned_);
    }
  }

  // Brackets of the systems that ignited: of those that ran to the end, and of those an interrupted
  // sweep had already seen ignite (their delays come from the samples so far).
  void bracket_ignitions() {
    local_.resize(systems_);
    for (std::size_t i = 0; i < systems_; ++i) {
      IgnitionRun& run = sweep_.runs[i];
      if (!alive_[i]) continue;
      const auto b = bracket(samples_[i], settings_, target(i));
      if (stopped_ && !(b && settled(*b, samples_[i].size()))) {
        run.status = "interrupted";
        run.reason = "the run was interrupted before t = end_time";
        alive_[i] = false;
        continue;
      }
      if (!stopped_) run.final_temperature = samples_[i].back().temperature();
      if (!b) {
        run.status = "no_ignition";
        run.reason = "T stayed below T0 + rise until end_time";
        alive_[i] = false;
        continue;
      }
      local_[i].assign(samples_[i].begin() + static_cast<long>(b->first),
                       samples_[i].begin() + static_cast<long>(b->second) + 1);
    }
  }

  // Whether a bracket found before end_time is final: the first crossing of T0 + rise always is; the
  // largest dT/dt once a later sample has a smaller one.
  bool settled(const std::pair<std::size_t, std::size_t>& b, std::size_t samples) const {
    return settings_.criterion == IgnitionCriterion::temperature_rise || b.second > b.first + 1 ||
           b.second + 1 < samples;
  }

  // Refinement: candidate times inside each bracket, integrated from its lower end, all in one launch.
  void refine_brackets() {
    const auto m = static_cast<std::size_t>(settings_.candidates);
    for (int level = 0; level < settings_.refinements && !stopped_; ++level) {
      std::vector<std::size_t> active;
      ode::Batch batch;
      batch.t0.clear();
      batch.t_end.clear();
      for (std::size_t i = 0; i < systems_; ++i) {
        if (!alive_[i]) continue;
        active.push_back(i);
        const Sample &lo = local_[i].front(), &hi = local_[i].back();
        for (std::size_t c = 1; c <= m; ++c) {
          batch.y0.insert(batch.y0.end(), lo.y.begin(), lo.y.end());
          batch.params.push_back(params_[i]);
          batch.t0.push_back(lo.t);
          batch.t_end.push_back(lo.t + (hi.t - lo.t) * static_cast<double>(c) / static_cast<double>(m + 1));
        }
      }
      if (active.empty()) break;
      const ode::Result r = solver_.integrate(batch);
      ++sweep_.launches;
      for (std::size_t a = 0; a < active.size(); ++a) refine_bracket(active[a], a * m, batch, r);
      stopped_ = !keep_going_(sweep_.launches, planned_);
    }
  }

  // System i's bracket from its candidates, entries first .. first + candidates - 1 of the launch `r`.
  void refine_bracket(std::size_t i, std::size_t first, const ode::Batch& batch, const ode::Result& r) {
    const auto m = static_cast<std::size_t>(settings_.candidates);
    std::vector<Sample> refined{local_[i].front()};
    for (std::size_t c = 0; c < m && alive_[i]; ++c) {
      const std::size_t e = first + c;
      if (!r.statistics[e].ok()) {
        alive_[i] = false;
        sweep_.runs[i].status = "failed";
        sweep_.runs[i].reason = "refining the ignition: " + failure(r.statistics[e], r.nmax, batch.t0[e], batch.t_end[e]);
        break;
      }
      refined.push_back(sample(i, batch.t_end[e], std::vector<double>(r.y.begin() + static_cast<long>(e * n_),
                                                                       r.y.begin() + static_cast<long>((e + 1) * n_))));
    }
    if (!alive_[i]) return;
    refined.push_back(local_[i].back());
    const auto b = bracket(refined, settings_, target(i));
    // A refined T below the target everywhere cannot happen for the rise criterion (hi stays above it);
    // keep the bracket as it was rather than lose the ignition found.
    if (b) local_[i].assign(refined.begin() + static_cast<long>(b->first), refined.begin() + static_cast<long>(b->second) + 1);
  }

  // The delay of every system still bracketed.
  void take_delays() {
    for (std::size_t i = 0; i < systems_; ++i) {
      if (!alive_[i]) continue;
      IgnitionRun& run = sweep_.runs[i];
      run.status = "ignited";
      run.delay = settings_.criterion == IgnitionCriterion::temperature_rise
                      ? hermite_crossing(local_[i].front(), local_[i].back(), target(i))
                      : slope_peak(local_[i]);
      if (stopped_) run.reason = "refinement interrupted: the delay comes from a wider bracket";
    }
    sweep_.stopped = stopped_;
  }

  const ode::Radau5& solver_;
  const std::vector<std::vector<double>>& y0_;
  const std::vector<double>& params_;
  const IgnitionSettings& settings_;
  const std::function<bool(long, long)>& keep_going_;
  const std::size_t systems_, n_;
  // The host reactors, for dT/dt at the samples.
  std::vector<std::variant<chem::ConstantPressureReactor, chem::ConstantVolumeReactor>> reactors_;
  IgnitionSweep sweep_;
  long planned_ = 0;
  std::vector<std::vector<Sample>> samples_;  // per system, on the sample grid
  std::vector<bool> alive_;                   // still running: not failed, interrupted or without ignition
  std::vector<std::vector<Sample>> local_;    // per system, its bracket's samples
  bool stopped_ = false;
};

}  // namespace

IgnitionSweep find_ignition(const ode::Radau5& solver, const chem::Mechanism& mechanism, chem::ReactorKind kind,
                            const std::vector<std::vector<double>>& y0, const std::vector<double>& params,
                            const IgnitionSettings& settings, const std::function<bool(long, long)>& keep_going) {
  const chem::Kinetics kinetics(mechanism);
  return IgnitionSearch(solver, kinetics, kind, y0, params, settings, keep_going).run();
}

}  // namespace hetflow::app
