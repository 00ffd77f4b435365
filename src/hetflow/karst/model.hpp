#pragma once
#include <cstddef>
#include <span>
#include <vector>

namespace hetflow::karst {

// The karst-conduit transport model of Myre 2013, Ch. 4, in the thesis's dimensionless variables:
// x* = x/L along the conduit, r* = r/R into the rock, t* = t V̄/L, T* = T/T_r0, v* = V(t)/V̄.
//   heat (Eq. 4.3/4.4):  dTw/dt = (1/Pe) Tw'' - v* Tw' + St (T0 - Tw),   d2Tr/dr*2 = Theta dTr/dt,
//                        dTr/dr*(wall) = Theta Psi St / 2 (T0 - Tw)
//   solute (Eq. 4.22):   dC/dt = (1/Pe) C'' - v* C' + Da C           (no rock)
// Inlet x* = 0: Dirichlet from the inlet series; outlet x* = 1: see Outlet.
enum class Model { heat, solute };

// The outlet row of the water system (Myre 2013, Eq. 4.20).
enum class Outlet {
  // As printed (thesis Eq. 4.20 matrix): lower entry -v* dt/dx ("dispersion set to zero"), diagonal kept
  // 1 + 2a + dt St. Its row sum differs from the other rows' by 2c - 2a (a = dt/(Pe dx^2),
  // c = v* dt/(2 dx)), so a uniform state drifts at the outlet unless v* = 2/(Pe dx).
  thesis,
  // Finite-volume half cell at x* = 1 with zero dispersive flux through the outlet and advective outflow
  // v* T there: lower -(2a + 2c), diagonal 1 + 2a + 2c + dt St. Keeps a uniform state exactly and, with
  // the interior rows, conserves heat/solute exactly (trapezoid weights; see host_solver.hpp).
  outflow,
};

// The rock row farthest from the wall (the thesis holds its temperature; the insulated variant closes
// the rock for the energy balance check).
enum class FarField {
  fixed,      // thesis: last row [0 ... 0 1], the far field stays at the initial temperature
  insulated,  // zero flux: ghost node mirrored, last row (-2 Fo, 1 + 2 Fo)
};

// One parameter set of the batch. Heat uses Pe, St, Theta, Psi; solute uses Pe and Da.
struct KarstParameters {
  double Pe = 1000;   // L V̄ / D_L, longitudinal dispersion (Eq. 4.5)
  double St = 0;      // 4 h L / (rho_w c_pw D_H V̄), water-wall exchange (Eq. 4.6)
  double Theta = 1;   // R^2 V̄ / (L alpha_r), rock conduction time scale (Eq. 4.9)
  double Psi = 1;     // rho_w c_pw / (rho_r c_pr), volumetric heat capacity ratio
  double Da = 0;      // L / lambda_d,turb, enters as +Da C (Eq. 4.22 as printed)
};

// The discretisation and the model options a batch shares.
// Water nodes j = 0 .. nodes-1 sit at x* = (j + 1) dx, dx = 1/nodes: the inlet x* = 0 is the Dirichlet
// node -1, the last node is the outlet x* = 1, whose value is the model's output (App. C.1 step 4.8).
// Rock nodes i = 0 .. rock_nodes-1 of each water node sit at r* = 1 + i dr, dr = rock_extent/(rock_nodes-1)
// (i = 0 is the wall). The rock uses the thesis's planar stencil (the 1/r* term is not discretised).
struct Grid {
  Model model = Model::heat;
  std::size_t nodes = 1000;       // N
  std::size_t rock_nodes = 100;   // M (heat only)
  double rock_extent = 10;        // r* from the wall to the far-field node (heat only; not in the thesis)
  std::vector<double> times;      // step ends t*_1 < ... < t*_K; the run starts at t* = 0; one output each
  Outlet outlet = Outlet::outflow;
  FarField far_field = FarField::fixed;
  double initial = 1;             // T* (C*) of water and rock at t* = 0; the thesis uses 1

  double dx() const { return 1.0 / static_cast<double>(nodes); }
  double dr() const { return rock_extent / static_cast<double>(rock_nodes - 1); }
  bool has_rock() const { return model == Model::heat; }

  // K steps of dt: times dt, 2 dt, ..., K dt.
  static std::vector<double> uniform_times(double dt, std::size_t steps);
};

// Throws core::Error naming the field and its value when the grid is unusable: fewer than 2 water or
// 3 rock nodes, rock_extent <= 0, initial not finite (check_grid_space), and no steps or times not
// strictly increasing from t* > 0 (check_grid, which checks both).
void check_grid_space(const Grid& grid);
void check_grid(const Grid& grid);
// Throws core::Error naming the set's index, the group and its value: Pe <= 0, and for heat St < 0,
// Theta <= 0 or Psi <= 0, or any group not finite.
void check_parameters(std::span<const KarstParameters> sets, Model model);

// Physical conduit and rock properties (SI) from which the heat groups follow (Myre 2013, Sec. 4.2.1).
struct ConduitProperties {
  double length;               // L (m)
  double hydraulic_diameter;   // D_H (m); the conduit radius is D_H / 2
  double mean_velocity;        // V̄ (m/s)
  double dispersion;           // D_L (m^2/s)
  double friction_factor;      // Darcy-Weisbach f
  double water_heat_capacity = 4200, water_conductivity = 0.58, water_viscosity = 1.3e-3,
         water_density = 1000;  // c_pw, k_w, mu_w, rho_w (Luhmann 2011, as Myre 2013 quotes them)
  double rock_heat_capacity = 810, rock_conductivity = 2.15, rock_density = 2320;  // c_pr, k_r, rho_r
};

// Intermediate numbers of the heat groups, for checks and reports.
struct HeatGroups {
  KarstParameters parameters;  // Pe, St, Theta, Psi (Da = 0)
  double Re, Pr, Nu, h;        // Nu by Gnielinski (Eq. 4.8), h = k_w Nu / D_H (W/m^2/K)
};
// Throws core::Error when a property is not positive or Re <= 1000 (Gnielinski gives Nu <= 0 there).
HeatGroups heat_groups(const ConduitProperties& conduit);

}  // namespace hetflow::karst
