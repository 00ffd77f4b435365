#pragma once
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "hetflow/core/device_set.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/nnls/device_dense.hpp"
#include "hetflow/nnls/matrix.hpp"
#include "hetflow/nnls/solution.hpp"

namespace hetflow::nnls {

// How LSQ chooses the variables it moves back to Z when the subproblem's solution y has entries <= 0
// (Myre 2013, App. E.2 step 6.4). Factorisations on PoCL for the benchmark's square SVC problems (seeds
// 5, 7) at n = 500 / 1000, 5 % and 50 % active, are in docs/nnls.md.
enum class TntDeletion {
  // Lawson and Hanson's rule: step from the last feasible point towards y until the first variables
  // reach 0, and move those. Every deletion loop lowers the residual, so a trial that inserts a
  // variable with a positive gradient is accepted (in exact arithmetic; the inner loop's shrinking
  // then only runs on rounding) and TNT stops at a KKT point, also on ill-conditioned problems. Usually
  // one variable per loop, i.e. one factorisation per deleted variable that was positive before.
  step_back,
  // The thesis's rule (TNT-NN): the most negative entries of y first. Its LSQ can end above the residual
  // it started from, so on ill-conditioned problems even single insertions can be rejected and TNT stop
  // by App. E.1 step 5.6.6 short of the KKT point (docs/nnls.md, "How TNT works").
  most_negative,
  // The default: step_back with a projected line search. Each loop tries x(a) = max(0, x + a (y - x))
  // for a = 1 (the projection of y: every y <= 0 leaves F at once), then a halfway to step_back's
  // step a0, and so on (4 tries, scored with x(a0) in one pass over A, no factorisation), and takes
  // the largest a whose x(a) scores below step_back's point x(a0); all zeros of x(a) leave F. If none
  // does, the loop is step_back's, and in an outer iteration's first trial (and the initial solve) it
  // also moves the variables that would reach 0 within early_reach (TntOptions) times step_back's step:
  // on ill-conditioned problems y is far from feasible, the projection rarely lowers the score, and the
  // negative set barely changes from one solve to the next, so single removals would take a factorisation
  // each. That point can score above the loop's start; a rejected first trial's successors go without
  // it, so a single insertion keeps step_back's KKT guarantee. Ignores deletions_per_loop in the projected
  // loops. Fewer factorisations than step_back on well-conditioned problems (the loops after a batch
  // insertion collapse to about one) and on ill-conditioned ones (docs/nnls.md, Validation).
  batch,
};

// Options of the TNT solver (Myre 2013, Sec. 5.4 and App. E; Myre et al.'s TNT-NN). Every number refers
// to the column-scaled problem (each column of A divided by its 2-norm), so none depends on the units of
// the variables; the tolerances are also relative to ||b||.
struct TntOptions {
  // rc: a first trial inserts rc |C| of the candidates C, each next one rc times fewer. Not the thesis's
  // 0.2 but near its tuned dipole value (0.82): with the batch deletion rule nearly every first trial is
  // accepted, so rc sets the batch size, and small batches only add outer iterations (docs/nnls.md,
  // "Larger first batches, and PCGNR's reads carrying the answer").
  double reduction = 0.8;
  // ec: a batch holds at most ceil(ec k), k the last accepted batch; a first trial smaller than that cap
  // (for want of candidates) leaves k as it was.
  double expansion = 1.2;
  double rel_tol = 0;  // a trial is accepted when its residual < best * (1 - rel_tol)
  // Tikhonov regularisation: min ||A_s x_s - b||^2 + lambda ||x_s||^2 (x_s the scaled variables), i.e.
  // the rows sqrt(lambda) I appended to A_s; AA += lambda I. The KKT test is then on that problem.
  double lambda = 0;
  int max_cg_iterations = 20;
  // PCGNR stops once ||B^T r|| <= cg_tolerance ||B^T b||. Not 1e-12: with a good preconditioner that
  // stops one iteration early and leaves ||r|| at 1e-13 .. 1e-10 ||b|| on consistent problems, where
  // one more iteration (cheap beside the factorisation) reaches rounding (1e-15).
  double cg_tolerance = 1e-14;
  int max_outer_iterations = 0;  // 0: 3n
  // Asked before every outer iteration with the iterations done; false ends the solve at the best point so
  // far, as a Ctrl-C does (the Python package's progress reports). Empty: never asked.
  std::function<bool(int)> keep_going = {};
  // KKT tolerance on the scaled gradient a_j^T r / (||a_j|| ||b||). 0 selects, in FP64, FNNLS's
  // 10 eps n ||AA||_1 (AA = A_s^T A_s; as BaselineOptions, so both stop on the same test); in FP32,
  // 10 eps_32 sqrt(n), about the rounding of the computed gradient (FNNLS's rule would give 1e-3 at
  // n = 40 and 0.05 at n = 45,000, far from the KKT point). With 0 in FP64, variables whose gradient lies
  // between the gradient's rounding (10 eps sqrt(m)) and that tolerance are still offered (Tnt::run).
  double tolerance = 0;
  TntDeletion deletion = TntDeletion::batch;
  // With the batch rule, how far the first trial's step_back loops reach, in multiples of Lawson-Hanson's
  // step: the variables that would reach 0 within it leave F together. 1: Lawson-Hanson's step alone. Four
  // suits large problems, two small ill-conditioned ones (docs/nnls.md, "How far the early zeros reach").
  double early_reach = 4;
  // Deletions per loop of the LSQ calls inside the outer loop (the initial solve allows n): 0 selects
  // the trial's batch size, so a trial can undo its own batch in one refactorisation.
  std::size_t deletions_per_loop = 0;
  // Warm start: the first free set. Empty: the variables with a positive gradient at x = 0 (every index:
  // the thesis's start, App. E.1 step 4).
  std::vector<std::size_t> initial_free = {};
  bool fp32 = false;  // run every device operation in FP32 (the host keeps FP64)
};

// One inner iteration (one trial batch), or the initial solve (outer 0).
struct TntIteration {
  int outer = 0;                 // 1-based outer iteration; 0: the initial solve
  std::size_t free = 0;          // |F| after the trial's deletions
  std::size_t inserted = 0;      // variables moved Z -> F by the trial
  std::size_t deleted = 0;       // variables the trial's LSQ moved back F -> Z
  double residual = 0.0;         // the trial's score (with lambda > 0: sqrt(||r||^2 + lambda ||x_s||^2))
  int cg_iterations = 0;         // PCGNR iterations of the trial, over its deletion loops
  bool accepted = false;         // the score beat the best so far (the initial solve always counts)
};

struct TntResult : Solution {
  int inner_iterations = 0;  // trials, accepted or not
  int cg_iterations = 0;
  // Preconditioners for a free set: the inverse of AA(F, F) updated from the last set's or built anew,
  // failed ones (that raised the diagonal shift) included; `rebuilds` of them built anew.
  int factorizations = 0, rebuilds = 0;
  std::vector<TntIteration> log;
  // Where the host's wall clock went: setup is A's scaling (and upload) and A^T A, shared by the right-hand
  // sides of one call; then the factorisations (the host's part: the device runs them ahead of PCGNR,
  // whose first read waits for both, so their device time counts in cg_seconds) and PCGNR. The rest of
  // a solve is gradients, residuals and line searches.
  double setup_seconds = 0.0, factor_seconds = 0.0, cg_seconds = 0.0;
};

// min ||A x - b||_2 s.t. x >= 0 by TNT on one OpenCL device: the active set changes by batches of
// variables ranked by their gradient, each least-squares subproblem is solved by CGNR preconditioned
// with the inverse of the reduced normal matrix AA(F, F), carried from one free set to the next
// (GramInverse; the normal equations' squared condition number does not limit the answer's accuracy).
// The device does every O(n^2) or larger step (AA = A^T A once per matrix, gathers, the preconditioner's
// updates, GEMVs); the host keeps the index sets and reads back the gradient once per outer iteration,
// the projected points' scores once per deletion loop, and PCGNR's scalars (see Pcgnr), with which
// the subproblem's solution and the preconditioner update's failure flag arrive.
//
// Stops when the KKT conditions hold to TntOptions::tolerance (converged), when not even the single
// most attractive insertion lowers the residual (rounding or rank deficiency: converged only if the
// KKT test holds anyway, else a diagnosis), or at max_outer_iterations. Throws core::Error on malformed
// input (see check_problem) or a bad warm start. The kernels of one precision are built on first use;
// not for use from two threads at once.
class Tnt {
 public:
  // On the compute queue of device `device` of `devices` (as SvcGenerator, so a generated matrix needs
  // no synchronisation).
  explicit Tnt(const core::DeviceSet& devices, std::size_t device = 0, const DenseTuning& tuning = {});
  ~Tnt();
  Tnt(const Tnt&) = delete;
  Tnt& operator=(const Tnt&) = delete;

