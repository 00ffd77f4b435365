#pragma once
// Pieces of the generated OpenCL C shared by the reactor's rhs() (reactor_source.cpp) and jac()
// (reactor_jacobian_source.cpp). Each emits the statements that one host function evaluates, with the
// host's order of operations, over the source's type REAL and helper names LANES(f) (double and f, except
// in the rhs path's lanes copy, reactor_source.cpp). Internal to the chem module.
#include <string>
#include <vector>

#include "hetflow/chem/mechanism.hpp"
#include "hetflow/chem/reactor.hpp"

namespace hetflow::chem::source {

// A double as an OpenCL C double literal that reads back to the same bits.
std::string literal(double v);
std::string num(int k);
std::string join(const std::vector<std::string>& items, const std::string& separator);
// k = A T^b exp(-E_a / RT) as Kinetics's arrhenius() computes it, from log_T and RT, which the enclosing
// function defines.
std::string arrhenius_call(const Arrhenius& k);

// One factor x^order of a concentration product (parts::factor) as an expression.
std::string factor(const std::string& x, double order);
// `REAL <name>` = Π c_k^order (parts::concentration_product).
std::string concentration_product(const std::string& name, const std::vector<Term>& exponents);
// The statements that define m ([M], when the reaction has one) and kf (Kinetics::forward_constant);
// a falloff rate also leaves k0, kinf, pr, log10_pr, f (and fcent for Troe) defined.
std::string forward_constant(const Reaction& r);
// `REAL <name>` = Σ ν''_k x[k] - Σ ν'_k x[k], products first (the reaction's change of species
// property x: g for ΔG°, h for ΔH°).
std::string reaction_change(const Reaction& r, const std::string& name, const std::string& x);
// For a reversible reaction: kr, and for an equilibrium reverse rate also ratio = kr / kf (from RT and
// log_c0).
std::string reverse_constant(const Reaction& r);
// "m * " for a three-body rate, whose rate of progress [M] multiplies; "" otherwise.
std::string rate_scale(const Reaction& r);
// w[k] -= ν'_k q, w[k] += ν''_k q (Kinetics::production_rates).
std::string production(const Reaction& r);

// What every reactor source starts with: the mechanism's sizes and constants and the reactor's kind
// (CHEM_CONSTANT_VOLUME, with CHEM_ENERGY and CHEM_CAPACITY: a species' e_k and c_k in the energy
// equation) as macros and the fixed helpers of rhs() (chem_floor, chem_troe, chem_sri, chem_plog_rate,
// chem_nasa); then, for the
// Jacobian, CHEM_N, CHEM_LN10 and its helpers (the slopes, chem_nasa_cp_slope). Neither holds the
// species' constants, which the generated functions take from __constant arrays and the group
// functions from the tables.
std::string rhs_helpers(const Mechanism& m, ReactorKind kind);
std::string jacobian_helpers();

}  // namespace hetflow::chem::source
