#pragma once
#include <cstddef>
#include <vector>

namespace hetflow::nnls {

// A dense FP64 matrix, column-major (entry (i, j) at data[i + j * rows]): the layout of LAPACK and of
// the device kernels, so a column of A is contiguous.
struct Matrix {
  std::size_t rows = 0, cols = 0;
  std::vector<double> data;

  Matrix() = default;
  Matrix(std::size_t m, std::size_t n) : rows(m), cols(n), data(m * n, 0.0) {}

  double& operator()(std::size_t i, std::size_t j) { return data[i + j * rows]; }
  double operator()(std::size_t i, std::size_t j) const { return data[i + j * rows]; }
  double* column(std::size_t j) { return data.data() + j * rows; }
  const double* column(std::size_t j) const { return data.data() + j * rows; }
};

// A read-only view of a column-major matrix held elsewhere (a Matrix, or a caller's array such as a
// Fortran-ordered numpy array): what the solvers read A through, so that no caller copies A to call them.
// `entries` is the size of the storage behind `data`, which check_problem compares with the shape.
struct MatrixView {
  std::size_t rows = 0, cols = 0;
  const double* data = nullptr;
  std::size_t entries = 0;

  MatrixView() = default;
  MatrixView(std::size_t m, std::size_t n, const double* values) : rows(m), cols(n), data(values), entries(m * n) {}
  MatrixView(const Matrix& a)  // NOLINT(google-explicit-constructor): every Matrix is readable as a view
      : rows(a.rows), cols(a.cols), data(a.data.data()), entries(a.data.size()) {}

  double operator()(std::size_t i, std::size_t j) const { return data[i + j * rows]; }
  const double* column(std::size_t j) const { return data + j * rows; }
};

using Vector = std::vector<double>;

}  // namespace hetflow::nnls
