#pragma once
// Shared by the Jacobian tests: reactor states and the comparison of two Jacobians.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "chem_test_util.hpp"
#include "hetflow/chem/reactor.hpp"

namespace hetflow::chem::test {

struct ReactorState {
  std::vector<double> y;  // mass fractions in mechanism order, then T
  double pressure = 0.0;
};

// The states of a Cantera reference table (name_reference.json): 600-2500 K, 0.005-100 atm, every
// species present (Y >= 1e-6).
inline std::vector<ReactorState> reference_states(const Mechanism& m, const std::string& name) {
  const nlohmann::json ref = reference(name);
  const auto names = ref["species"].get<std::vector<std::string>>();
  std::vector<ReactorState> out;
  for (const auto& s : ref["states"]) {
    ReactorState state{in_mechanism_order(m, names, s["Y"].get<std::vector<double>>()), s["p"].get<double>()};
    state.y.push_back(s["T"].get<double>());
    out.push_back(std::move(state));
  }
  return out;
}

// The same states one after the other (as a batch of device systems), and their pressures.
struct StackedStates {
  std::vector<double> y, pressures;
};

inline StackedStates stacked_reference_states(const Mechanism& m, const std::string& name) {
  StackedStates out;
  for (const ReactorState& s : reference_states(m, name)) {
    out.y.insert(out.y.end(), s.y.begin(), s.y.end());
    out.pressures.push_back(s.pressure);
  }
  return out;
}

// Central differences with one Richardson step, D = (4 D(h/2) - D(h)) / 3, which leaves an error of
// order h^4. Steps: 1e-2 of Y_j (at least 1e-7, so that a species at zero gets a step of 1e-7 around
// zero: GRI and H2/O2 have integer orders only, smooth through it), and 1e-4 of T. Smaller steps make
// the rounding of the cancelling rate sums grow as 1/h (1e-3 of Y_j gave 7e-7 below, 1e-4 gave 3e-6,
// with the analytic value fixed), larger ones the truncation. The states keep T
// away from the NASA-7 range switch (1000 K), where the RHS has a kink.
// Either reactor (ConstantPressureReactor, ConstantVolumeReactor).
template <class Reactor>
std::vector<double> finite_difference_jacobian(const Reactor& reactor, std::vector<double> y) {
  const std::size_t n = reactor.size();
  std::vector<double> dfdy(n * n), fp(n), fm(n);
  auto central = [&](std::size_t j, double h, std::vector<double>& d) {
    const double y0 = y[j];
    y[j] = y0 + h;
    reactor.rhs(y, fp);
    y[j] = y0 - h;
    reactor.rhs(y, fm);
    y[j] = y0;
    for (std::size_t i = 0; i < n; ++i) d[i] = (fp[i] - fm[i]) / (2 * h);
  };
  std::vector<double> d1(n), d2(n);
  for (std::size_t j = 0; j < n; ++j) {
    const double h = j + 1 == n ? 1e-4 * y[j] : 1e-2 * std::max(std::abs(y[j]), 1e-5);
    central(j, h, d1);
    central(j, h / 2, d2);
    for (std::size_t i = 0; i < n; ++i) dfdy[i + j * n] = (4 * d2[i] - d1[i]) / 3;
  }
  return dfdy;
}

// The Jacobian of the scaled state (Y_k, T / T_0), T_0 the state's temperature, which makes every entry
// a rate in 1/s: the T row divided by T_0, the T column multiplied by it.
inline std::vector<double> scaled(std::vector<double> dfdy, double t0) {
  const std::size_t n = static_cast<std::size_t>(std::lround(std::sqrt(static_cast<double>(dfdy.size()))));
  for (std::size_t j = 0; j < n; ++j) dfdy[n - 1 + j * n] /= t0;
  for (std::size_t i = 0; i < n; ++i) dfdy[i + (n - 1) * n] *= t0;
  return dfdy;
}

// The worst |got - want| of a column-major n x n matrix, relative to the largest |want| in the entry's
// column: entries that cancel to near zero are judged against the column's scale, which is what an
// error in a Newton matrix is felt against.
inline double worst_column_error(const std::vector<double>& got, const std::vector<double>& want, std::size_t n,
                                 std::size_t* where = nullptr) {
  double worst = 0.0;
  for (std::size_t j = 0; j < n; ++j) {
    double scale = 0.0;
    for (std::size_t i = 0; i < n; ++i) scale = std::max(scale, std::abs(want[i + j * n]));
    if (scale == 0.0) scale = 1.0;  // a column that is zero must stay zero to the absolute tolerance
    for (std::size_t i = 0; i < n; ++i) {
      const double e = std::abs(got[i + j * n] - want[i + j * n]) / scale;
      if (e > worst) {
        worst = e;
        if (where) *where = i + j * n;
      }
    }
  }
  return worst;
}

// The reactor's analytic Jacobian at y against finite_difference_jacobian, both scaled (scaled()): fails
// above `tolerance` of a column's largest entry, naming `what` and the entry; returns the worst error.
template <class Reactor>
double expect_jacobian_matches_differences(const Reactor& reactor, const std::vector<double>& y, double tolerance,
                                           const std::string& what) {
  const std::size_t n = reactor.size();
  std::vector<double> analytic(n * n);
  reactor.jacobian(y, analytic);
  const double t0 = y.back();
  const std::vector<double> got = scaled(analytic, t0);
  const std::vector<double> want = scaled(finite_difference_jacobian(reactor, y), t0);
  std::size_t at = 0;
  const double e = worst_column_error(got, want, n, &at);
  EXPECT_LE(e, tolerance) << what << ": entry (" << at % n << ", " << at / n << ") " << got[at] << " vs " << want[at];
  return e;
}

}  // namespace hetflow::chem::test
