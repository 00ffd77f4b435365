#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "hetflow/fem/csr_matrix.hpp"

namespace hetflow::fem {

// A rows × cols sparse matrix in compressed sparse rows, for the operators of the algebraic multigrid
// hierarchy: the level matrices (square) and the prolongations and restrictions between levels
// (rectangular). Each row's columns are sorted and distinct.
struct SparseRows {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::vector<std::int32_t> row_start;  // rows + 1 offsets
  std::vector<std::int32_t> col;
  std::vector<double> values;

  std::size_t nnz() const { return col.size(); }
};

// A square CsrMatrix with its rows' columns sorted and duplicates summed.
SparseRows sparse_rows(const CsrMatrix& a);

// y = A x; x holds cols entries.
std::vector<double> multiply(const SparseRows& a, std::span<const double> x);

// Aᵀ.
SparseRows transpose(const SparseRows& a);

// A B, each row accumulated in a dense scatter row (Gustavson's algorithm); exact zeros are kept so
// the pattern does not depend on cancellation.
SparseRows product(const SparseRows& a, const SparseRows& b);

// The diagonal entries of a square matrix (0 where a row has none).
std::vector<double> diagonal(const SparseRows& a);

}  // namespace hetflow::fem
