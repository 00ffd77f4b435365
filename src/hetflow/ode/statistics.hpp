#pragma once
#include <string>

namespace hetflow::ode {

// RADAU5's return code IDID for one system.
enum class Status : int {
  success = 1,
  too_many_steps = -2,    // more than nmax steps
  step_too_small = -3,    // 0.1 |h| <= |t| uround
  singular_matrix = -4,   // the iteration matrix was exactly singular 5 times
  not_run = 0             // the kernel did not reach this system (never returned by a finished launch)
};

// What one system's integration did; the counters follow Hairer & Wanner.
struct Statistics {
  Status status = Status::not_run;
  long nfcn = 0;    // right-hand-side evaluations, without those of a finite-difference Jacobian
  long njac = 0;    // Jacobian evaluations
  long nstep = 0;   // steps attempted
  long naccpt = 0;  // accepted steps
  long nrejct = 0;  // rejected steps (not counting rejections before the first accepted step)
  long ndec = 0;    // LU decompositions (each one real and one complex)
  long nsol = 0;    // forward-backward substitutions (Newton iterations)
  double t = 0.0;   // time reached: t_end on success, the last accepted step's end otherwise
  double h = 0.0;   // predicted next step size on success; the step size being tried on failure

  int idid() const { return static_cast<int>(status); }
  bool ok() const { return status == Status::success; }
};

// "IDID = -2: more than nmax = 100 steps; stopped at t = 0.52 with h = 1e-3": why a system stopped.
std::string describe(const Statistics& s, long nmax);

}  // namespace hetflow::ode
