#include "hetflow/fem/csr_matrix.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "hetflow/core/error.hpp"

namespace hetflow::fem {

void check(const CsrMatrix& a) {
  const auto fail = [](const std::string& what) { throw core::Error("CSR matrix: " + what); };
  if (a.nnz() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()) ||
      a.n > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
    fail("more than 2^31 - 1 rows or entries");
  if (a.values.size() != a.col.size())
    fail(std::to_string(a.col.size()) + " column indices but " + std::to_string(a.values.size()) + " values");
  if (a.row_start.size() != a.n + 1)
    fail(std::to_string(a.row_start.size()) + " row offsets for " + std::to_string(a.n) + " rows (needs n + 1)");
  if (a.row_start.front() != 0) fail("row_start[0] is " + std::to_string(a.row_start.front()) + ", not 0");
  if (static_cast<std::size_t>(a.row_start.back()) != a.nnz())
    fail("row_start[n] is " + std::to_string(a.row_start.back()) + ", not the entry count " + std::to_string(a.nnz()));
  for (std::size_t i = 0; i < a.n; ++i) {
    if (a.row_start[i + 1] < a.row_start[i]) fail("row " + std::to_string(i) + " ends before it starts");
    for (std::int32_t k = a.row_start[i]; k < a.row_start[i + 1]; ++k) {
      if (a.col[k] < 0 || static_cast<std::size_t>(a.col[k]) >= a.n)
        fail("row " + std::to_string(i) + " has column " + std::to_string(a.col[k]) + " outside [0, " +
             std::to_string(a.n) + ")");
    }
  }
}

std::vector<double> multiply(const CsrMatrix& a, std::span<const double> x) {
  if (x.size() != a.n) throw core::Error("CSR product: x has " + std::to_string(x.size()) + " entries, A " +
                                         std::to_string(a.n) + " columns");
  return row_products(a.row_start, a.col, a.values, x);
}

std::vector<double> row_products(std::span<const std::int32_t> row_start, std::span<const std::int32_t> col,
                                 std::span<const double> values, std::span<const double> x) {
  std::vector<double> y(row_start.size() - 1);
  for (std::size_t i = 0; i < y.size(); ++i) {
    double sum = 0;
    for (std::int32_t k = row_start[i]; k < row_start[i + 1]; ++k) sum += values[k] * x[col[k]];
    y[i] = sum;
  }
  return y;
}

std::vector<double> inverse_diagonal(const CsrMatrix& a) {
  std::vector<double> inv(a.n);
  for (std::size_t i = 0; i < a.n; ++i) {
    double d = 0;
    for (std::int32_t k = a.row_start[i]; k < a.row_start[i + 1]; ++k) {
      if (static_cast<std::size_t>(a.col[k]) == i) d += a.values[k];
    }
    if (!(d > 0) || !std::isfinite(d))
      throw core::Error("Jacobi preconditioner: row " + std::to_string(i) + " has diagonal " + std::to_string(d) +
                        " (needs a positive, finite diagonal entry)");
    inv[i] = 1 / d;
  }
  return inv;
}

}  // namespace hetflow::fem
