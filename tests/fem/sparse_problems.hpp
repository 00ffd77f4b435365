#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "hetflow/fem/csr_matrix.hpp"

namespace hetflow::test {

// Deterministic values in [-1, 1) (a 64-bit LCG), so every platform builds the same problems.
class Lcg {
 public:
  explicit Lcg(std::uint64_t seed) : state_(seed) {}
  double next() {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state_ >> 11) * 0x1.0p-52 - 1.0;
  }
  std::uint32_t below(std::uint32_t bound) {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::uint32_t>((state_ >> 33) % bound);
  }

 private:
  std::uint64_t state_;
};

// The Laplacian on a grid of nx x ny x nz nodes (nz = 1: 2D, 5-point; else 7-point) with unit spacing:
// boundary nodes are Dirichlet rows (identity), interior rows keep only interior columns (the boundary
// values move to the right-hand side), so the matrix is symmetric positive definite. `shift` is
// subtracted from the diagonal of the interior rows (a large one makes the matrix indefinite).
inline fem::CsrMatrix dirichlet_laplacian(int nx, int ny, int nz, double shift = 0) {
  const auto id = [&](int i, int j, int k) { return (k * ny + j) * nx + i; };
  const auto boundary = [&](int i, int j, int k) {
    return i == 0 || j == 0 || i == nx - 1 || j == ny - 1 || (nz > 1 && (k == 0 || k == nz - 1));
  };
  fem::CsrMatrix a;
  a.n = static_cast<std::size_t>(nx) * ny * nz;
  a.row_start.push_back(0);
  const int dims = nz > 1 ? 3 : 2;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        if (boundary(i, j, k)) {
          a.col.push_back(id(i, j, k));
          a.values.push_back(1.0);
        } else {
          const int nb[6][3] = {{i, j, k - 1}, {i, j - 1, k}, {i - 1, j, k}, {i + 1, j, k}, {i, j + 1, k}, {i, j, k + 1}};
          for (int m = 0; m < 6; ++m) {
            if (m == 3) {
              a.col.push_back(id(i, j, k));
              a.values.push_back(2.0 * dims - shift);
            }
            const auto [ii, jj, kk] = nb[m];
            if (kk < 0 || kk >= nz || (dims == 2 && kk != k) || boundary(ii, jj, kk)) continue;
            a.col.push_back(id(ii, jj, kk));
            a.values.push_back(-1.0);
          }
        }
        a.row_start.push_back(static_cast<std::int32_t>(a.col.size()));
      }
  return a;
}

inline std::vector<double> random_vector(std::size_t n, std::uint64_t seed) {
  Lcg g(seed);
  std::vector<double> v(n);
  for (double& x : v) x = g.next();
  return v;
}

inline double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::fabs(x));
  return m;
}

inline double max_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::fabs(a[i] - b[i]));
  return m;
}

}  // namespace hetflow::test
