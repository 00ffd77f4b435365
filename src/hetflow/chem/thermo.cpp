#include "hetflow/chem/thermo.hpp"

#include <cmath>

namespace hetflow::chem {
namespace {

// Chemkin's rule, which Cantera follows: the lower polynomial up to and including T_common.
const std::array<double, 7>& range(const Nasa7& t, double temperature) {
  return temperature <= t.t_mid ? t.low : t.high;
}

}  // namespace

double cp_over_r(const Nasa7& t, double T) {
  const auto& a = range(t, T);
  return a[0] + T * (a[1] + T * (a[2] + T * (a[3] + T * a[4])));
}

double cp_over_r_slope(const Nasa7& t, double T) {
  const auto& a = range(t, T);
  return a[1] + T * (2 * a[2] + T * (3 * a[3] + T * 4 * a[4]));
}

double h_over_rt(const Nasa7& t, double T) {
  const auto& a = range(t, T);
  return a[0] + T * (a[1] / 2 + T * (a[2] / 3 + T * (a[3] / 4 + T * a[4] / 5))) + a[5] / T;
}

double s_over_r(const Nasa7& t, double T) {
  const auto& a = range(t, T);
  return a[0] * std::log(T) + T * (a[1] + T * (a[2] / 2 + T * (a[3] / 3 + T * a[4] / 4))) + a[6];
}

SpeciesThermo species_thermo(const Mechanism& m, double T) {
  SpeciesThermo out;
  const std::size_t n = m.species.size();
  out.cp.resize(n);
  out.h.resize(n);
  out.s.resize(n);
  out.g.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    const Nasa7& t = m.species[k].thermo;
    out.cp[k] = gas_constant * cp_over_r(t, T);
    out.h[k] = gas_constant * T * h_over_rt(t, T);
    out.s[k] = gas_constant * s_over_r(t, T);
    out.g[k] = out.h[k] - T * out.s[k];
  }
  return out;
}

double mean_molecular_weight(std::span<const double> y, std::span<const double> w) {
  double inverse = 0.0;
  for (std::size_t k = 0; k < y.size(); ++k) inverse += y[k] / w[k];
  return 1.0 / inverse;
}

double density(double T, double p, std::span<const double> y, std::span<const double> w) {
  return p * mean_molecular_weight(y, w) / (gas_constant * T);
}

std::vector<double> concentrations(double T, double p, std::span<const double> y, std::span<const double> w) {
  const double rho = density(T, p, y, w);
  std::vector<double> c(y.size());
  for (std::size_t k = 0; k < y.size(); ++k) c[k] = rho * y[k] / w[k];
  return c;
}

}  // namespace hetflow::chem
