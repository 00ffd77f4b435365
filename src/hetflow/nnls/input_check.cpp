#include "hetflow/nnls/input_check.hpp"

#include <cmath>
#include <sstream>
#include <string>

#include "hetflow/core/error.hpp"

namespace hetflow::nnls {
namespace {

[[noreturn]] void fail(const std::string& what) { throw core::Error(what); }

void check_finite(const Vector& v, const char* name) {
  for (std::size_t i = 0; i < v.size(); ++i)
    if (!std::isfinite(v[i])) {
      std::ostringstream s;
      s << name << "(" << i << ") = " << v[i] << ": " << name << " must be finite";
      fail(s.str());
    }
}

}  // namespace

void check_problem(MatrixView A, const Vector& b, const char* a_name, const char* b_name) {
  const std::string a(a_name), bn(b_name);
  if (A.entries != A.rows * A.cols)
    fail(a + " is " + std::to_string(A.rows) + " x " + std::to_string(A.cols) + " but holds " +
         std::to_string(A.entries) + " entries");
  if (b.size() != A.rows)
    fail(bn + " has " + std::to_string(b.size()) + " entries but " + a + " has " + std::to_string(A.rows) +
         " rows: " + bn + ".size() must equal " + a + ".rows");
  for (std::size_t j = 0; j < A.cols; ++j)
    for (std::size_t i = 0; i < A.rows; ++i)
      if (!std::isfinite(A(i, j))) {
        std::ostringstream s;
        s << a << "(" << i << ", " << j << ") = " << A(i, j) << ": " << a << " must be finite";
        fail(s.str());
      }
  check_finite(b, b_name);
}

void check_solution(MatrixView A, const Vector& x) {
  if (x.size() != A.cols)
    fail("x has " + std::to_string(x.size()) + " entries but A has " + std::to_string(A.cols) +
         " columns: x.size() must equal A.cols");
  check_finite(x, "x");
}

}  // namespace hetflow::nnls
