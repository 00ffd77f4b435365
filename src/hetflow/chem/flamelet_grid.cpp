#include "hetflow/chem/flamelet_grid.hpp"

#include <cmath>
#include <string>

#include "hetflow/chem/equilibrium.hpp"
#include "hetflow/core/error.hpp"

namespace hetflow::chem {
namespace {

// Oxygen atoms per kilogram that the mixture needs (> 0) or supplies (< 0) to burn to CO2 and H2O.
double oxygen_demand_per_kilogram(const Mechanism& m, const std::vector<double>& mass_fractions) {
  const std::vector<double> moles = element_moles(m, mass_fractions);
  double demand = 0.0;
  for (std::size_t e = 0; e < m.elements.size(); ++e) {
    const std::string& symbol = m.elements[e].symbol;
    if (symbol == "C")
      demand += 2.0 * moles[e];
    else if (symbol == "H")
      demand += 0.5 * moles[e];
    else if (symbol == "O")
      demand -= moles[e];
  }
  return demand;
}

}  // namespace

double inverse_erfc(double y) {
  if (!(y > 0.0 && y < 2.0)) throw core::Error("inverse_erfc: " + std::to_string(y) + " is outside (0, 2)");
  // erfc falls monotonically: bisection brackets the root within 1e-6, then Newton's steps
  // (erfc' = -2/sqrt(pi) exp(-x^2)) polish it.
  double lo = -27.0, hi = 27.0;
  for (int i = 0; i < 200 && hi - lo > 1e-6; ++i) {
    const double mid = 0.5 * (lo + hi);
    (std::erfc(mid) > y ? lo : hi) = mid;
  }
  double x = 0.5 * (lo + hi);
  for (int i = 0; i < 4; ++i) {
    const double slope = -2.0 / std::sqrt(M_PI) * std::exp(-x * x);
    if (slope == 0.0) break;
    x -= (std::erfc(x) - y) / slope;
  }
  return x;
}

std::vector<double> flamelet_grid(std::size_t points, double z_c, double clustering) {
  if (points < 1) throw core::Error("flamelet_grid: at least one interior point is needed");
  if (!(clustering >= 0.0) || !std::isfinite(clustering))
    throw core::Error("flamelet_grid: clustering = " + std::to_string(clustering) + " is not >= 0");
  if (!(z_c > 0.0 && z_c < 1.0))
    throw core::Error("flamelet_grid: the clustering centre " + std::to_string(z_c) + " is outside (0, 1)");
  const std::size_t nodes = points + 2;
  std::vector<double> z(nodes);
  const double beta = clustering;
  const double a =
      beta > 0.0 ? std::log((1.0 + std::expm1(beta) * z_c) / (1.0 + std::expm1(-beta) * z_c)) / (2.0 * beta) : 0.0;
  for (std::size_t j = 0; j < nodes; ++j) {
    const double s = static_cast<double>(j) / static_cast<double>(nodes - 1);
    z[j] = beta > 0.0 ? z_c * (1.0 + std::sinh(beta * (s - a)) / std::sinh(beta * a)) : s;
  }
  z.front() = 0.0;
  z.back() = 1.0;
  return z;
}

std::vector<double> dissipation_rates(const std::vector<double>& z, double chi_st, double z_st) {
  const auto shape = [](double zeta) {
    const double x = inverse_erfc(2.0 * zeta);
    return std::exp(-2.0 * x * x);
  };
  const double at_st = shape(z_st);
  std::vector<double> chi(z.size());
  for (std::size_t j = 0; j < z.size(); ++j) chi[j] = z[j] > 0.0 && z[j] < 1.0 ? chi_st * shape(z[j]) / at_st : 0.0;
  return chi;
}

double stoichiometric_mixture_fraction(const Mechanism& m, const std::vector<double>& oxidizer_mass_fractions,
                                       const std::vector<double>& fuel_mass_fractions) {
  const double oxidizer = oxygen_demand_per_kilogram(m, oxidizer_mass_fractions);
  const double fuel = oxygen_demand_per_kilogram(m, fuel_mass_fractions);
  if (!(oxidizer < 0.0)) throw core::Error("the oxidizer stream supplies no net oxygen: no stoichiometric mixture");
  if (!(fuel > 0.0)) throw core::Error("the fuel stream needs no oxygen: no stoichiometric mixture");
  // The demand is linear in z: (1 - z) oxidizer + z fuel = 0.
  return oxidizer / (oxidizer - fuel);
}

}  // namespace hetflow::chem
