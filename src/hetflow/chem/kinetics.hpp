#pragma once
#include <span>
#include <vector>

#include "hetflow/chem/mechanism.hpp"

namespace hetflow::chem {

// Rate constants and rates of progress of every reaction at one state, in SI mole units.
// kf includes the falloff blending but not [M] of a three-body reaction (Cantera's convention);
// qf and qr include everything, so q = qf - qr.
struct ReactionRates {
  std::vector<double> kf, kr, qf, qr;
};

// Host (FP64) kinetics of a Mechanism: the reference the device kernels are checked against.
class Kinetics {
 public:
  explicit Kinetics(Mechanism mechanism);

  const Mechanism& mechanism() const { return m_; }

  // Concentrations C_k in mol/m^3; the pressure matters only to PLOG reactions.
  ReactionRates rates(double temperature, double pressure, std::span<const double> concentrations) const;
  // Net molar production rates [mol/(m^3 s)] from the rates of progress.
  std::vector<double> production_rates(const ReactionRates& rates) const;
  std::vector<double> production_rates(double temperature, double pressure, std::span<const double> concentrations) const;

  // The production rates and their exact derivatives (kinetics_derivatives.cpp): dwdc[k + i K] =
  // ∂ω̇_k/∂C_i at fixed T and p, dwdT[k] = ∂ω̇_k/∂T at fixed C and p, K the number of species, and
  // dwdlnp[k] = ∂ω̇_k/∂ln p at fixed T and C (nonzero only through PLOG rates), which a reactor whose
  // pressure follows its state chains in.
  struct Jacobian {
    std::vector<double> wdot, dwdc, dwdT, dwdlnp;
  };
  Jacobian production_rate_jacobian(double temperature, double pressure, std::span<const double> concentrations) const;

 private:
  struct Prepared {
    std::vector<Term> forward, reverse;  // concentration exponents
    std::vector<double> plog_pressures;  // distinct, ascending
    std::vector<std::vector<Arrhenius>> plog_rates;
    double delta_nu = 0.0;  // moles of products minus reactants
  };
  double forward_constant(std::size_t j, double temperature, double pressure, double third_body) const;
  // ∂k_f/∂T, ∂k_f/∂[M] and ∂k_f/∂ln p of forward_constant (kinetics_derivatives.cpp).
  struct Slopes {
    double dT = 0.0, dm = 0.0, dlnp = 0.0;
  };
  Slopes forward_slopes(std::size_t j, double temperature, double pressure, double third_body, double kf) const;

  Mechanism m_;
  std::vector<Prepared> prepared_;
};

double arrhenius(const Arrhenius& k, double temperature);
// d ln k / dT of an Arrhenius rate: (b + E_a/(R T)) / T.
double arrhenius_log_slope(const Arrhenius& k, double temperature);

}  // namespace hetflow::chem
