#pragma once
#include <cstddef>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/nnls/device_dense.hpp"
#include "hetflow/nnls/gram_inverse.hpp"
#include "hetflow/nnls/matrix.hpp"
#include "hetflow/nnls/pcgnr.hpp"
#include "hetflow/nnls/tnt.hpp"

namespace hetflow::nnls {

// The column-scaled problem on the device, shared by every right-hand side (built by Tnt).
template <class Real>
struct ScaledProblem {
  DeviceMatrixView<Real> a;   // A_s = A D^-1, m x n, unit columns (zero columns stay zero)
  DeviceMatrixView<Real> aa;  // A_s^T A_s + (epsilon + lambda) I, n x n; never changed by a solve
  double epsilon = 0.0;       // the initial shift 10 eps ||A_s^T A_s||_1 (App. E.1 step 2.1)
  double tolerance = 0.0;     // KKT tolerance on the scaled gradient relative to ||b||: converged below it
  // A bound variable whose scaled gradient exceeds this (<= tolerance) is still offered to the free set;
  // see Tnt::run for why the two differ.
  double release_tolerance = 0.0;
};

// TNT's outer and inner loops (Myre 2013, App. E.1) for one right-hand side at a time, with the device
// buffers they need; the host keeps the free set F and the binding set Z as sorted index vectors.
template <class Real>
class TntActiveSet {
 public:
  TntActiveSet(DeviceDense<Real>& dense, const core::Queue& queue, const ScaledProblem<Real>& problem);

  // x in the scaled variables (x_s = D x). Each call starts from the problem's AA and epsilon, so
  // solves do not depend on each other.
  TntResult solve(const Vector& b, const TntOptions& options);

 private:
  struct Trial {
    std::vector<int> free, bound;  // F and Z, sorted
    Vector x;                      // scaled variables, 0 on Z
    double score = 0.0;            // sqrt(||r||^2 + lambda ||x||^2)
    double residual = 0.0;         // ||r|| = ||b - A_s x||
  };
  struct LsqStats {
    int cg_iterations = 0;
    std::size_t deleted = 0;
  };

  // LSQ(F, Z) of Myre 2013, App. E.2 ("PCGNR with deletions"): solves on F, moves at most
  // deletions_per_loop of the variables with y <= 0 to Z (in the order TntOptions::deletion gives;
  // TntDeletion::batch first tries them all at once, without that limit) and solves again until y > 0. On
  // entry t.x is the feasible point to step back from and t.score its score; on return the solution, with
  // r on the device. With `early` (batch rule) the Lawson-Hanson step also moves the variables that would
  // reach 0 within TntOptions::early_reach times that step.
  LsqStats lsq(Trial& t, std::size_t deletions_per_loop, const TntOptions& options, TntResult& result, bool early);
  // Brings the preconditioner to F (the inverse of AA(F, F) + the accumulated shift) and runs PCGNR on F
  // (in the preconditioner's order); returns y in F's order.
  std::vector<Real> solve_on(const std::vector<int>& free, const TntOptions& options, TntResult& result,
                             LsqStats& stats);
  // The scores of feasible points x (on the F of the last solve_on, in its order), in scratch buffers,
  // up to gemm_skinny of them per pass over A.
  std::vector<double> scores_of(const std::vector<std::vector<double>>& points, double lambda);
  // r = b - A_s(:, F) y on the device for the last solve_on's F and y; ||r|| and the score.
  void evaluate(const std::vector<Real>& y, double lambda, double& residual, double& score);
  // After a failed factorisation of AA(F, F) (+ the accumulated shift), k = |F|: raises the shift
  // tenfold (App. E.2 steps 4 and 5) and has the next one rebuild the preconditioner.
  void raise_shift(std::size_t k);
  // g = A_s^T r (- lambda x), the negative gradient, read back.
  Vector gradient(const Trial& t, double lambda);

  DeviceDense<Real>& dense_;
  core::Queue queue_;
  ScaledProblem<Real> problem_;
  std::size_t m_, n_;
  core::Buffer<Real> b_, r_, g_, rp_, xp_;
  core::Buffer<cl_int> all_;  // 0 .. n-1 (the gradient's "gather")
  GramInverse<Real> inverse_;
  Pcgnr<Real> pcgnr_;
  std::vector<std::size_t> slot_;       // slot_[i]: where the i-th variable of the last solve_on's F lies in its order
  bool rebuild_ = true;                 // the next solve_on builds the preconditioner anew (a new right-hand side)
  double epsilon_ = 0.0, shift_ = 0.0;  // this solve's current epsilon and its extra diagonal shift
};

extern template class TntActiveSet<float>;
extern template class TntActiveSet<double>;

}  // namespace hetflow::nnls
