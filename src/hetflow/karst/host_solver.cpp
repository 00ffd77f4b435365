#include "hetflow/karst/host_solver.hpp"

#include <algorithm>

namespace hetflow::karst {

HostSolver::HostSolver(const KarstParameters& parameters, const Grid& grid) : p_(parameters), grid_(grid) {
  check_grid_space(grid_);
  check_parameters({&p_, 1}, grid_.model);
  const std::size_t n = grid_.nodes;
  water_.assign(n, 0.0);
  d_.assign(std::max(n, grid_.rock_nodes), 0.0);
  cp_.assign(d_.size(), 0.0);
  r_.assign(d_.size(), 0.0);
  if (grid_.has_rock()) rock_.assign(n * grid_.rock_nodes, 0.0);
}

void HostSolver::step(double dt, double velocity, double inlet) {
  if (grid_.has_rock()) rock_step(dt);
  water_step(dt, velocity, inlet - grid_.initial);
}

void HostSolver::rock_step(double dt) {
  const std::size_t m = grid_.rock_nodes;
  const double dr = grid_.dr();
  const double fo = dt / (p_.Theta * dr * dr);
  const double fobi = p_.Psi * p_.St * dt / (2.0 * dr);
  const double two_fobi = 2.0 * fobi;
  const double diag = 1.0 + 2.0 * fo, off = -fo;
  const bool fixed = grid_.far_field == FarField::fixed;
  const double lower_last = fixed ? 0.0 : -2.0 * fo, diag_last = fixed ? 1.0 : diag;

  // The matrix is the same for every column: factor once per step.
  r_[0] = 1.0 / (diag + two_fobi);
  cp_[0] = -2.0 * fo * r_[0];
  for (std::size_t i = 1; i + 1 < m; ++i) {
    r_[i] = 1.0 / (diag - off * cp_[i - 1]);
    cp_[i] = off * r_[i];
  }
  r_[m - 1] = 1.0 / (diag_last - lower_last * cp_[m - 2]);

  for (std::size_t j = 0; j < grid_.nodes; ++j) {
    double* t = &rock_[j * m];
    d_[0] = (t[0] + two_fobi * water_[j]) * r_[0];
    for (std::size_t i = 1; i + 1 < m; ++i) d_[i] = (t[i] - off * d_[i - 1]) * r_[i];
    t[m - 1] = (t[m - 1] - lower_last * d_[m - 2]) * r_[m - 1];
    for (std::size_t i = m - 1; i-- > 0;) t[i] = d_[i] - cp_[i] * t[i + 1];
  }
}

void HostSolver::water_step(double dt, double velocity, double theta_in) {
  const std::size_t n = grid_.nodes;
  const bool heat = grid_.model == Model::heat;
  const double dx = grid_.dx(), t_ref = grid_.initial;
  const double a = dt / (p_.Pe * dx * dx);
  const double c = velocity * dt / (2.0 * dx);
  const double ds = heat ? dt * p_.St : -(dt * p_.Da);
  const double diag = 1.0 + 2.0 * a + ds, lower = -a - c, upper = c - a;
  const double src = heat ? 0.0 : dt * p_.Da * t_ref;
  double lower_n, diag_n, src_n;
  if (grid_.outlet == Outlet::thesis) {
    lower_n = -2.0 * c;
    diag_n = diag;
    src_n = src + t_ref * (2.0 * c - 2.0 * a);
  } else {
    lower_n = -(2.0 * a + 2.0 * c);
    diag_n = 1.0 + 2.0 * a + 2.0 * c + ds;
    src_n = src;
  }

  for (std::size_t j = 0; j < n; ++j) {
    double b = water_[j];
    if (heat) b += ds * rock_[j * grid_.rock_nodes];  // the wall node, already at step k+1
    b += j + 1 == n ? src_n : src;
    if (j == 0) b -= lower * theta_in;
    d_[j] = b;
  }

  double r = 1.0 / diag;
  cp_[0] = upper * r;
  d_[0] = d_[0] * r;
  for (std::size_t j = 1; j + 1 < n; ++j) {
    r = 1.0 / (diag - lower * cp_[j - 1]);
    cp_[j] = upper * r;
    d_[j] = (d_[j] - lower * d_[j - 1]) * r;
  }
  r = 1.0 / (diag_n - lower_n * cp_[n - 2]);
  water_[n - 1] = (d_[n - 1] - lower_n * d_[n - 2]) * r;
  for (std::size_t j = n - 1; j-- > 0;) water_[j] = d_[j] - cp_[j] * water_[j + 1];
}

Series host_run(const Series& inlet, const Series& velocity, const KarstParameters& parameters, const Grid& grid) {
  const StepForcing f = step_forcing(inlet, velocity, grid);
  HostSolver solver(parameters, grid);
  Series out{grid.times, std::vector<double>(grid.times.size())};
  for (std::size_t k = 0; k < grid.times.size(); ++k) {
    solver.step(f.dt[k], f.velocity[k], f.inlet[k]);
    out.value[k] = solver.outlet();
  }
  return out;
}

}  // namespace hetflow::karst
