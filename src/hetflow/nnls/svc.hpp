#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "hetflow/nnls/matrix.hpp"

namespace hetflow::nnls {

// SVC, singular value composition (Myre, Frahm, Lilja & Saar; Myre 2013, Sec. 5.3 and App. D): a dense m
// x n matrix with exactly prescribed singular values, built in O(mn) work from the diagonal matrix of the
// values by random plane rotations of rows and columns, so U and V^T are never formed. The same seed
// gives the same matrix bit for bit, on the host (svc_host) and on every OpenCL device (SvcGenerator in
// svc_device.hpp): "store seeds, not matrices".

// How the k = min(m, n) singular values are chosen (the modes of LAPACK's dlatms); the largest is 1
// and the smallest 1/kappa, except in `user` mode.
enum class SvcMode {
  one_large,   // sigma_1 = 1, the others 1/kappa
  one_small,   // sigma_k = 1/kappa, the others 1
  geometric,   // sigma_i = kappa^(-(i-1)/(k-1))
  arithmetic,  // sigma_i = 1 - (i-1)(1 - 1/kappa)/(k-1)
  random,      // 1 and 1/kappa, the others uniform in [1/kappa, 1)
  user,        // SvcSpec::singular_values, k of them, each finite and >= 0
};
const char* to_string(SvcMode mode);

struct SvcSpec {
  std::size_t rows = 0, cols = 0;  // each in [1, 2^31)
  double kappa = 1.0;              // condition number, finite and >= 1 (not used in mode user)
  SvcMode mode = SvcMode::geometric;
  std::uint64_t seed = 0;
  std::vector<double> singular_values;  // mode user only
};

// Throws core::Error naming the field and the value it rejects.
void validate(const SvcSpec& spec);

// The k singular values in the order they are placed on the diagonal (randomly permuted by the seed).
std::vector<double> svc_singular_values(const SvcSpec& spec);

// Element updates of the host reference, by step (one update: one matrix element rewritten by a
// rotation). The power-of-two fills of an n x n square with n = 2^K total 4n(n - 1) (Myre 2013, Sec. 5.3).
struct SvcStats {
  std::uint64_t square_updates = 0;        // fill_pow2 levels
  std::uint64_t combine_updates = 0;       // combining a 2^K block with the rest of its square
  std::uint64_t extra_row_updates = 0;     // m > n: the 5 passes over the m - n extra rows, 10 n (m - n)
  std::uint64_t extra_column_updates = 0;  // m > n: the 5 column passes, 10 m floor(n / 2)
  std::uint64_t total() const { return square_updates + combine_updates + extra_row_updates + extra_column_updates; }
};

// The reference: sequential, in the order of the thesis's recursion (Myre 2013, App. D). `stats`, when
// given, receives the update counts.
Matrix svc_host(const SvcSpec& spec, SvcStats* stats = nullptr);

// ---- Pieces the host reference and the device generator share (keep in step with nnls/svc.cl) ----

// The steps of SVC that draw random numbers: the third word of every Philox counter, so no two steps
// share a random number. The first word is the rotation's index within its step, the second the level,
// recursion depth or pass, the fourth the draw.
enum class SvcPhase : std::uint32_t {
  square_rows = 0,
  square_columns = 1,
  combine_rows = 2,
  combine_columns = 3,
  extra_rows = 4,
  extra_columns = 5,
  extra_row_pairing = 6,
  extra_column_pairing = 7,
  values = 8,
  permutation = 9,
};
// Column steps right-multiply by R(theta), which rotates each pair of columns by R(theta)^T.
constexpr bool is_column_phase(SvcPhase p) {
  return p == SvcPhase::square_columns || p == SvcPhase::combine_columns || p == SvcPhase::extra_columns;
}

// Rotation of the line pair (x, y) to (c x - s y, s x + c y), computed as fma(c, x, -(s y)) and
// fma(s, x, c y): every multiply-add is an explicit fma, so no compiler's contraction setting can
// change a bit, and the device kernel does exactly the same operations.
struct Givens {
  double c = 1.0, s = 0.0;
};
// The rotation with index `index` of step (phase, step): angle theta from N(pi/4, (pi/24)^2) on
// (0, pi/2), drawn without libm (see svc.cpp); s is negated for column phases.
Givens svc_rotation(std::uint64_t seed, SvcPhase phase, std::uint32_t step, std::uint32_t index);

// A random permutation of [0, n) of the form x -> (mul x + add) mod n with gcd(mul, n) = 1: how the
// extra-row and column passes choose their "random" partners so that one pass's pairs are disjoint
// (and run in parallel).
struct SvcPairing {
  std::uint64_t mul = 1, add = 0;
  std::uint64_t operator()(std::uint64_t x, std::uint64_t n) const { return (mul * x + add) % n; }
};
SvcPairing svc_pairing(std::uint64_t seed, SvcPhase phase, std::uint32_t pass, std::uint64_t n);

// Passes over the extra rows, and then over the columns, when m > n (Myre 2013, App. D).
inline constexpr std::uint32_t svc_extra_passes = 5;

}  // namespace hetflow::nnls
