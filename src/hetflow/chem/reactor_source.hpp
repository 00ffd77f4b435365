#pragma once
#include <string>
#include <vector>

#include "hetflow/chem/mechanism.hpp"
#include "hetflow/chem/reactor.hpp"
#include "hetflow/ode/radau5.hpp"

namespace hetflow::chem {

// OpenCL C for the adiabatic reactor of ConstantPressureReactor or ConstantVolumeReactor: it defines
//   void rhs(double t, const double* y, double* f, __global const double* p)
// with y = (Y_1..Y_K, T), as the host reactor orders it, and the reactor's parameter in p[0]: the
// pressure [Pa], or at constant volume the density [kg/m³]. The kind is the macro CHEM_CONSTANT_VOLUME
// (0 or 1) at the top of the source, which the Jacobian and the group functions read as well. The
// mechanism's constants are embedded; every formula keeps the host code's order of operations
// (kinetics.cpp, kinetics_parts.cpp, thermo.cpp, reactor.cpp), so the two agree to the last bits that the devices' exp,
// log and pow leave. Contraction is switched off for the same reason.
// Under #if ODE_STAGE_LANES it also defines rhs_lanes, rhs() over double4 with one state per lane
// (ode::System::stage_lanes).
std::string reactor_rhs_source(const Mechanism& mechanism, ReactorKind kind = ReactorKind::constant_pressure);

// OpenCL C to append to reactor_rhs_source: it defines
//   void jac(double t, const double* y, double* dfdy, __global const double* p)
// with dfdy[i + j (K + 1)] = ∂f_i/∂y_j, the twin of the host reactor's jacobian (same order of
// operations, so device and host agree to the last bits of exp, log and pow), for the kind the rhs
// source chose.
std::string reactor_jacobian_source(const Mechanism& mechanism);

// The mechanism's reactions, and each species' production terms, as the table that the reactor's
// cooperative rhs_group and jac_group (chem/reactor_group.cl) read in RADAU5's mapping 2.
std::vector<double> reactor_tables(const Mechanism& mechanism);

// How RADAU5 gets the reactor's Jacobian: the exact one (jac(), from reactor_jacobian_source), or its
// own forward differences of rhs() (K + 1 evaluations per Jacobian).
enum class ReactorJacobian { analytic, finite_difference };

// The reactor as an ode::Radau5 system: K + 1 equations, one parameter (the pressure [Pa] at constant
// pressure, the density [kg/m³] at constant volume), and the cooperative rhs and (with jac()) Jacobian
// for mapping 2 (System::group_rhs, group_jac) with reactor_tables.
// Above 64 equations with the analytic Jacobian it is group_only, with the Jacobian's pattern and its
// rank-one part (System::jacobian_pattern, jacobian_low_rank), so that RADAU5 factorises it sparsely.
ode::System reactor_system(const Mechanism& mechanism, ReactorJacobian jacobian = ReactorJacobian::analytic,
                           ReactorKind kind = ReactorKind::constant_pressure);

// The temperature of every state in `states` (reactor_system's y, K + 1 values each): the
// ode::Batch::sort_key that runs reactors of similar temperature side by side: they take similar steps,
// so neighbouring work-items on a GPU wait less for each other (docs/chem.md, Performance).
std::vector<double> reactor_temperatures(const std::vector<double>& states, std::size_t species);

}  // namespace hetflow::chem
