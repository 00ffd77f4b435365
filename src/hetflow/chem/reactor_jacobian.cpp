// The exact Jacobians of the reactors' rhs. The kinetics give ∂ω̇/∂C and ∂ω̇/∂T at fixed C and p, and
// ∂ω̇/∂ln p at fixed T and C (kinetics_derivatives.cpp); this file chains them through the state.
// Constant pressure: C_i = ρ Y_i / W_i with ρ = p W̄ / (R T),
//   ∂C_i/∂Y_j = ρ/W_i δ_ij - C_i W̄/W_j,   ∂C_i/∂T = -C_i/T,
// and f_k = W_k ω̇_k / ρ, f_T = -Σ h_k ω̇_k / (ρ c̄_p), where ρ, h_k and c̄_p depend on T and Y too.
// Constant volume: C_i = ρ Y_i / W_i with ρ fixed and p = R T Σ C_i, so
//   ∂C_i/∂Y_j = ρ/W_i δ_ij,   ∂ln p/∂C_i = 1 / Σ C,   ∂ln p/∂T = 1/T,
// and f_T = -Σ u_k ω̇_k / (ρ c̄_v) with du_k/dT = c_v,k. The generated jac() (reactor_jacobian_source.cpp)
// does the same operations in the same order.

#include "hetflow/chem/reactor.hpp"
#include "hetflow/chem/thermo.hpp"

namespace hetflow::chem {

void ConstantPressureReactor::jacobian(std::span<const double> y, std::span<double> dfdy) const {
  const std::size_t nk = weights_.size(), n = nk + 1;
  check_sizes(y, dfdy.size(), n * n);
  const double T = y[nk];
  const auto mass_fractions = y.first(nk);
  const double wbar = mean_molecular_weight(mass_fractions, weights_);
  const double rho = chem::density(T, pressure_, mass_fractions, weights_);
  const std::vector<double> c = chem::concentrations(T, pressure_, mass_fractions, weights_);
  const Kinetics::Jacobian kin = kinetics_.production_rate_jacobian(T, pressure_, c);
  const SpeciesThermo thermo = species_thermo(kinetics_.mechanism(), T);

  // The right-hand side as rhs() has it, and dc̄_p/dT.
  std::vector<double> f(n);
  const double cp_mass = balance(mass_fractions, rho, kin.wdot, thermo.h, thermo.cp, f);
  const double f_T = f[nk];
  const double dcp_mass = capacity_slope(mass_fractions, T);

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

void ConstantVolumeReactor::jacobian(std::span<const double> y, std::span<double> dfdy) const {
  const std::size_t nk = weights_.size(), n = nk + 1;
  check_sizes(y, dfdy.size(), n * n);
  const double T = y[nk], rho = density_;
  const auto mass_fractions = y.first(nk);
  const std::vector<double> c = concentrations(mass_fractions);
  double c_total = 0.0;
  for (const double ck : c) c_total += ck;
  const Kinetics::Jacobian kin = kinetics_.production_rate_jacobian(T, pressure_at(T, c), c);
  const Energies e = energies(T);

  std::vector<double> f(n);
  const double cv_mass = balance(mass_fractions, rho, kin.wdot, e.u, e.cv, f);
  const double f_T = f[nk];
  const double dcv_mass = capacity_slope(mass_fractions, T);

  // Through the pressure: s_k = ∂ω̇_k/∂ln p / Σ C adds to ∂ω̇_k/∂C_i for every i, and dω̇_k/dT along
  // the state gains ∂ω̇_k/∂ln p / T.
  std::vector<double> s(nk), dwdT(nk);
  for (std::size_t k = 0; k < nk; ++k) {
    s[k] = kin.dwdlnp[k] / c_total;
    dwdT[k] = kin.dwdT[k] + kin.dwdlnp[k] / T;
  }

  // Columns of the mass fractions: ∂C_j/∂Y_j = ρ/W_j and ∂c̄_v/∂Y_j = c_v,j / W_j.
  for (std::size_t j = 0; j < nk; ++j) {
    double dheat = 0.0;
    for (std::size_t k = 0; k < nk; ++k) {
      const double dwdy = rho / weights_[j] * (kin.dwdc[k + j * nk] + s[k]);
      dheat += e.u[k] * dwdy;
      dfdy[k + j * n] = weights_[k] * dwdy / rho;
    }
    dfdy[nk + j * n] = -dheat / (rho * cv_mass) - f_T * (e.cv[j] / (weights_[j] * cv_mass));
  }

  // The temperature column: du_k/dT = c_v,k.
  double dheat = 0.0;
  for (std::size_t k = 0; k < nk; ++k) {
    dheat += e.cv[k] * kin.wdot[k] + e.u[k] * dwdT[k];
    dfdy[k + nk * n] = weights_[k] * dwdT[k] / rho;
  }
  dfdy[nk + nk * n] = -dheat / (rho * cv_mass) - f_T * (dcv_mass / cv_mass);
}

}  // namespace hetflow::chem
