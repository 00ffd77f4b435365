#pragma once
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hetflow::chem {

// Everything is SI with the mole as amount: kg, m, s, mol, J, K, Pa. Rate constants are in
// (m^3/mol)^(order-1)/s, activation energies in J/mol, molecular weights in kg/mol.
inline constexpr double avogadro = 6.02214076e23;               // 1/mol, exact (SI 2019)
inline constexpr double boltzmann = 1.380649e-23;                // J/K, exact (SI 2019)
inline constexpr double gas_constant = avogadro * boltzmann;    // J/(mol K)
inline constexpr double one_atm = 101325.0;                      // Pa; also the standard-state pressure
inline constexpr double calorie = 4.184;                         // J, thermochemical calorie
inline constexpr double electron_volt = 1.602176634e-19;        // J, exact (SI 2019)

struct Element {
  std::string symbol;
  double weight = 0.0;  // kg/mol
};

// NASA 7-coefficient polynomials in two ranges split at t_mid; `low` applies for T <= t_mid.
// A single-range species has low == high. Outside [t_low, t_high] the polynomials are extrapolated,
// as Chemkin does: a stiff integrator may overshoot briefly and must still see smooth properties.
struct Nasa7 {
  double t_low = 0.0, t_mid = 0.0, t_high = 0.0;
  std::array<double, 7> low{}, high{};
};

struct Species {
  std::string name;
  std::vector<std::pair<int, double>> composition;  // (element index, atoms per molecule)
  double molecular_weight = 0.0;                      // kg/mol, from the composition
  Nasa7 thermo;
};

struct Arrhenius {
  double a = 0.0;   // SI, units by the reaction's order
  double b = 0.0;   // temperature exponent
  double ea = 0.0;  // J/mol
};

struct Term {
  int species = -1;
  double coefficient = 0.0;
  bool operator==(const Term&) const = default;
};

enum class RateKind {
  elementary,            // k = Arrhenius
  three_body,            // q multiplied by [M]
  falloff,               // k = k_inf Pr/(1+Pr) F, Pr = k0 [M]/k_inf
  chemically_activated,  // k = k0 1/(1+Pr) F
  plog,                  // Arrhenius interpolated in ln p
};

enum class FalloffForm { lindemann, troe, sri };

// [M] = Σ eff_k C_k, with eff_k = default_efficiency unless listed; a named collider
// ("(+AR)") stands for [M] = C_collider alone.
struct ThirdBody {
  std::vector<std::pair<int, double>> efficiencies;
  double default_efficiency = 1.0;
  int collider = -1;
};

struct Troe {
  double a = 0.0, t3 = 0.0, t1 = 0.0;
  std::optional<double> t2;
};

struct Sri {
  double a = 0.0, b = 0.0, c = 0.0, d = 1.0, e = 0.0;
};

struct PlogRate {
  double pressure = 0.0;  // Pa
  Arrhenius rate;
};

struct Reaction {
  std::string equation;  // as written in the input, for messages
  int line = 0;          // where it was defined
  std::vector<Term> reactants, products;
  bool reversible = true;
  bool duplicate = false;
  RateKind kind = RateKind::elementary;
  Arrhenius rate;  // elementary and three-body rates
  // Falloff and chemically activated: the low- and high-pressure limits.
  Arrhenius low, high;
  FalloffForm falloff = FalloffForm::lindemann;
  Troe troe;
  Sri sri;
  std::vector<PlogRate> plog;  // sorted by pressure; equal pressures add (Chemkin's rule)
  ThirdBody third_body;        // used by three_body, falloff and chemically_activated
  std::optional<Arrhenius> reverse;  // REV: explicit reverse rate instead of equilibrium
  // FORD/RORD: concentration exponents that replace the stoichiometric ones for the listed species.
  std::vector<Term> forward_orders, reverse_orders;

  bool uses_third_body() const { return kind == RateKind::three_body || kind == RateKind::falloff ||
                                        kind == RateKind::chemically_activated; }
  // Concentration exponents of the forward (or reverse) rate of progress, orders applied.
  std::vector<Term> forward_exponents() const;
  std::vector<Term> reverse_exponents() const;
};

struct Mechanism {
  std::vector<Element> elements;
  std::vector<Species> species;
  std::vector<Reaction> reactions;

  int species_index(std::string_view name) const;  // -1 when absent
  int element_index(std::string_view symbol) const;
  std::vector<double> molecular_weights() const;
};

// The standard atomic weight (kg/mol) of an element symbol, case-insensitive; nullopt if unknown.
// Values are IUPAC conventional weights, the ones Cantera uses, so molecular weights agree exactly.
std::optional<double> standard_atomic_weight(std::string_view symbol);

// Atoms of each element on the products side minus the reactants side; all zero for a balanced reaction.
std::vector<double> element_imbalance(const Mechanism& m, const Reaction& r);

// "C: +1, H: -2": the non-zero entries of an imbalance, for messages.
std::string describe_imbalance(const Mechanism& m, const std::vector<double>& imbalance);

}  // namespace hetflow::chem
