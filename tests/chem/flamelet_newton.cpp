#include "flamelet_newton.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "hetflow/chem/flamelet_diffusion.hpp"
#include "hetflow/chem/kinetics.hpp"
#include "hetflow/chem/reactor.hpp"

namespace hetflow::chem::test {
namespace {

// Inverts the n x n row-major matrix `a` in place by Gauss-Jordan elimination with partial pivoting.
void invert(std::vector<double>& a, std::size_t n) {
  std::vector<double> inv(n * n, 0.0);
  for (std::size_t i = 0; i < n; ++i) inv[i * n + i] = 1.0;
  for (std::size_t c = 0; c < n; ++c) {
    std::size_t pivot = c;
    for (std::size_t r = c + 1; r < n; ++r)
      if (std::abs(a[r * n + c]) > std::abs(a[pivot * n + c])) pivot = r;
    for (std::size_t j = 0; j < n; ++j) {
      std::swap(a[c * n + j], a[pivot * n + j]);
      std::swap(inv[c * n + j], inv[pivot * n + j]);
    }
    const double d = 1.0 / a[c * n + c];
    for (std::size_t j = 0; j < n; ++j) {
      a[c * n + j] *= d;
      inv[c * n + j] *= d;
    }
    for (std::size_t r = 0; r < n; ++r) {
      if (r == c || a[r * n + c] == 0.0) continue;
      const double f = a[r * n + c];
      for (std::size_t j = 0; j < n; ++j) {
        a[r * n + j] -= f * a[c * n + j];
        inv[r * n + j] -= f * inv[c * n + j];
      }
    }
  }
  a = std::move(inv);
}

std::vector<double> times(const std::vector<double>& a, const double* x, std::size_t n) {
  std::vector<double> y(n, 0.0);
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t c = 0; c < n; ++c) y[r] += a[r * n + c] * x[c];
  return y;
}

struct Problem {
  const DiffusionOperator op;
  const ConstantPressureReactor& reactor;
  std::size_t n, points;

  // F = L u + f(u) at the interior nodes, N n values.
  std::vector<double> residual(const std::vector<double>& u) const {
    std::vector<double> f(points * n), rhs(n);
    for (std::size_t i = 1; i <= points; ++i) {
      reactor.rhs(std::span<const double>(u.data() + i * n, n), rhs);
      const double a = op.lower[i - 1], c = op.upper[i - 1];
      for (std::size_t k = 0; k < n; ++k)
        f[(i - 1) * n + k] = rhs[k] + a * u[(i - 1) * n + k] - (a + c) * u[i * n + k] + c * u[(i + 1) * n + k];
    }
    return f;
  }
};

// The largest entry of interior values v (N n), mass fractions as they are and T over t_max.
double scaled_max(const std::vector<double>& v, std::size_t n, double t_max) {
  double m = 0.0;
  for (std::size_t i = 0; i < v.size(); ++i) m = std::max(m, std::abs(v[i]) / (i % n == n - 1 ? t_max : 1.0));
  return m;
}

double hottest(const std::vector<double>& u, std::size_t n) {
  double t = 0.0;
  for (std::size_t i = n - 1; i < u.size(); i += n) t = std::max(t, u[i]);
  return t;
}

}  // namespace

SteadyFlamelet steady_flamelet(const Mechanism& m, const std::vector<double>& z, const std::vector<double>& chi,
                               double pressure, std::vector<double> u) {
  const Kinetics kinetics(m);
  const ConstantPressureReactor reactor(kinetics, pressure);
  const std::size_t n = reactor.size(), points = z.size() - 2;
  const Problem problem{flamelet_diffusion_operator(z, chi), reactor, n, points};
  SteadyFlamelet out;
  std::vector<double> f = problem.residual(u);
  double norm = scaled_max(f, n, hottest(u, n));
  // The pseudo-time step [s] doubles while the residual falls; below `newton_below` the iteration drops
  // it (plain Newton) and stops once a correction is below 1e-13.
  double tau = 1e-5;
  const double newton_below = 1e-6;
  std::vector<double> jac(n * n);
  std::vector<std::vector<double>> inverses(points);
  std::vector<double> rhs(points * n), delta(points * n);
  for (int iteration = 0; iteration < 400; ++iteration) {
    const double inverse_tau = norm < newton_below ? 0.0 : 1.0 / tau;
    // (I / tau - J) delta = F by block Thomas: the coupling blocks are a_i I and c_i I.
    for (std::size_t i = 1; i <= points; ++i) {
      const double a = problem.op.lower[i - 1], c = problem.op.upper[i - 1];
      reactor.jacobian(std::span<const double>(u.data() + i * n, n), jac);
      std::vector<double>& block = inverses[i - 1];
      block.assign(n * n, 0.0);
      for (std::size_t r = 0; r < n; ++r)
        for (std::size_t col = 0; col < n; ++col)
          block[r * n + col] = (r == col ? inverse_tau + a + c : 0.0) - jac[r + col * n];
      std::copy(f.begin() + static_cast<std::ptrdiff_t>((i - 1) * n), f.begin() + static_cast<std::ptrdiff_t>(i * n),
                rhs.begin() + static_cast<std::ptrdiff_t>((i - 1) * n));
      if (i > 1) {
        const std::vector<double>& before = inverses[i - 2];
        const double coupling = a * problem.op.upper[i - 2];
        for (std::size_t e = 0; e < n * n; ++e) block[e] -= coupling * before[e];
        const std::vector<double> carried = times(before, rhs.data() + (i - 2) * n, n);
        for (std::size_t k = 0; k < n; ++k) rhs[(i - 1) * n + k] += a * carried[k];
      }
      invert(block, n);
    }
    for (std::size_t i = points; i >= 1; --i) {
      std::vector<double> r(rhs.begin() + static_cast<std::ptrdiff_t>((i - 1) * n),
                            rhs.begin() + static_cast<std::ptrdiff_t>(i * n));
      if (i < points)
        for (std::size_t k = 0; k < n; ++k) r[k] += problem.op.upper[i - 1] * delta[i * n + k];
      const std::vector<double> d = times(inverses[i - 1], r.data(), n);
      std::copy(d.begin(), d.end(), delta.begin() + static_cast<std::ptrdiff_t>((i - 1) * n));
    }
    std::vector<double> trial = u;
    for (std::size_t e = 0; e < points * n; ++e) trial[n + e] += delta[e];
    const std::vector<double> f_trial = problem.residual(trial);
    const double t_max = hottest(trial, n), norm_trial = scaled_max(f_trial, n, t_max);
    if (inverse_tau > 0.0 && (!std::isfinite(norm_trial) || norm_trial > 10.0 * norm)) {
      tau *= 0.25;  // too long a pseudo-step: retry shorter
      continue;
    }
    out.last_correction = scaled_max(delta, n, t_max);
    out.iterations = iteration + 1;
    tau = norm_trial < norm ? 2.0 * tau : 0.5 * tau;
    u = std::move(trial);
    f = f_trial;
    norm = norm_trial;
    if (inverse_tau == 0.0 && out.last_correction < 1e-13) break;
  }
  out.state = std::move(u);
  out.residual = norm;
  if (!(out.last_correction < 1e-13))
    ADD_FAILURE() << "the steady flamelet's Newton iteration did not converge: last "
                  << "correction " << out.last_correction << ", residual " << norm;
  return out;
}

}  // namespace hetflow::chem::test
