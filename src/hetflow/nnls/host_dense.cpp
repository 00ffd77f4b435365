#include "hetflow/nnls/host_dense.hpp"

#include <algorithm>
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

void host_gemm(bool transposed_a, std::size_t m, std::size_t n, std::size_t k, double alpha, const double* a,
               std::size_t lda, const double* b, std::size_t ldb, double beta, double* c, std::size_t ldc) {
  if (m == 0 || n == 0) return;
  const int rows = fortran_int(m, "gemm rows"), cols = fortran_int(n, "gemm columns");
  const int depth = fortran_int(k, "gemm depth");
  const int la = fortran_int(std::max<std::size_t>(lda, 1), "gemm lda");
  const int lb = fortran_int(std::max<std::size_t>(ldb, 1), "gemm ldb"), lc = fortran_int(ldc, "gemm ldc");
  dgemm_(transposed_a ? "T" : "N", "N", &rows, &cols, &depth, &alpha, a, &la, b, &lb, &beta, c, &lc);
}

bool host_factor_inverse(std::size_t t, double* s, std::size_t lds, double* out, std::size_t ldo, std::size_t above,
                         bool transposed) {
  if (host_cholesky(t, s, lds)) return false;
  const int n = fortran_int(t, "factor_inverse t"), ld = fortran_int(lds, "factor_inverse lds");
  int info = 0;
  dtrtri_("U", "N", &n, s, &ld, &info);
  if (info != 0) return false;
  for (std::size_t j = 0; j < t; ++j) {
    double* column = out + j * ldo;
    std::fill(column, column + above + t, 0.0);
    for (std::size_t i = 0; i < t; ++i)
      if (transposed ? i >= j : i <= j) column[above + i] = transposed ? s[j + i * lds] : s[i + j * lds];
  }
  return true;
}

void host_apply_inverse(const HostInverse& h, const double* z, double* w, std::vector<double>& work,
                        std::vector<double>& u) {
  if (h.k == 0) return;
  u.resize(h.c + h.p);
  double* const s = u.data() + h.c;
  host_gemv_n(h.c, h.kw, 1.0, h.wt, h.ld, h.columns, h.k, z, 0.0, u.data(), work);
  for (int pass = 0; h.p > 0 && pass < 2; ++pass) {  // u = P^T P u, P = I - Q Q^T (see InverseView)
    const int rows = fortran_int(h.c, "apply_inverse rows"), cols = fortran_int(h.p, "apply_inverse Q columns");
    const int lq = fortran_int(h.ldq, "apply_inverse ldq"), one = 1;
    const double unit = 1.0, minus = -1.0, zero = 0.0;
    dgemv_("T", &rows, &cols, &unit, h.q, &lq, u.data(), &one, &zero, s, &one);
    dgemv_("N", &rows, &cols, &minus, h.q, &lq, s, &one, &unit, u.data(), &one);
  }
  host_gemv_t(h.c, h.kw, 1.0, h.wt, h.ld, h.columns, h.k, u.data(), 0.0, w, work);
}

}  // namespace hetflow::nnls
