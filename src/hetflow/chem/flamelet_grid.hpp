#pragma once
#include <cstddef>
#include <vector>

#include "hetflow/chem/mechanism.hpp"

namespace hetflow::chem {

// The mixture-fraction space of a flamelet (docs/chem.md, Flamelets): the grid, the scalar dissipation
// rate on it and the stoichiometric mixture fraction of two streams.

// x with erfc(x) = y, for 0 < y < 2.
double inverse_erfc(double y);

// The nodes z_0 = 0 < z_1 < ... < z_{points+1} = 1: `points` interior nodes, uniform for clustering 0,
// else drawn toward z_c by Roberts' interior stretching z(s) = z_c (1 + sinh(beta (s - A)) / sinh(beta A))
// of a uniform s, beta = clustering, A chosen so that z(1) = 1. Throws core::Error for points < 1,
// clustering < 0 or z_c outside (0, 1).
std::vector<double> flamelet_grid(std::size_t points, double z_c, double clustering);

// Peters' scalar dissipation rate chi(z) = chi_st exp(-2 [erfc^-1(2z)]^2) / exp(-2 [erfc^-1(2 z_st)]^2) at
// every node; 0 at z = 0 and z = 1, where it vanishes.
std::vector<double> dissipation_rates(const std::vector<double>& z, double chi_st, double z_st);

// The mixture fraction at which the mixture (1 - z) oxidizer + z fuel (mass fractions) holds just the
// oxygen that burns its carbon and hydrogen to CO2 and H2O: 2 C + H / 2 - O = 0 in atoms per kilogram.
// Throws core::Error when the oxidizer stream supplies no net oxygen or the fuel stream needs none.
double stoichiometric_mixture_fraction(const Mechanism& m, const std::vector<double>& oxidizer_mass_fractions,
                                       const std::vector<double>& fuel_mass_fractions);

}  // namespace hetflow::chem
