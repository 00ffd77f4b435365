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

}  // namespace hetflow::chem::test
