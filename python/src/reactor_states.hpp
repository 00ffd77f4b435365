#pragma once
// Reactor states as the chemistry solvers take them, assembled from the arrays hetflow.reactor_batch and
// hetflow.ignition_delays receive: the one copy of the states on their way in.
#include <pybind11/numpy.h>

#include <cstddef>
#include <vector>

namespace hetflow::python {

using CArray = pybind11::array_t<double, pybind11::array::c_style>;

// System after system its mass fractions (a row of Y, systems x species) then its temperature (T).
inline std::vector<double> reactor_states(const CArray& Y, const CArray& T) {
  const auto systems = static_cast<std::size_t>(Y.shape(0)), species = static_cast<std::size_t>(Y.shape(1));
  std::vector<double> y0(systems * (species + 1));
  for (std::size_t i = 0; i < systems; ++i) {
    double* state = y0.data() + i * (species + 1);
    for (std::size_t k = 0; k < species; ++k) state[k] = Y.data()[i * species + k];
    state[species] = T.data()[i];
  }
  return y0;
}

}  // namespace hetflow::python
