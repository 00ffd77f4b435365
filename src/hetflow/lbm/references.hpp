#pragma once
#include <cstddef>
#include <span>
#include <vector>

namespace hetflow::lbm {

// Analytic solutions the solver is validated against, in double precision. Any consistent units;
// in lattice units g is the body-force acceleration per step and nu = (tau - 1/2) / 3.

// Fully developed laminar flow along a rectangular duct -a < x < a, -b < y < b driven by a body
// force g (acceleration) with kinematic viscosity nu, i.e. the solution of lap(u) = -g/nu with u = 0
// on the walls, by the standard Fourier series
//   u = 16 a^2 g / (nu pi^3) sum_{n odd} (-1)^((n-1)/2) n^-3 [1 - cosh(n pi y/2a) / cosh(n pi b/2a)] cos(n pi x/2a).
// Returns 0 outside the duct. Throws std::invalid_argument unless a, b, nu > 0.
double duct_poiseuille(double x, double y, double a, double b, double g, double nu);

// Cross-section mean of duct_poiseuille (flow rate Q = 4ab * mean):
//   mean = a^2 g / (3 nu) [1 - 192 a / (pi^5 b) sum_{n odd} tanh(n pi b / 2a) / n^5].
// For a square duct Q = 0.562308 a^4 g / nu.
double duct_poiseuille_mean(double a, double b, double g, double nu);

// Plane Poiseuille flow in a channel of width h, -h/2 < y < h/2: u = g / (2 nu) (h^2/4 - y^2); 0 outside.
double plane_poiseuille(double y, double h, double g, double nu);

// A lattice duct made by duct(nx, ny, nz) with half-way bounce-back: walls at i = 0 and i = nx-1, the
// no-slip plane half a cell inside each wall node, so the fluid width is nx - 2 and node i sits at
// x = i - (nx - 1)/2 (likewise in y).
struct LatticeDuct {
  double a = 0.0, b = 0.0;  // half-widths
  std::size_t nx = 0, ny = 0;

  double x(std::size_t i) const { return static_cast<double>(i) - 0.5 * static_cast<double>(nx - 1); }
  double y(std::size_t j) const { return static_cast<double>(j) - 0.5 * static_cast<double>(ny - 1); }
};
LatticeDuct lattice_duct(std::size_t nx, std::size_t ny);  // nx, ny >= 3

// The analytic axial velocity on every node of a lattice duct cross-section (x fastest, nx*ny values,
// 0 on wall nodes): what the solver's u_z on any z-plane should approach.
std::vector<double> lattice_duct_profile(std::size_t nx, std::size_t ny, double g, double nu);

// Least-squares line dp = sigma * (1/R) + intercept through (radius, pressure jump) pairs: the Laplace
// law check for Shan-Chen droplets. Needs two or more pairs with at least two distinct radii > 0.
struct LaplaceFit {
  double sigma = 0.0;      // slope: the surface tension
  double intercept = 0.0;  // ideally 0
  double r_squared = 0.0;  // coefficient of determination; 1 when every point is on the line
};
LaplaceFit laplace_fit(std::span<const double> radii, std::span<const double> pressure_jumps);

// Darcy permeability k = nu <u> / g of a periodic sample driven by a body force g, where <u> is the
// superficial (Darcy) velocity: the flow-direction velocity summed over ALL nodes, solid ones counting
// as zero, divided by the total node count, not by the pore count. Lattice units: k in cells^2.
double darcy_permeability(double mean_velocity, double nu, double g);

}  // namespace hetflow::lbm
