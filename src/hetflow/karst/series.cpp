#include "hetflow/karst/series.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "hetflow/core/error.hpp"
#include "hetflow/core/number_text.hpp"

namespace hetflow::karst {
namespace {

std::string entry(const char* array, std::size_t i, double v) {
  return std::string(array) + "[" + std::to_string(i) + "] = " + core::shortest_text(v);
}

}  // namespace

double Series::at(double time) const {
  // First sample at or after `time`; the segment before it holds `time`.
  const auto hi = std::lower_bound(t.begin(), t.end(), time);
  const std::size_t j = static_cast<std::size_t>(hi - t.begin());
  if (j == 0) return value.front();
  if (j == t.size()) return value.back();
  if (t[j] == time) return value[j];
  const double w = (time - t[j - 1]) / (t[j] - t[j - 1]);
  return value[j - 1] + w * (value[j] - value[j - 1]);
}

void check_series(const Series& s, std::string_view name, Sign sign) {
  const std::string where = std::string(name) + " series: ";
  if (s.t.size() != s.value.size())
    throw core::Error(where + "has " + std::to_string(s.t.size()) + " times but " + std::to_string(s.value.size()) +
                      " values");
  if (s.t.empty()) throw core::Error(where + "is empty");
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (!std::isfinite(s.t[i])) throw core::Error(where + entry("t", i, s.t[i]) + " is not finite");
    if (!std::isfinite(s.value[i])) throw core::Error(where + entry("value", i, s.value[i]) + " is not finite");
    if (i > 0 && !(s.t[i] > s.t[i - 1]))
      throw core::Error(where + entry("t", i, s.t[i]) + " is not after " + entry("t", i - 1, s.t[i - 1]));
    if (sign == Sign::positive && !(s.value[i] > 0))
      throw core::Error(where + entry("value", i, s.value[i]) + " at t = " + core::shortest_text(s.t[i]) +
                        " is not > 0 (the flow runs from the inlet at x* = 0 to the outlet at x* = 1)");
  }
}

void check_covers(const Series& s, std::string_view name, double from, double to) {
  if (s.t.front() > from || s.t.back() < to)
    throw core::Error(std::string(name) + " series: covers t = [" + core::shortest_text(s.t.front()) + ", " + core::shortest_text(s.t.back()) +
                      "] but the steps need t = [" + core::shortest_text(from) + ", " + core::shortest_text(to) + "]");
}

StepForcing step_forcing(const Series& inlet, const Series& velocity, const Grid& grid) {
  check_grid(grid);
  check_series(inlet, "inlet");
  check_series(velocity, "velocity", Sign::positive);
  check_covers(inlet, "inlet", grid.times.front(), grid.times.back());
  check_covers(velocity, "velocity", grid.times.front(), grid.times.back());
  StepForcing f;
  const std::size_t k_steps = grid.times.size();
  f.dt.resize(k_steps);
  f.velocity.resize(k_steps);
  f.inlet.resize(k_steps);
  for (std::size_t k = 0; k < k_steps; ++k) {
    const double t = grid.times[k];
    f.dt[k] = t - (k ? grid.times[k - 1] : 0.0);
    f.velocity[k] = velocity.at(t);
    f.inlet[k] = inlet.at(t);
  }
  return f;
}

}  // namespace hetflow::karst
