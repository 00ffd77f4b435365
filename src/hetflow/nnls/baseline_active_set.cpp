#include "hetflow/nnls/baseline_active_set.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "hetflow/nnls/lapack.hpp"

namespace hetflow::nnls {
namespace {

double smallest(const Vector& z) { return z.empty() ? 1.0 : *std::min_element(z.begin(), z.end()); }

}  // namespace

double norm2(const Vector& v) {
  double s = 0.0;
  for (double x : v) s += x * x;
  return std::sqrt(s);
}

double residual_norm(MatrixView A, const Vector& b, const Vector& x) {
  Vector r = b;
  const int m = static_cast<int>(A.rows), n = static_cast<int>(A.cols), one = 1;
  const double plus = 1.0, minus = -1.0;
  if (m > 0 && n > 0) dgemv_("N", &m, &n, &minus, A.data, &m, x.data(), &one, &plus, r.data(), &one);
  return norm2(r);
}

ActiveSetResult run_active_set(PassiveSetSolver& solver, std::size_t n, double tolerance, double b_norm,
                               const BaselineOptions& options) {
  const double threshold = tolerance * b_norm;
  const int limit = options.max_iterations > 0 ? options.max_iterations : static_cast<int>(3 * n);
  ActiveSetResult out;
  Vector& x = out.x;
  x.assign(n, 0.0);
  if (n == 0) {
    out.converged = true;
    return out;
  }
  Vector w(n), z;
  std::vector<std::size_t> passive;
  // `rejected`: released variables whose passive solve failed; skipped until x next changes.
  std::vector<char> in_passive(n, 0), rejected(n, 0);
  solver.gradient(x, w);
  for (;;) {
    std::size_t t = n;
    for (std::size_t j = 0; j < n; ++j)
      if (!in_passive[j] && !rejected[j] && w[j] > threshold && (t == n || w[j] > w[t])) t = j;
    if (t == n) break;
    if (out.iterations == limit) {
      out.diagnosis = "iteration limit " + std::string(options.max_iterations > 0 ? "" : "3n = ") +
                      std::to_string(limit) + " reached";
      return out;
    }
    ++out.iterations;
    passive.push_back(t);
    // In exact arithmetic w_t > 0 makes z_t > 0 and A(:, passive) of full rank; where rounding breaks
    // that, a_t is dependent on the passive columns to working precision and releasing t cannot help.
    if (!solver.solve(passive, z) || z.back() <= 0.0) {
      passive.pop_back();
      rejected[t] = 1;
      continue;
    }
    in_passive[t] = 1;
    // Each pass binds at least the blocking variable q, so this loop ends within |passive| passes.
    while (smallest(z) <= 0.0) {
      double alpha = 1.0;
      std::size_t q = passive.size();
      for (std::size_t k = 0; k < passive.size(); ++k) {
        if (z[k] > 0.0) continue;
        const double xj = x[passive[k]], step = xj - z[k] > 0.0 ? xj / (xj - z[k]) : 0.0;
        if (q == passive.size() || step < alpha) alpha = step, q = k;
      }
      for (std::size_t k = 0; k < passive.size(); ++k) x[passive[k]] += alpha * (z[k] - x[passive[k]]);
      x[passive[q]] = 0.0;
      std::erase_if(passive, [&](std::size_t j) {
        if (x[j] > 0.0) return false;
        x[j] = 0.0;
        in_passive[j] = 0;
        return true;
      });
      if (!solver.solve(passive, z)) {
        out.diagnosis = "the passive-set least-squares problem became singular to working precision";
        return out;
      }
    }
    for (std::size_t k = 0; k < passive.size(); ++k) x[passive[k]] = z[k];
    std::fill(rejected.begin(), rejected.end(), 0);
    // In exact arithmetic the variable just released stays free through the inner loop; one bound
    // again is the same rounding case as above, and releasing it again could cycle.
    if (!in_passive[t]) rejected[t] = 1;
    solver.gradient(x, w);
  }
  std::size_t stuck = 0;
  double largest = 0.0;
  for (std::size_t j = 0; j < n; ++j)
    if (rejected[j]) ++stuck, largest = std::max(largest, w[j] / b_norm);
  out.converged = stuck == 0;
  if (stuck > 0) {
    std::ostringstream s;
    s << stuck << " variable(s) at 0 have a scaled gradient above the tolerance " << tolerance << " (largest "
      << largest << ") but their columns depend linearly on the free ones to working precision";
    out.diagnosis = s.str();
  }
  return out;
}

}  // namespace hetflow::nnls
