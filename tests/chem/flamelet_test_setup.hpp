// The flamelet of the chemistry tests: H2/N2 (1:1 by moles) against air, both at 300 K and 1 atm, with
// H2/O2 (data/mechanisms/h2o2.yaml) on a coarse grid clustered toward z_st = 0.304.
#pragma once
#include <vector>

#include "chem_test_util.hpp"
#include "hetflow/chem/flamelet.hpp"
#include "hetflow/chem/flamelet_grid.hpp"
#include "hetflow/chem/flamelet_profiles.hpp"

namespace hetflow::chem::test {

struct HydrogenFlamelet {
  Mechanism mechanism = read_yaml_mechanism(mechanisms / "h2o2.yaml");
  FlameletStream air, fuel;
  double z_st = 0.0;
  std::vector<double> z;

  explicit HydrogenFlamelet(std::size_t points, double clustering = 1.0) {
    const std::vector<double> w = mechanism.molecular_weights();
    const auto k = [&](const char* name) { return static_cast<std::size_t>(mechanism.species_index(name)); };
    air.mass_fractions.assign(mechanism.species.size(), 0.0);
    fuel.mass_fractions.assign(mechanism.species.size(), 0.0);
    const double air_mass = w[k("O2")] + 3.76 * w[k("N2")];
    air.mass_fractions[k("O2")] = w[k("O2")] / air_mass;
    air.mass_fractions[k("N2")] = 3.76 * w[k("N2")] / air_mass;
    fuel.mass_fractions[k("H2")] = w[k("H2")] / (w[k("H2")] + w[k("N2")]);
    fuel.mass_fractions[k("N2")] = w[k("N2")] / (w[k("H2")] + w[k("N2")]);
    z_st = stoichiometric_mixture_fraction(mechanism, air.mass_fractions, fuel.mass_fractions);
    z = flamelet_grid(points, z_st, clustering);
  }

  FlameletConfig config(double chi_st, Splitting splitting, double rtol) const {
    FlameletConfig c;
    c.z = z;
    c.chi = dissipation_rates(z, chi_st, z_st);
    c.splitting = splitting;
    c.options.rtol = {rtol};
    c.options.atol = {1e-14};
    c.options.h0 = 1e-10;
    return c;
  }
  std::vector<double> burnt() const { return equilibrium_profile(mechanism, air, fuel, z, one_atm); }
  std::vector<double> unburnt() const { return mixing_line(mechanism, air, fuel, z); }
};

// T at every node of a state.
inline std::vector<double> temperatures(const std::vector<double>& state, std::size_t components) {
  std::vector<double> t;
  for (std::size_t i = components - 1; i < state.size(); i += components) t.push_back(state[i]);
  return t;
}

inline double largest_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(a[i] - b[i]));
  return d;
}

}  // namespace hetflow::chem::test
