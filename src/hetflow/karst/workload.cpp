#include "hetflow/karst/workload.hpp"

#include <cmath>

namespace hetflow::karst {

Series storm(double base, double peak, double at) {
  Series s;
  for (int i = 0; i <= 200; ++i) {
    const double t = 0.005 * i;
    s.t.push_back(t);
    s.value.push_back(base + peak * std::exp(-std::pow((t - at) / 0.15, 2)));
  }
  return s;
}

std::vector<KarstParameters> spread_sets(std::size_t count) {
  std::vector<KarstParameters> sets(count);
  for (std::size_t i = 0; i < count; ++i) {
    const auto frac = [&](double a) { return std::fmod(0.5 + a * static_cast<double>(i), 1.0); };
    sets[i] = {1900 + 150 * frac(0.6180339887), 0.75 + 19.25 * frac(0.7548776662), 0.1 + 5.9 * frac(0.5698402910), 2.235, 0};
  }
  return sets;
}

}  // namespace hetflow::karst
