#pragma once
#include <cstddef>
#include <vector>

namespace hetflow::optim {

// Solves A x = b for a small symmetric positive definite A (row-major n×n) in place of b; false when A
// is not numerically positive definite. The systems are the n×n normal equations of Levenberg–Marquardt,
// with n the number of inversion parameters, so a dense factorisation is all that is needed.
bool cholesky_solve(std::vector<double> a, std::vector<double>& b);

}  // namespace hetflow::optim
