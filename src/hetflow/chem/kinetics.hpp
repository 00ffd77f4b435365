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
  // ∂ω̇_k/∂C_i at fixed T and dwdT[k] = ∂ω̇_k/∂T at fixed C, K the number of species; the pressure is
  // held fixed (it matters only to PLOG).
  struct Jacobian {
    std::vector<double> wdot, dwdc, dwdT;
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
  // ∂k_f/∂T and ∂k_f/∂[M] of forward_constant (kinetics_derivatives.cpp).
  struct Slopes {
    double dT = 0.0, dm = 0.0;
  };
  Slopes forward_slopes(std::size_t j, double temperature, double pressure, double third_body, double kf) const;

  Mechanism m_;
  std::vector<Prepared> prepared_;
};

double arrhenius(const Arrhenius& k, double temperature);
// d ln k / dT of an Arrhenius rate: (b + E_a/(R T)) / T.
double arrhenius_log_slope(const Arrhenius& k, double temperature);

}  // namespace hetflow::chem
