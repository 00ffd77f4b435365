#pragma once

namespace hetflow::mrag {

// A phase's closure, the stiffened gas p = (γ − 1) ρ e − γ p∞ (p∞ = 0: an ideal gas), held as the two
// quantities the one-fluid equations advect (docs/mrag.md, Equations): Γ = 1/(γ − 1) and Π = γ p∞/(γ − 1),
// so that ρE = Γ p + Π + ρ|u|²/2 is linear in p, Γ and Π, and a contact with uniform p and u stays uniform.
struct StiffenedGas {
  double gamma = 1.4;
  double p_inf = 0;

  double big_gamma() const { return 1 / (gamma - 1); }
  double big_pi() const { return gamma * p_inf / (gamma - 1); }
};

// Throws core::Error naming `where` and the value unless γ > 1 and 0 ≤ p∞ (both finite).
void check(const StiffenedGas& gas, const char* where);

// The mixture closure of one cell from its advected Γ and Π: p from the total energy per volume, and the
// speed of sound, c² = ((Γ + 1) p + Π) / (Γ ρ), which is γ (p + p∞)/ρ for a single phase.
double pressure(double big_gamma, double big_pi, double kinetic, double rho_e_total);
double sound_speed(double big_gamma, double big_pi, double rho, double p);

}  // namespace hetflow::mrag
