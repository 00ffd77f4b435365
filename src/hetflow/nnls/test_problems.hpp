#pragma once
#include <cstdint>

#include "hetflow/nnls/matrix.hpp"

namespace hetflow::nnls {

// Test problems for the NNLS solvers with known conditioning and a known solution. Deterministic:
// std::mt19937_64 seeded with `seed`, turned into uniform and normal variates by code written here
// (the standard fixes the engine's output but not that of its distributions). The values are
// bit-identical wherever the same libm and LAPACK are used, and agree to rounding elsewhere.

// A = U diag(s) V^T (m x n) with U (m x p) and V (n x p), p = min(m, n), orthonormal columns drawn
// from the Haar measure (Householder QR of Gaussian matrices, signs fixed by diag(R) > 0), and
// geometric singular values s_i = kappa^(-i / (p - 1)) from 1 down to 1 / kappa (MATLAB's
// gallery('randsvd', ..., mode 3)). Throws core::Error unless kappa >= 1 is finite.
Matrix random_matrix(std::size_t m, std::size_t n, double kappa, std::uint64_t seed);

// A dense Gaussian matrix, entries N(0, 1) / sqrt(m), plus `shift` on its diagonal (square and tall
// alike: the leading n x n block): the matrix of a generic regression. Unshifted and square its singular
// values spread from near 0 to 2 (Marchenko-Pastur), so it is ill-conditioned in a way SVC's geometric
// spectrum is not; tall (m > n) or shifted it is well-conditioned.
Matrix gaussian_matrix(std::size_t m, std::size_t n, double shift, std::uint64_t seed);

// A deconvolution kernel: A_ij = exp(-(i - j)^2 / (2 width^2)), n x n, the Gaussian blur of a signal by
// `width` samples. Smooth, positive, severely ill-conditioned (its symbol falls to about
// exp(-pi^2 width^2 / 2) at the highest frequency); the matrix of spike and spectrum deconvolution.
// Throws core::Error unless width > 0 is finite.
Matrix blur_matrix(std::size_t n, double width);

// b and the solution x of min ||A x - b||_2 s.t. x >= 0, built backwards from the KKT conditions:
//  1. A random set Z of round(active_fraction * n) variables is bound: x_Z = 0, x_F uniform in [0.5, 1.5).
//  2. Multipliers mu_Z uniform in [0.5, 1.5); r is the least-norm solution of C^T r = -mu with
//     C = (I - Q Q^T) A_Z, Q an orthonormal basis of range(A_F); so A_F^T r = 0 and A_Z^T r = -mu < 0.
//  3. r is rescaled to ||r|| = ||A x|| / 2 (1 if A x = 0), which keeps the signs; b = A x + r.
// Then x satisfies the KKT conditions with strict complementarity and, when A_F has full column rank,
// is the unique solution: `strict` = true (also when Z is empty and |F| <= m; then r = 0).
// Step 2 needs room: when |F| >= m there is no nonzero r with A_F^T r = 0, and when |Z| > m - |F| the
// equations C^T r = -mu may have no solution with A_Z^T r < 0 (then some y >= 0, y != 0 has C y = 0
// and the solution is not unique, by Gordan's theorem). In those cases r = 0 and `strict` = false:
// b = A x is consistent and x is a solution with residual 0, though maybe not the only one.
// Throws core::Error if active_fraction lies outside [0, 1] or A has a NaN or infinite entry.
struct Problem {
  Vector b;
  Vector x;
  bool strict = false;
};
Problem with_active_set(const Matrix& A, double active_fraction, std::uint64_t seed);

}  // namespace hetflow::nnls
