#pragma once
#include <vector>

#include "hetflow/chem/mechanism.hpp"

namespace hetflow::chem {

// A flamelet's boundary stream: its temperature [K] and mass fractions (mechanism order).
struct FlameletStream {
  double temperature = 300.0;
  std::vector<double> mass_fractions;
};

// Flamelet states are stored node by node, K + 1 values per node of the z-grid: (Y_1..Y_K, T), as
// ConstantPressureReactor orders a reactor's state.

// The temperature at which the mixture `mass_fractions` has the specific enthalpy h [J/kg], by Newton's
// iteration on h(T) from `guess`. Throws core::Error when it does not converge.
double temperature_at_enthalpy(const Mechanism& m, const std::vector<double>& mass_fractions, double h, double guess);

// The unburnt mixture at every node z: mass fractions and enthalpy linear in z between the oxidizer (z = 0)
// and the fuel (z = 1), the temperature the one of that enthalpy.
std::vector<double> mixing_line(const Mechanism& m, const FlameletStream& oxidizer, const FlameletStream& fuel,
                                const std::vector<double>& z);

// The mixing line with every interior node replaced by the HP equilibrium (chem::equilibrate) of its mixture
// at `pressure` [Pa]: the burnt flamelet of infinitely fast chemistry, Burke-Schumann-like. Throws
// EquilibriumError naming the node whose equilibrium fails.
std::vector<double> equilibrium_profile(const Mechanism& m, const FlameletStream& oxidizer, const FlameletStream& fuel,
                                        const std::vector<double>& z, double pressure);

}  // namespace hetflow::chem
