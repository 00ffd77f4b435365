#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace hetflow::fem {

// A sparse square matrix in compressed sparse rows: row i holds the entries
// values[row_start[i] .. row_start[i+1]) in the columns col[...] (any order, no duplicates needed for
// the products here). Indices are 32-bit, as the kernels read them.
struct CsrMatrix {
  std::size_t n = 0;
  std::vector<std::int32_t> row_start;  // n + 1 offsets, row_start[0] = 0
  std::vector<std::int32_t> col;
  std::vector<double> values;

  std::size_t nnz() const { return col.size(); }
};

// Throws core::Error naming the first inconsistency: row_start not of n + 1 non-decreasing offsets from
// 0 to nnz, col and values of different lengths, a column outside [0, n), or more than 2^31 - 1 entries.
void check(const CsrMatrix& a);

// y = A x, each row summed in the order of its entries.
std::vector<double> multiply(const CsrMatrix& a, std::span<const double> x);

// The rows' products with x of a matrix in compressed sparse rows of any shape (row_start has one offset
// per row and one more), each row summed in the order of its entries; the callers check the sizes.
std::vector<double> row_products(std::span<const std::int32_t> row_start, std::span<const std::int32_t> col,
                                 std::span<const double> values, std::span<const double> x);

// 1 / A(i, i) for every row: the Jacobi preconditioner. Throws core::Error naming the row whose
// diagonal entry is missing, not positive or not finite.
std::vector<double> inverse_diagonal(const CsrMatrix& a);

}  // namespace hetflow::fem
