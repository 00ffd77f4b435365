#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "hetflow/chem/mechanism.hpp"
#include "hetflow/ode/radau5.hpp"

namespace hetflow::chem {

// OpenCL C for the constant-pressure adiabatic reactor of ConstantPressureReactor (chem/reactor.cl
// after the mechanism's sizes): it defines
//   void rhs(double t, const double* y, double* f, __global const double* p, __global const double* tables)
//   void jac(double t, const double* y, double* dfdy, __global const double* p, __global const double* tables)
// with y = (Y_1..Y_K, T), as the host reactor orders it, the pressure [Pa] in p[0], the mechanism in
// `tables` (reactor_tables) and dfdy[i + j (K + 1)] = ∂f_i/∂y_j. Every formula keeps the host code's
// order of operations, so the two agree to the last bits that the devices' exp, log and pow leave.
std::string reactor_source(const Mechanism& mechanism);

// The mechanism's species and reactions as the table reactor.cl reads.
std::vector<double> reactor_tables(const Mechanism& mechanism);

// The most concentration exponents of one reaction, forward and reverse together (at least 1).
std::size_t reactor_max_exponents(const Mechanism& mechanism);

// How RADAU5 gets the reactor's Jacobian: the exact one (jac()), or its own forward differences of
// rhs() (K + 1 evaluations per Jacobian).
enum class ReactorJacobian { analytic, finite_difference };

// The reactor as an ode::Radau5 system: K + 1 equations, one parameter (the pressure), the mechanism
// as its tables.
ode::System reactor_system(const Mechanism& mechanism, ReactorJacobian jacobian = ReactorJacobian::analytic);

}  // namespace hetflow::chem
