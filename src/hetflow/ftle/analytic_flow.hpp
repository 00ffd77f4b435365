#pragma once
#include <array>
#include <string>
#include <variant>
#include <vector>

namespace hetflow::ftle {

// Built-in velocity fields, evaluated inside the advection kernel (ftle.cl) at every stage point, so they
// need no grid and have no walls: tracers may go anywhere.

// Double gyre (Shadden, Lekien & Marsden 2005): psi = A sin(pi f(x, t)) sin(pi y), f = a x^2 + b x,
// a = epsilon sin(omega t), b = 1 - 2a; on [0, 2] x [0, 1], whose walls are invariant.
struct DoubleGyre {
  double a = 0.1;
  double epsilon = 0.25;
  double omega = 0.6283185307179586;  // 2 pi / 10
};

// u = G x with a constant velocity gradient G (row-major, dimension x dimension). A linear flow's flow map
// is linear, so its FTLE is known exactly for every integrator: the tests' reference.
struct LinearFlow {
  int dimension = 2;
  std::array<double, 9> gradient{};

  // u = (rates[0] x, rates[1] y[, rates[2] z]): a saddle for rates of both signs.
  static LinearFlow saddle(const std::vector<double>& rates);
  // Solid-body rotation about the z axis at angular velocity omega (2D, or 3D with w = 0).
  static LinearFlow rotation(double omega, int dimension = 2);
};

// Bickley jet (Rypina et al. 2007): a zonal jet U sech^2(y/L) perturbed by three Rossby waves,
// psi = -U L tanh(y/L) + U L sech^2(y/L) sum_n eps_n cos(k_n (x - c_n t)), k_n = 2n / r0,
// c_3 = 0.461 U, c_2 = 0.205 U, c_1 = c_3 + (sqrt(5) - 1) (c_2 - c_3). Units: Mm and seconds, so
// x is periodic over pi r0 ~ 20 Mm and 40 days are 3.456e6 s.
struct BickleyJet {
  double u = 62.66e-6;  // Mm/s
  double length = 1.77;  // L, Mm
  double radius = 6.371;  // r0, Mm
  std::array<double, 3> epsilon{0.0075, 0.15, 0.3};
};

// ABC flow (3D): u = (A sin z + C cos y, B sin x + A cos z, C sin y + B cos x), unsteady through
// A(t) = A + epsilon sin(omega t) (Haller 2001 uses epsilon = 0.1, omega = 1); periodic over 2 pi.
struct AbcFlow {
  double a = 1.7320508075688772;  // sqrt(3)
  double b = 1.4142135623730951;  // sqrt(2)
  double c = 1.0;
  double epsilon = 0.0;
  double omega = 1.0;
};

// The paper's steady saddle (Figs. 1-2): psi = s cos(pi x) cos(pi y), u = -dpsi/dy, v = dpsi/dx, a
// hyperbolic point at (1/2, 1/2) of the cell [0, 1]^2.
struct CellularFlow {
  double scale = 1.0;
};

using AnalyticFlow = std::variant<DoubleGyre, LinearFlow, BickleyJet, AbcFlow, CellularFlow>;

int dimension(const AnalyticFlow& flow);
// "double_gyre", "linear", "bickley_jet", "abc", "cellular"
const char* name(const AnalyticFlow& flow);
// The FLOW_* code ftle.cl selects the flow by.
int kernel_code(const AnalyticFlow& flow);
// What the kernel reads from its parameter buffer, derived quantities included (see ftle.cl).
std::vector<double> kernel_parameters(const AnalyticFlow& flow);

}  // namespace hetflow::ftle
