// The exact Jacobian of ConstantPressureReactor::rhs. The kinetics give ∂ω̇/∂C and ∂ω̇/∂T at fixed C
// (kinetics_derivatives.cpp); this file chains them through C_i = ρ Y_i / W_i with ρ = p W̄ / (R T),
//   ∂C_i/∂Y_j = ρ/W_i δ_ij - C_i W̄/W_j,   ∂C_i/∂T = -C_i/T,
// and through f_k = W_k ω̇_k / ρ and f_T = -Σ h_k ω̇_k / (ρ c̄_p), where ρ, h_k and c̄_p depend on T and Y
// too. The generated jac() (reactor_jacobian_source.cpp) does the same operations in the same order.

#include "hetflow/chem/reactor.hpp"
#include "hetflow/chem/thermo.hpp"

namespace hetflow::chem {

void ConstantPressureReactor::jacobian(std::span<const double> y, std::span<double> dfdy) const {
  const std::size_t nk = weights_.size(), n = nk + 1;
  check_sizes(y, dfdy.size(), n * n);
  const double T = y[nk];
  const auto mass_fractions = y.first(nk);
  const double wbar = mean_molecular_weight(mass_fractions, weights_);
  const double rho = density(T, pressure_, mass_fractions, weights_);
  const std::vector<double> c = concentrations(T, pressure_, mass_fractions, weights_);
  const Kinetics::Jacobian kin = kinetics_.production_rate_jacobian(T, pressure_, c);
  const SpeciesThermo thermo = species_thermo(kinetics_.mechanism(), T);

  // The right-hand side as rhs() has it, and dc̄_p/dT.
  std::vector<double> f(nk);
  double cp_mass = 0.0, heat_release = 0.0, dcp_mass = 0.0;
  for (std::size_t k = 0; k < nk; ++k) {
    cp_mass += mass_fractions[k] * thermo.cp[k] / weights_[k];
    heat_release += thermo.h[k] * kin.wdot[k];
    f[k] = weights_[k] * kin.wdot[k] / rho;
    dcp_mass += mass_fractions[k] * (gas_constant * cp_over_r_slope(kinetics_.mechanism().species[k].thermo, T)) /
                weights_[k];
  }
  const double f_T = -heat_release / (rho * cp_mass);

  // a_k = Σ_i ∂ω̇_k/∂C_i C_i: every C_i scales with ρ, which moves with every Y_j and with T.
  std::vector<double> a(nk, 0.0), dwdT(nk);
  for (std::size_t k = 0; k < nk; ++k) {
    for (std::size_t i = 0; i < nk; ++i) a[k] += kin.dwdc[k + i * nk] * c[i];
    dwdT[k] = kin.dwdT[k] - a[k] / T;  // dω̇_k/dT along the reactor's state
  }

  // Columns of the mass fractions: ∂ρ/∂Y_j = -ρ W̄/W_j and ∂c̄_p/∂Y_j = c_p,j / W_j.
  for (std::size_t j = 0; j < nk; ++j) {
    double dheat = 0.0;
    for (std::size_t k = 0; k < nk; ++k) {
      const double dwdy = rho / weights_[j] * kin.dwdc[k + j * nk] - wbar / weights_[j] * a[k];
      dheat += thermo.h[k] * dwdy;
      dfdy[k + j * n] = weights_[k] * dwdy / rho + f[k] * wbar / weights_[j];
    }
    dfdy[nk + j * n] = -dheat / (rho * cp_mass) - f_T * (thermo.cp[j] / (weights_[j] * cp_mass) - wbar / weights_[j]);
  }

  // The temperature column: ∂ρ/∂T = -ρ/T, dh_k/dT = c_p,k.
  double dheat = 0.0;
  for (std::size_t k = 0; k < nk; ++k) {
    dheat += thermo.cp[k] * kin.wdot[k] + thermo.h[k] * dwdT[k];
    dfdy[k + nk * n] = weights_[k] * dwdT[k] / rho + f[k] / T;
  }
  dfdy[nk + nk * n] = -dheat / (rho * cp_mass) - f_T * (dcp_mass / cp_mass - 1.0 / T);
}

}  // namespace hetflow::chem
