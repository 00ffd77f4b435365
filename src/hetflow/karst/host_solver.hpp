#pragma once
#include <cstddef>
#include <vector>

#include "hetflow/karst/model.hpp"
#include "hetflow/karst/series.hpp"

namespace hetflow::karst {

// The sequential reference of the thesis's scheme (Myre 2013, Sec. 4.2.2 and App. C.1; docs/karst.md,
// "Model and discretisation") for one parameter set.
// Per step t*_k -> t*_{k+1} (implicit Euler, central differences):
//  1. rock (heat only), every column j with the water temperature of step k (thesis Eq. 4.14/4.15),
//     Fo = dt/(Theta dr^2), FoBi = Psi St dt/(2 dr) (Eq. 4.18):
//       (1 + 2Fo + 2FoBi) T0' - 2Fo T1'        = T0 + 2FoBi Tw          (wall node)
//       -Fo T(i-1)' + (1 + 2Fo) Ti' - Fo T(i+1)' = Ti                    (interior; B holds T^k: the
//                                                                          thesis misprints T^(k+1))
//       far field: T' = T (fixed) or -2Fo T(M-2)' + (1 + 2Fo) T(M-1)' = T(M-1) (insulated)
//  2. water with the new wall temperature (Eq. 4.20), a = dt/(Pe dx^2), c = v* dt/(2 dx):
//       (-a - c) Tw(j-1)' + (1 + 2a + dt s) Twj' + (c - a) Tw(j+1)' = Twj + dt St T0j'   (s = St; solute:
//       s = -Da, no rock term), the inlet value moved to the right-hand side of row 0, the outlet row by
//       grid.outlet.
// The coupling is the thesis's sequential one (rock lags the water by a step), no iteration: it is
// first order in time like the rest of the scheme. Both tridiagonal systems are solved by the Thomas
// algorithm without pivoting (the water matrix is diagonally dominant while v* dt/dx <= 1 + 2a, the rock
// matrix always).
//
// Both solvers store the deviation from the initial state, theta = T - grid.initial (far field at 0),
// and add grid.initial back on output. The heat equations are linear and homogeneous, so this is the
// same model; the constant parts of the solute equation (Da T_ref) and of the
// thesis outlet row ((2c - 2a) T_ref) become explicit source terms. A uniform state is then exactly
// zero and stays so, and round-off scales with the signal, not with the background.
//
// The device solver (device_solver.hpp, karst.cl) does the same operations in the same order; keep the
// two in step.
//
// Heat balance (outlet outflow, far field insulated): with water weights w_j = 1, w_(N-1) = 1/2 and rock
// trapezoid weights u_0 = u_(M-1) = 1/2, else 1, the content E = dx sum_j w_j (Tw_j + (2/Psi) dr
// sum_i u_i T_ij) changes per step by exactly
//   dx [ c (Tin' + Tw0') - a (Tw0' - Tin') - 2c Tw(N-1)' + dt St sum_j w_j (Tw_j - Tw_j') ]
// (inflow, advective outflow, and the lag of the sequential coupling: the rock takes up dt St (Tw - T0')
// while the water gives up dt St (Tw' - T0')).
class HostSolver {
 public:
  // Validates the grid (its times are not used here) and the set; the state starts at grid.initial.
  HostSolver(const KarstParameters& parameters, const Grid& grid);

  // One step of length dt with velocity v* and inlet value `inlet` (both at the step's end).
  void step(double dt, double velocity, double inlet);

  std::size_t nodes() const { return water_.size(); }
  double water(std::size_t j) const { return water_[j] + grid_.initial; }
  // Rock node i (0 = wall) of column j.
  double rock(std::size_t i, std::size_t j) const { return rock_[j * grid_.rock_nodes + i] + grid_.initial; }
  double outlet() const { return water(water_.size() - 1); }

 private:
  void rock_step(double dt);
  void water_step(double dt, double velocity, double theta_in);

  KarstParameters p_;
  Grid grid_;
  std::vector<double> water_;   // theta of the water, N
  std::vector<double> rock_;    // theta of the rock, column-major: column j holds rows 0 .. M-1
  std::vector<double> cp_, r_;  // Thomas scratch: modified upper diagonal and inverse pivots
  std::vector<double> d_;       // Thomas scratch: modified right-hand side
};

// The outlet series of one parameter set at grid.times.
Series host_run(const Series& inlet, const Series& velocity, const KarstParameters& parameters, const Grid& grid);

}  // namespace hetflow::karst
