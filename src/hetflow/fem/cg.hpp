#pragma once
#include <span>
#include <string>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/fem/csr_matrix.hpp"

namespace hetflow::fem {

// The preconditioner of the device CG: Jacobi, the paper's, or one V-cycle of smoothed-aggregation
// multigrid (fem/amg_hierarchy.hpp).
enum class Preconditioner { jacobi, amg };

// How a conjugate-gradient solve stops: relative residual ||r|| / ||b|| < tolerance, or after
// max_iterations. The device solve reads its state back every check_interval iterations.
struct CgOptions {
  double tolerance = 1e-10;
  int max_iterations = 1000;
  int check_interval = 8;
  Preconditioner preconditioner = Preconditioner::jacobi;
};

// The numbering is the device kernels' state word (fem/sparse.cl).
enum class CgStatus {
  converged = 1,
  max_iterations = 2,
  not_positive = 3,  // p.Ap <= 0: the matrix is not positive definite
  not_finite = 4,    // NaN or infinity in the residual or in p.Ap
};

const char* to_string(CgStatus status);

struct CgResult {
  CgStatus status = CgStatus::converged;
  int iterations = 0;
  double residual = 0;  // ||r|| / ||b|| at the last completed iteration (0 for b = 0)
  bool converged() const { return status == CgStatus::converged; }
};

// A solve that did not converge: what() gives the reason, the iteration and the residual.
class CgError : public core::Error {
 public:
  explicit CgError(const CgResult& result);
  const CgResult& result() const { return result_; }

 private:
  CgResult result_;
};

// Throws CgError unless the solve converged.
void require_converged(const CgResult& result);

// Jacobi-preconditioned CG on the host from x = 0, in FP64: the reference for the device solve, with
// the same recurrences and the same stopping rule (checked after every iteration). x is resized to n.
CgResult host_cg(const CsrMatrix& a, std::span<const double> b, std::vector<double>& x, const CgOptions& options);

}  // namespace hetflow::fem