  // A on the host, read where it lies (a Matrix or a view of the caller's array).
  TntResult solve(MatrixView A, const Vector& b, const TntOptions& options = {});
  // One result per column of B (A.rows x k): A and AA are formed on the device once for all of them.
  // Each right-hand side starts from the same AA, so the results equal one-at-a-time solves bit for bit.
  std::vector<TntResult> solve(MatrixView A, MatrixView B, const TntOptions& options = {});
  // A already on this device (FP64, e.g. from SvcGenerator): not downloaded, not modified; a scaled
  // copy in the working precision is made beside it.
  TntResult solve(const DeviceMatrixView<double>& A, const Vector& b, const TntOptions& options = {});
  std::vector<TntResult> solve(const DeviceMatrixView<double>& A, MatrixView B, const TntOptions& options = {});

  const core::Queue& queue() const { return queue_; }

 private:
  struct Setup;
  template <class Real>
  std::vector<TntResult> run(const Setup& setup, MatrixView B, const TntOptions& options);
  template <class Real>
  DeviceDense<Real>& dense();
  const core::Program& setup_program(bool fp32);

  core::Context context_;
  core::Queue queue_;
  DenseTuning tuning_;
  std::unique_ptr<DeviceDense<double>> f64_;
  std::unique_ptr<DeviceDense<float>> f32_;
};

}  // namespace hetflow::nnls
