// A host reference for the flamelet tests: the steady state of the semi-discrete flamelet equations
// L u + f(u) = 0 (the diffusion operator of chem::flamelet_diffusion_operator, f the constant-pressure
// reactor), found in FP64 by pseudo-transient continuation with the reactor's exact Jacobian, ending in
// plain Newton iterations.
#pragma once
#include <vector>

#include "hetflow/chem/mechanism.hpp"

namespace hetflow::chem::test {

struct SteadyFlamelet {
  std::vector<double> state;     // node-major, (Y, T) per node, boundaries as given
  double residual = 0.0;         // the final largest |F|: mass fractions as they are, T over T_max [1/s]
  double last_correction = 0.0;  // the final Newton step's largest |dY| and |dT| / T_max
  int iterations = 0;
};

// From `start` (node-major, (Y, T) per node); z and chi at every node, pressure in Pa. Fails the calling
// test (ADD_FAILURE) when it does not converge.
SteadyFlamelet steady_flamelet(const Mechanism& m, const std::vector<double>& z, const std::vector<double>& chi,
                               double pressure, std::vector<double> start);

}  // namespace hetflow::chem::test
