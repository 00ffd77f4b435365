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

using Vector = std::vector<double>;

}  // namespace hetflow::nnls
