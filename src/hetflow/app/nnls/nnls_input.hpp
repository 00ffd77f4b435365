#pragma once
#include <cstddef>
#include <string>

#include "hetflow/nnls/matrix.hpp"

namespace hetflow::app {

// The matrix A of an NNLS problem from a file io::read_dense reads (.npy, .csv/.txt, file.h5:/dataset).
// core::Error naming the file for an unreadable file, a vector or a non-finite entry (with its 0-based
// index); io::FormatError for an empty matrix, which is invalid input rather than a file problem.
nnls::Matrix read_nnls_matrix(const std::string& file);

// b as an m x k matrix, one right-hand side per column; `vector` says whether the file held a vector
// (then x is written as one too).
struct NnlsRhs {
  nnls::Matrix B;
  bool vector = false;
};

// The right-hand sides for A (read from `a_file`): core::Error naming `file` for an unreadable file,
// a row count other than A's or a non-finite entry.
NnlsRhs read_nnls_rhs(const std::string& file, const nnls::Matrix& A, const std::string& a_file);

// Right-hand side j: column j of B.
nnls::Vector rhs_column(nnls::MatrixView B, std::size_t j);

}  // namespace hetflow::app
