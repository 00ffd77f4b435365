#pragma once
#include <string>
#include <vector>

#include "hetflow/chem/mechanism.hpp"
#include "hetflow/core/error.hpp"

namespace hetflow::chem {

// What an equilibrium holds fixed besides the elements: temperature and pressure, enthalpy and pressure
// (an adiabatic flame at constant pressure), or internal energy and volume (an adiabatic closed vessel).
enum class EquilibriumHold { tp, hp, uv };

// "TP", "HP" or "UV".
const char* hold_name(EquilibriumHold hold);

// An ideal-gas mixture: temperature [K], pressure [Pa] and one mass fraction per species of the mechanism.
struct MixtureState {
  double temperature = 0.0;
  double pressure = 0.0;
  std::vector<double> mass_fractions;
};

struct EquilibriumOptions {
  // The Newton iteration stops once the corrections of ln N, ln T and of every species' ln n_k, weighted by
  // its mole fraction, are below this and every element balances to 1e-2 of it (relative; or to 16 ulp per
  // species, the rounding of the balance, where that is larger), and then takes one more step to settle the
  // trace species.
  double tolerance = 1e-12;
  int max_iterations = 500;
};

struct Equilibrium {
  MixtureState state;
  // λ_j = μ_j / RT per element of the mechanism: every species present satisfies
  // μ_k / RT = Σ_j a_kj λ_j. Elements absent from the mixture get 0.
  std::vector<double> element_potentials;
  int iterations = 0;
};

// A start state or an iteration that cannot give an equilibrium; what() says which and why.
class EquilibriumError : public core::Error {
 public:
  using core::Error::Error;
};

// The chemical equilibrium of the mixture `start` holding `hold` (and its elements) fixed, by the
// element-potential method with the Newton iteration of Gordon & McBride (NASA RP-1311, 1994), over the
// gas-phase species of `m` (docs/chem.md, Equilibrium). Species made of elements the mixture lacks stay at
// zero. Throws EquilibriumError for a start state that is not a mixture (temperature or pressure not
// positive and finite, a mass fraction negative or not finite, the wrong count, or a sum away from 1 by
// more than 1e-6) and for an iteration that does not converge.
Equilibrium equilibrate(const Mechanism& m, const MixtureState& start, EquilibriumHold hold,
                        const EquilibriumOptions& options = {});

// The mixture's specific enthalpy and internal energy [J/kg] and its moles per kilogram.
double mixture_enthalpy(const Mechanism& m, const MixtureState& s);
double mixture_internal_energy(const Mechanism& m, const MixtureState& s);
double moles_per_kilogram(const Mechanism& m, const std::vector<double>& mass_fractions);
// Moles of each element of the mechanism per kilogram of the mixture.
std::vector<double> element_moles(const Mechanism& m, const std::vector<double>& mass_fractions);

}  // namespace hetflow::chem
