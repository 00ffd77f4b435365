#pragma once
#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace hetflow::io {

// A dense vector or matrix as the solvers take it, whatever file it came from (.npy, CSV, HDF5).
// Column-major because LAPACK and the NNLS kernels are: a C-order source is transposed on read.
struct DenseArray {
  std::vector<std::size_t> shape;  // {n} for a vector, {rows, cols} for a matrix
  std::vector<double> values;      // column-major: element (i, j) at values[i + j * rows]

  std::size_t rows() const { return shape.empty() ? 0 : shape[0]; }
  std::size_t cols() const { return shape.size() < 2 ? 1 : shape[1]; }
};

// A DenseArray from values in C order (row-major, the order of HDF5, CSV rows and C-order .npy).
DenseArray dense_from_c_order(std::vector<std::size_t> shape, std::span<const double> c_values);

// Parses a NumPy .npy file held in memory (format versions 1.0, 2.0 and 3.0): a 1-D or 2-D array of
// '<f8' or '<f4' (widened to double), in C or Fortran order. Any other content is a FormatError whose
// message starts with `name` and says what is wrong. Non-finite values are passed through: whether
// they are acceptable is the caller's decision.
DenseArray parse_npy(std::string_view bytes, const std::string& name);

// Reads a .npy file; IoError when it cannot be read, FormatError as parse_npy.
DenseArray read_npy(const std::filesystem::path& path);

// IoError naming `path` unless the array is 1-D or 2-D and its shape matches its number of values:
// what every writer checks before it creates a file.
void check_dense(const DenseArray& array, const std::filesystem::path& path);

// Writes the array atomically as np.save would: '<f8', Fortran order for a matrix, format 1.0.
// IoError as check_dense.
void write_npy(const std::filesystem::path& path, const DenseArray& array);

// Writes values of any number of axes in C order (the last axis fastest: x fastest for a field of
// shape (nz, ny, nx)) atomically, as np.save writes a C-contiguous float64 array. IoError naming `path`
// unless the shape is not empty and holds exactly the values.
void write_npy_c_order(const std::filesystem::path& path, const std::vector<std::size_t>& shape,
                       std::span<const double> values);

}  // namespace hetflow::io
