#pragma once
// The pieces of a rate of progress, shared by the rate evaluation (kinetics.cpp) and its derivatives
// (kinetics_derivatives.cpp), so that both see the very same values. Internal to the chem module.
#include <cstddef>
#include <span>
#include <vector>

#include "hetflow/chem/mechanism.hpp"
#include "hetflow/chem/thermo.hpp"

namespace hetflow::chem::parts {

// Keeps log10 finite when a falloff pressure ratio or F_cent underflows to zero.
inline constexpr double tiny = 1e-300;

// Π_k C_k^order over the exponents.
double concentration_product(const std::vector<Term>& exponents, std::span<const double> c);
// One exponent's factor C^order of the product, and its derivative d/dC.
double factor(double x, double order);
double factor_derivative(double x, double order);
// ∂/∂C_s of the product, s the species of exponents[which]: the other factors times that one's slope
// (no division, so zero concentrations are fine).
double concentration_product_derivative(const std::vector<Term>& exponents, std::size_t which, std::span<const double> c);

// [M]; its derivative with respect to C_k is the efficiency of k (1 for a named collider, else 0).
double third_body_concentration(const ThirdBody& tb, std::span<const double> c);

// Falloff and chemically activated rates: the limits, Pr = k0 [M] / k_inf and the broadening F.
struct Falloff {
  double k0 = 0.0, kinf = 0.0, pr = 0.0, log10_pr = 0.0;
  double fcent = 0.0;  // Troe only
  double f = 1.0;
  double k = 0.0;  // the blended rate constant
};
Falloff falloff(const Reaction& r, double temperature, double third_body);
double troe_fcent(const Troe& troe, double temperature);
double troe_factor(double fcent, double log10_pr);
double sri_factor(const Sri& s, double temperature, double log10_pr);

// Σ coefficients of one side of a reaction.
double total(const std::vector<Term>& terms);

// PLOG rates grouped by pressure (ascending, as the reader sorts them): rates given twice at one
// pressure add up (Chemkin's rule).
struct PlogTable {
  std::vector<double> pressures;
  std::vector<std::vector<Arrhenius>> rates;
};
PlogTable plog_table(const Reaction& r);

// PLOG between two tabulated pressures: ln k = ln k_lo + w (ln k_hi - ln k_lo). Outside the table
// lo == hi and the nearest entry holds.
struct PlogBracket {
  std::size_t lo = 0, hi = 0;
  double w = 0.0;
};
PlogBracket plog_bracket(const std::vector<double>& pressures, double pressure);
double plog_sum(const std::vector<Arrhenius>& rates, double temperature);
double plog_interpolate(const PlogBracket& b, double k_lo, double k_hi);

// K_c^-1 = exp(ΔG°/RT - Δν ln(p_atm/RT)), so that k_r = k_f times this.
double inverse_equilibrium_constant(const Reaction& r, const SpeciesThermo& thermo, double temperature,
                                    double log_standard_concentration, double delta_nu);

}  // namespace hetflow::chem::parts
