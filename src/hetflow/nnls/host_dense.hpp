#pragma once
#include <cstddef>
#include <optional>
#include <vector>

namespace hetflow::nnls {

// DeviceDense's level-3 work, factorisations and GEMVs through the host's BLAS/LAPACK, on column-major
// matrices with leading dimensions (the route DenseTuning::cpu_blas takes on CPU devices).

// C (n x n) = A^T A for A (m x n), both triangles.
void host_gram(std::size_t m, std::size_t n, const double* a, std::size_t lda, double* c, std::size_t ldc);

// A (k x k) = R^T R in place, R upper (LAPACK's dpotrf); returns the 0-based column whose pivot was not
// positive or not finite, or nothing on success.
std::optional<std::size_t> host_cholesky(std::size_t k, double* a, std::size_t lda);

// y (m) = alpha A(:, F) x + beta y for A (m x n) and the k column indices F, x of length k; beta == 0
// does not read y. `full` is scratch (x scattered over all n columns, so that one multithreaded DGEMV
// does the product).
void host_gemv_n(std::size_t m, std::size_t n, double alpha, const double* a, std::size_t lda, const int* f,
                 std::size_t k, const double* x, double beta, double* y, std::vector<double>& full);
// y (k) = alpha A(:, F)^T x + beta y, x of length m; beta == 0 does not read y. `full` is scratch (the
// product with all n columns, gathered).
void host_gemv_t(std::size_t m, std::size_t n, double alpha, const double* a, std::size_t lda, const int* f,
                 std::size_t k, const double* x, double beta, double* y, std::vector<double>& full);

// C = alpha op(A) B + beta C (C: m x n, contraction over k), op(A) = A^T (transposed_a) or A.
void host_gemm(bool transposed_a, std::size_t m, std::size_t n, std::size_t k, double alpha, const double* a,
               std::size_t lda, const double* b, std::size_t ldb, double beta, double* c, std::size_t ldc);

// DeviceDense::factor_inverse on the host: S (t x t) = R^T R in place, then `out` ((above + t) x t)
// receives zeros above R^-T (transposed) or R^-1. False when a pivot was not positive or not finite.
bool host_factor_inverse(std::size_t t, double* s, std::size_t lds, double* out, std::size_t ldo, std::size_t above,
                         bool transposed);

// InverseView on the host: Wt (c x kw, leading dimension ld) with the k columns `columns` in use, and Q
// (c x p, leading dimension ldq).
struct HostInverse {
  std::size_t c = 0, kw = 0;
  const double* wt = nullptr;
  std::size_t ld = 0;
  const int* columns = nullptr;
  std::size_t k = 0;
  const double* q = nullptr;
  std::size_t ldq = 0, p = 0;
};

// w = W_C P^T P W_C^T z, P = I - Q Q^T (DeviceDense::apply_inverse); `work` and `u` are scratch.
void host_apply_inverse(const HostInverse& h, const double* z, double* w, std::vector<double>& work,
                        std::vector<double>& u);

}  // namespace hetflow::nnls
