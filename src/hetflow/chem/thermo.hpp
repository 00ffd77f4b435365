#pragma once
#include <span>
#include <vector>

#include "hetflow/chem/mechanism.hpp"

namespace hetflow::chem {

// Dimensionless NASA-7 properties of one species at T: c_p/R, H/(RT), S/R (standard state, 1 atm).
double cp_over_r(const Nasa7& t, double temperature);
double h_over_rt(const Nasa7& t, double temperature);
double s_over_r(const Nasa7& t, double temperature);
// d(c_p/R)/dT, for the Jacobian of the reactor (the T-derivatives of h and s are c_p and c_p/T).
double cp_over_r_slope(const Nasa7& t, double temperature);

// Molar standard-state properties of every species at T: c_p [J/(mol K)], h [J/mol], s [J/(mol K)],
// g = h - T s [J/mol].
struct SpeciesThermo {
  std::vector<double> cp, h, s, g;
};
SpeciesThermo species_thermo(const Mechanism& m, double temperature);

// Ideal-gas mixture quantities from mass fractions and molecular weights W_k [kg/mol].
double mean_molecular_weight(std::span<const double> mass_fractions, std::span<const double> weights);
double density(double temperature, double pressure, std::span<const double> mass_fractions, std::span<const double> weights);
// C_k = rho Y_k / W_k [mol/m^3].
std::vector<double> concentrations(double temperature, double pressure, std::span<const double> mass_fractions,
                                   std::span<const double> weights);

}  // namespace hetflow::chem
