#pragma once
#include "hetflow/core/build_options.hpp"

namespace hetflow::mrag {

// The paper's closure of two ideal gases (docs/mrag.md, Colour function): the cells carry a colour φ in
// place of Γ, φ ≥ 0 the first gas and φ < 0 the second, advected by φ_t + ∇·(uφ) = φ ∇·u, and
// γ(φ) = γ1 H_ε(φ) + γ2 (1 − H_ε(φ)) with the mollified Heaviside H_ε = 0 below −ε, 1 above ε and
// 1/2 + φ/(2ε) + sin(πφ/ε)/(2π) between. γ is nonlinear in φ, so a moving contact makes pressure
// oscillations that the Γ closure does not: the option exists to run the paper's scheme as published.
struct ColourFunction {
  double gamma1 = 1.4, gamma2 = 1.4;
  double epsilon = 0.5;

  double heaviside(double phi) const;
  double gamma(double phi) const { return gamma1 * heaviside(phi) + gamma2 * (1 - heaviside(phi)); }
  double big_gamma(double phi) const { return 1 / (gamma(phi) - 1); }
  // The colour of a cell whose Γ the initial state gives: +1 for the first gas, −1 for the second, linear
  // in Γ between them.
  double colour(double big_gamma) const;
  // Defines COLOUR_FUNCTION, GAMMA1, GAMMA2 and PHI_EPSILON for the kernels (mrag_blocks.cl).
  void define(core::BuildOptions& options) const;
};

// Throws core::Error unless both γ exceed 1 and ε > 0.
void check(const ColourFunction& colour);

}  // namespace hetflow::mrag
