#include "hetflow/app/nnls/nnls_input.hpp"

#include <cmath>
#include <sstream>
#include <utility>

#include "hetflow/core/error.hpp"
#include "hetflow/io/error.hpp"
#include "hetflow/io/matrix_file.hpp"

namespace hetflow::app {
namespace {

// Reads a file the user named; every failure becomes a core::Error naming it (io's messages already do),
// so that input problems are reported as errors, not as output errors.
io::DenseArray read_input(const std::string& spec) {
  try {
    return io::read_dense(spec);
  } catch (const io::IoError& e) {
    throw core::Error(e.what());
  }
}

void check_finite(const io::DenseArray& a, const std::string& file, const char* name) {
  for (std::size_t k = 0; k < a.values.size(); ++k) {
    if (std::isfinite(a.values[k])) continue;
    std::ostringstream s;
    s << file << ": " << name;
    if (a.shape.size() == 2)
      s << "(" << k % a.rows() << ", " << k / a.rows() << ")";
    else
      s << "(" << k << ")";
    s << " = " << a.values[k] << " (0-based): " << name << " must be finite";
    throw core::Error(s.str());
  }
}

}  // namespace

nnls::Matrix read_nnls_matrix(const std::string& file) {
  io::DenseArray a = read_input(file);
  if (a.shape.size() != 2)
    throw core::Error(file + ": A must be a matrix (m x n), but the file holds a vector of " +
                      std::to_string(a.rows()) + " entries");
  // An empty A would make every method report convergence on nothing.
  if (a.rows() == 0 || a.cols() == 0)
    throw io::FormatError(file + ": A is " + std::to_string(a.rows()) + " x " + std::to_string(a.cols()) +
                          " (empty): expected a matrix with at least one row and one column");
  check_finite(a, file, "A");
  nnls::Matrix m;
  m.rows = a.rows();
  m.cols = a.cols();
  m.data = std::move(a.values);
  return m;
}

NnlsRhs read_nnls_rhs(const std::string& file, const nnls::Matrix& A, const std::string& a_file) {
  io::DenseArray b = read_input(file);
  if (b.rows() != A.rows)
    throw core::Error(file + ": b has " + std::to_string(b.rows()) + " rows but A has " + std::to_string(A.rows) +
                      " (" + a_file + ")");
  check_finite(b, file, "b");
  NnlsRhs rhs;
  rhs.vector = b.shape.size() == 1;
  rhs.B.rows = b.rows();
  rhs.B.cols = b.cols();
  rhs.B.data = std::move(b.values);
  return rhs;
}

nnls::Vector rhs_column(nnls::MatrixView B, std::size_t j) { return {B.column(j), B.column(j) + B.rows}; }

}  // namespace hetflow::app
