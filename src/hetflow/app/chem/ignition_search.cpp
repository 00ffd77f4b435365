#include "hetflow/app/chem/ignition_search.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

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

}  // namespace

IgnitionSweep find_ignition(const ode::Radau5& solver, const chem::Mechanism& mechanism,
                            const std::vector<std::vector<double>>& y0, const std::vector<double>& pressures,
                            const IgnitionSettings& settings, const std::function<bool(long, long)>& keep_going) {
  const chem::Kinetics kinetics(mechanism);
  std::vector<chem::ConstantPressureReactor> reactors;
  for (const double p : pressures) reactors.emplace_back(kinetics, p);
  const std::size_t systems = y0.size();
  const std::size_t n = systems ? y0[0].size() : 0;
  const auto sample = [&](std::size_t i, double t, std::vector<double> y) {
    Sample s{t, std::move(y), 0.0};
    std::vector<double> dydt(n);
    reactors[i].rhs(s.y, dydt);
    s.slope = dydt.back();
    return s;
  };

  IgnitionSweep sweep;
  sweep.times = sample_grid(settings);
  const long planned = static_cast<long>(sweep.times.size()) - 1 + settings.refinements;
  std::vector<std::vector<Sample>> samples(systems);
  std::vector<bool> alive(systems, true);
  sweep.runs.resize(systems);
  for (std::size_t i = 0; i < systems; ++i) {
    sweep.runs[i].temperature.assign(sweep.times.size(), nan);
    sweep.runs[i].temperature[0] = y0[i].back();
    sweep.runs[i].delay = sweep.runs[i].final_temperature = nan;
    samples[i].push_back(sample(i, 0.0, y0[i]));
  }

  // The sample grid: one launch per interval over the systems still running, each from its last state.
  bool stopped = false;
  for (std::size_t k = 0; k + 1 < sweep.times.size() && !stopped; ++k) {
    std::vector<std::size_t> active;
    ode::Batch batch;
    for (std::size_t i = 0; i < systems; ++i) {
      if (!alive[i]) continue;
      active.push_back(i);
      const auto& y = samples[i].back().y;
      batch.y0.insert(batch.y0.end(), y.begin(), y.end());
      batch.params.push_back(pressures[i]);
    }
    if (active.empty()) break;
    batch.t0 = {sweep.times[k]};
    batch.t_end = {sweep.times[k + 1]};
    // Burnt, igniting and cold systems side by side would hold each other back on a GPU.
    batch.sort_key = chem::reactor_temperatures(batch.y0, samples[active[0]].back().y.size() - 1);
    const ode::Result r = solver.integrate(batch);
    ++sweep.launches;
    for (std::size_t j = 0; j < active.size(); ++j) {
      IgnitionRun& run = sweep.runs[active[j]];
      if (!r.statistics[j].ok()) {
        alive[active[j]] = false;
        run.status = "failed";
        run.reason = failure(r.statistics[j], r.nmax, sweep.times[k], sweep.times[k + 1]);
        continue;
      }
      std::vector<double> y(r.y.begin() + static_cast<long>(j * n), r.y.begin() + static_cast<long>((j + 1) * n));
      run.temperature[k + 1] = y.back();
      samples[active[j]].push_back(sample(active[j], sweep.times[k + 1], std::move(y)));
    }
    stopped = !keep_going(sweep.launches, planned);
  }

  // Brackets of the systems that ran to the end and ignited.
  std::vector<std::vector<Sample>> local(systems);
  for (std::size_t i = 0; i < systems; ++i) {
    IgnitionRun& run = sweep.runs[i];
    if (!alive[i]) continue;
    if (stopped) {
      run.status = "interrupted";
      run.reason = "the run was interrupted before t = end_time";
      alive[i] = false;
      continue;
    }
    run.final_temperature = samples[i].back().temperature();
    const auto b = bracket(samples[i], settings, y0[i].back() + settings.rise);
    if (!b) {
      run.status = "no_ignition";
      run.reason = "T stayed below T0 + rise until end_time";
      alive[i] = false;
      continue;
    }
    local[i].assign(samples[i].begin() + static_cast<long>(b->first), samples[i].begin() + static_cast<long>(b->second) + 1);
  }

  // Refinement: candidate times inside each bracket, integrated from its lower end, all in one launch.
  const auto m = static_cast<std::size_t>(settings.candidates);
  for (int level = 0; level < settings.refinements && !stopped; ++level) {
    std::vector<std::size_t> active;
    ode::Batch batch;
    batch.t0.clear();
    batch.t_end.clear();
    for (std::size_t i = 0; i < systems; ++i) {
      if (!alive[i]) continue;
      active.push_back(i);
      const Sample &lo = local[i].front(), &hi = local[i].back();
      for (std::size_t c = 1; c <= m; ++c) {
        batch.y0.insert(batch.y0.end(), lo.y.begin(), lo.y.end());
        batch.params.push_back(pressures[i]);
        batch.t0.push_back(lo.t);
        batch.t_end.push_back(lo.t + (hi.t - lo.t) * static_cast<double>(c) / static_cast<double>(m + 1));
      }
    }
    if (active.empty()) break;
    const ode::Result r = solver.integrate(batch);
    ++sweep.launches;
    for (std::size_t a = 0; a < active.size(); ++a) {
      const std::size_t i = active[a];
      std::vector<Sample> refined{local[i].front()};
      for (std::size_t c = 0; c < m && alive[i]; ++c) {
        const std::size_t e = a * m + c;
        if (!r.statistics[e].ok()) {
          alive[i] = false;
          sweep.runs[i].status = "failed";
          sweep.runs[i].reason = "refining the ignition: " + failure(r.statistics[e], r.nmax, batch.t0[e], batch.t_end[e]);
          break;
        }
        refined.push_back(sample(i, batch.t_end[e], std::vector<double>(r.y.begin() + static_cast<long>(e * n),
                                                                         r.y.begin() + static_cast<long>((e + 1) * n))));
      }
      if (!alive[i]) continue;
      refined.push_back(local[i].back());
      const auto b = bracket(refined, settings, y0[i].back() + settings.rise);
      // A refined T below the target everywhere cannot happen for the rise criterion (hi stays above it);
      // keep the bracket as it was rather than lose the ignition found.
      if (b) local[i].assign(refined.begin() + static_cast<long>(b->first), refined.begin() + static_cast<long>(b->second) + 1);
    }
    stopped = !keep_going(sweep.launches, planned);
  }

  for (std::size_t i = 0; i < systems; ++i) {
    if (!alive[i]) continue;
    IgnitionRun& run = sweep.runs[i];
    run.status = "ignited";
    run.delay = settings.criterion == IgnitionCriterion::temperature_rise
                    ? hermite_crossing(local[i].front(), local[i].back(), y0[i].back() + settings.rise)
                    : slope_peak(local[i]);
    if (stopped) run.reason = "refinement interrupted: the delay comes from a wider bracket";
  }
  sweep.stopped = stopped;
  return sweep;
}

}  // namespace hetflow::app
