#include "hetflow/nnls/host_dense.hpp"

#include <climits>
#include <cmath>
#include <string>

#include "hetflow/core/error.hpp"
#include "hetflow/nnls/lapack.hpp"

namespace hetflow::nnls {
namespace {

int fortran_int(std::size_t n, const char* what) {
  if (n > static_cast<std::size_t>(INT_MAX)) throw core::Error(std::string(what) + " exceeds LAPACK's int range");
  return static_cast<int>(n);
}

}  // namespace

void host_gram(std::size_t m, std::size_t n, const double* a, std::size_t lda, double* c, std::size_t ldc) {
  if (n == 0) return;
  const int rows = fortran_int(m, "gram rows"), cols = fortran_int(n, "gram columns");
  const int la = fortran_int(lda, "gram lda"), lc = fortran_int(ldc, "gram ldc");
  const double one = 1.0, zero = 0.0;
  dsyrk_("U", "T", &cols, &rows, &one, a, &la, &zero, c, &lc);
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t i = 0; i < j; ++i) c[j + i * ldc] = c[i + j * ldc];
}

std::optional<std::size_t> host_cholesky(std::size_t k, double* a, std::size_t lda) {
  if (k == 0) return std::nullopt;
  const int n = fortran_int(k, "cholesky k"), ld = fortran_int(lda, "cholesky lda");
  int info = 0;
  dpotrf_("U", &n, a, &ld, &info);
  if (info < 0) throw core::Error("dpotrf: argument " + std::to_string(-info) + " is invalid");
  if (info > 0) return static_cast<std::size_t>(info - 1);
  // Some BLAS libraries test a pivot only for <= 0, which a NaN passes.
  for (std::size_t j = 0; j < k; ++j)
    if (!std::isfinite(a[j + j * lda])) return j;
  return std::nullopt;
}

void host_gemv_n(std::size_t m, std::size_t n, double alpha, const double* a, std::size_t lda, const int* f,
                 std::size_t k, const double* x, double beta, double* y, std::vector<double>& full) {
  if (m == 0) return;
  full.assign(n, 0.0);
  for (std::size_t j = 0; j < k; ++j) full[static_cast<std::size_t>(f[j])] = x[j];
  const int rows = fortran_int(m, "gemv rows"), cols = fortran_int(n, "gemv columns"), ld = fortran_int(lda, "gemv lda");
  const int one = 1;
  dgemv_("N", &rows, &cols, &alpha, a, &ld, full.data(), &one, &beta, y, &one);
}

void host_gemv_t(std::size_t m, std::size_t n, double alpha, const double* a, std::size_t lda, const int* f,
                 std::size_t k, const double* x, double beta, double* y, std::vector<double>& full) {
  if (k == 0) return;
  full.assign(n, 0.0);
  const int rows = fortran_int(m, "gemv rows"), cols = fortran_int(n, "gemv columns"), ld = fortran_int(lda, "gemv lda");
  const int one = 1;
  const double unit = 1.0, zero = 0.0;
  dgemv_("T", &rows, &cols, &unit, a, &ld, x, &one, &zero, full.data(), &one);
  for (std::size_t i = 0; i < k; ++i) {
    const double product = alpha * full[static_cast<std::size_t>(f[i])];
    y[i] = beta == 0.0 ? product : product + beta * y[i];
  }
}

void host_solve(std::size_t k, const double* r, std::size_t ldr, double* x, bool transposed) {
  if (k == 0) return;
  const int n = fortran_int(k, "solve k"), ld = fortran_int(ldr, "solve ldr"), one = 1;
  dtrsv_("U", transposed ? "T" : "N", "N", &n, r, &ld, x, &one);
}

}  // namespace hetflow::nnls
