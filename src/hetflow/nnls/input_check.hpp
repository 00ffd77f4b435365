#pragma once
#include "hetflow/nnls/matrix.hpp"

namespace hetflow::nnls {

// Throws core::Error naming the offending entry or size when A's storage does not match its shape,
// b.size() != A.rows, or an entry of A or b is NaN or infinite ("A(12, 3) = nan: A must be finite").
// The names let the normal-equation form report "AtA" and "Atb".
void check_problem(MatrixView A, const Vector& b, const char* a_name = "A", const char* b_name = "b");

// Throws core::Error when x.size() != A.cols or an entry of x is not finite.
void check_solution(MatrixView A, const Vector& x);

}  // namespace hetflow::nnls
