#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "hetflow/nnls/matrix.hpp"

namespace hetflow::app {

// A class of NNLS problems for which TNT's reduction and expansion constants are tuned (Myre 2013,
// Ch. 7: the constants that run best change with the conditioning and the share of active
// constraints). It has a name, under which the tuning database stores its constants, and a few
// representative problems: square SVC matrices (Sec. 5.3) for every condition number in `kappas`,
// each with a right-hand side for every fraction in `active` (nnls::with_active_set), or the user's
// own matrices and right-hand sides in `files`.
struct TntClass {
  std::string name;
  std::size_t n = 200;                 // the SVC matrices' order
  std::vector<double> kappas = {1e2};  // their condition numbers
  std::vector<double> active = {0.1};  // fractions of the variables at 0 in the solutions
  std::vector<std::string> files;      // A1, b1, A2, b2, ...; when given, no SVC problems
};

// The seeds of the SVC matrices and of their right-hand sides, as `hetflow bench nnls` uses.
inline constexpr unsigned tnt_class_matrix_seed = 5, tnt_class_rhs_seed = 7;

// core::Error unless `name` is a class name: letters, digits, '.', '_' and '-', as it appears in
// reports and on command lines.
void check_class_name(const std::string& name);

// core::Error naming the option and value for a bad name, n < 2, kappa not finite or below 1, an active
// fraction outside [0, 1) or an odd number of files.
void validate(const TntClass& c);

// "SVC 200 x 200 (seed 5), kappa 100 and 1e+06, 10 % active (seed 7)" or "A.npy with b.npy", for the
// database entry and the tuning log.
std::string describe(const TntClass& c);

// One problem of a class: A and its right-hand sides (one per column of B).
struct TntClassProblem {
  std::string label;  // "kappa 100, 10 % active" or "A.npy with b.npy"
  nnls::Matrix A, B;
};

// The class's problems, generated or read (the files' errors as `hetflow nnls` reports them).
std::vector<TntClassProblem> tnt_class_problems(const TntClass& c);

}  // namespace hetflow::app
