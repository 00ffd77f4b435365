#pragma once
#include <string_view>
#include <vector>

#include "hetflow/karst/model.hpp"

namespace hetflow::karst {

// A sampled time series (dimensionless t*, value), linear between samples.
struct Series {
  std::vector<double> t;
  std::vector<double> value;

  std::size_t size() const { return t.size(); }
  // Linear interpolation; t must lie in [t.front(), t.back()] (check_series and check_covers ensure it).
  double at(double time) const;
};

enum class Sign { any, positive };

// Throws core::Error starting with "<name> series: " when t and value differ in length, the series is
// empty, a time or value is not finite, times are not strictly increasing
// ("velocity series: t[5] = 3 is not after t[4] = 3"), or, with Sign::positive, a value is <= 0
// ("velocity series: value[3] = -0.5 is not > 0 ...").
void check_series(const Series& series, std::string_view name, Sign sign = Sign::any);
// Throws core::Error when the series does not cover [from, to].
void check_covers(const Series& series, std::string_view name, double from, double to);

// What every step k (t*_{k-1} -> t*_k) needs, shared by the host and the device solvers: the implicit
// scheme takes velocity and inlet at the new time t*_k.
struct StepForcing {
  std::vector<double> dt, velocity, inlet;
};

// Validates the grid and both series (velocity > 0: the flow runs from the inlet at x* = 0 to the outlet
// at x* = 1) and samples them at the step times.
StepForcing step_forcing(const Series& inlet, const Series& velocity, const Grid& grid);

}  // namespace hetflow::karst
