#pragma once
#include <array>

namespace hetflow::mrag {

// One side of a face, in the face's frame: density, normal and tangential velocity, pressure, and the
// advected closure Γ = 1/(γ − 1) and Π = γ p∞/(γ − 1) (StiffenedGas).
struct FaceState {
  double rho = 1, un = 0, ut = 0, p = 1;
  double big_gamma = 2.5, big_pi = 0;
};

// The HLLE flux of (ρ, ρu_n, ρu_t, ρE, Γ, Π), whose last two are the fluxes u_n Γ and u_n Π of the
// quasi-conservative advection, and the interface velocity u* (the same average of the sides' u_n) that
// its source term Γ ∇·u* uses (docs/mrag.md, Fluxes). The host reference of the solver's kernels.
struct FaceFlux {
  std::array<double, 6> f{};
  double u_star = 0;
};

// Einfeldt's wave speeds S_L = min(u_L − c_L, ũ − c̃), S_R = max(u_R + c_R, ũ + c̃) from Roe averages, with
// c̃² = (H̃ − |ũ|²/2)/Γ̃ for the averaged Γ (clamped at zero).
struct WaveSpeeds {
  double left = 0, right = 0;
};
WaveSpeeds einfeldt_speeds(const FaceState& left, const FaceState& right);

// HLLE with Einfeldt's speeds in the branch-free form F = (b⁺ f_L − b⁻ f_R + b⁺ b⁻ (q_R − q_L)) / (b⁺ − b⁻),
// b⁻ = min(S_L, 0), b⁺ = max(S_R, 0).
FaceFlux hlle_flux(const FaceState& left, const FaceState& right);

// The Riemann solver of the faces: HLLE, the paper's, or HLLC (Toro, Spruce & Speares 1994), which
// restores the contact: the solver's option, both with Einfeldt's speeds.
enum class RiemannSolver { hlle, hllc };

// HLLC (docs/mrag.md, Fluxes): the contact speed S* = (p_R − p_L + ρ_L u_L (S_L − u_L) − ρ_R u_R (S_R − u_R))
// / (ρ_L (S_L − u_L) − ρ_R (S_R − u_R)), the star state of the side K upwind of it, and F = F_K + S_K (q*_K
// − q_K); u* is the same flux of the constant 1, and Γ's and Π's fluxes are Γ_K u* and Π_K u* (Johnsen &
// Colonius 2006), which keeps a uniform p and u uniform across a contact.
FaceFlux hllc_flux(const FaceState& left, const FaceState& right);

FaceFlux face_flux(RiemannSolver solver, const FaceState& left, const FaceState& right);

// The conserved vector and the physical normal flux of one state, and the state of a conserved vector.
std::array<double, 6> conserved(const FaceState& s);
FaceState primitive(const std::array<double, 6>& q);
std::array<double, 6> physical_flux(const FaceState& s);

}  // namespace hetflow::mrag
