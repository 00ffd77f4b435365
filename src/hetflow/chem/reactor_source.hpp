#pragma once
#include <string>

#include "hetflow/chem/mechanism.hpp"
#include "hetflow/ode/radau5.hpp"

namespace hetflow::chem {

// OpenCL C for the constant-pressure adiabatic reactor of ConstantPressureReactor: it defines
//   void rhs(double t, const double* y, double* f, __global const double* p)
// with y = (Y_1..Y_K, T), as the host reactor orders it, and the pressure [Pa] in p[0]. The
// mechanism's constants are embedded; every formula keeps the host code's order of operations
// (kinetics.cpp, thermo.cpp, reactor.cpp), so the two agree to the last bits that the devices' exp,
// log and pow leave. Contraction is switched off for the same reason.
std::string reactor_rhs_source(const Mechanism& mechanism);

// The reactor as an ode::Radau5 system: K + 1 equations, one parameter (the pressure), forward-
// difference Jacobian.
ode::System reactor_system(const Mechanism& mechanism);

}  // namespace hetflow::chem
