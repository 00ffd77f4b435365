#include "hetflow/nnls/svc.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>
#include <string>
#include <utility>

#include "hetflow/core/error.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/nnls/philox.hpp"

namespace hetflow::nnls {

namespace {

constexpr std::size_t max_dimension = std::size_t{1} << 31;  // indices and counters are 32-bit on the device

std::uint64_t bits64(std::uint32_t lo, std::uint32_t hi) { return lo | static_cast<std::uint64_t>(hi) << 32; }

PhiloxCounter draw(std::uint64_t seed, SvcPhase phase, std::uint32_t step, std::uint32_t index,
                   std::uint32_t word = 0) {
  return philox4x32_10({index, step, static_cast<std::uint32_t>(phase), word}, philox_key(seed));
}

// The working matrix: A itself when m >= n, A^T (read and written in A's storage) when m < n, so the
// algorithm always sees rows >= columns and no transpose is ever copied. Element (i, j) of the working
// matrix is at i * row_stride + j * col_stride.
struct Working {
  double* data;
  std::size_t rows, cols, row_stride, col_stride;
  SvcStats* stats;
};

Working working(Matrix& a) {
  if (a.rows >= a.cols) return {a.data.data(), a.rows, a.cols, 1, a.rows, nullptr};
  return {a.data.data(), a.cols, a.rows, a.rows, 1, nullptr};
}

// Rotates line pair (x, y) (rows when `rows`, else columns of the working matrix) over the `len`
// elements from e0, exactly as the kernels in nnls/svc.cl do.
void rotate(Working& w, bool rows, std::size_t x, std::size_t y, std::size_t e0, std::size_t len, Givens g,
            std::uint64_t& updates) {
  const std::size_t ls = rows ? w.row_stride : w.col_stride, es = rows ? w.col_stride : w.row_stride;
  double* px = w.data + x * ls + e0 * es;
  double* py = w.data + y * ls + e0 * es;
  for (std::size_t e = 0; e < len; ++e, px += es, py += es) {
    const double xv = *px, yv = *py;
    *px = std::fma(g.c, xv, -(g.s * yv));
    *py = std::fma(g.s, xv, g.c * yv);
  }
  updates += 2 * len;
}

// fill_pow2 (Myre 2013, App. D): the 2^K x 2^K square at diagonal offset o. Level l pairs lines r and r +
// 2^l in every block of 2^(l+1); each level rotates all its row pairs and then all its column pairs (the
// thesis's listing alternates row and column per pair; rotations of distinct rows commute with those of
// distinct columns, so the product is the same, and phase order is what the device runs in parallel).
// Rotation q of a level is the pair's ordinal over the whole diagonal (o is a multiple of 2^K), which is
// also how the device numbers it.
void fill_pow2(Working& w, std::uint64_t seed, std::size_t o, std::size_t size) {
  for (std::uint32_t level = 0; (std::size_t{2} << level) <= size; ++level) {
    const std::size_t stride = std::size_t{1} << level, block = 2 * stride;
    for (const bool rows : {true, false}) {
      const SvcPhase phase = rows ? SvcPhase::square_rows : SvcPhase::square_columns;
      for (std::size_t j = o; j < o + size; j += block) {
        for (std::size_t r = j; r < j + stride; ++r) {
          const auto q = static_cast<std::uint32_t>(j / 2 + (r - j));
          rotate(w, rows, r, r + stride, j, block, svc_rotation(seed, phase, level, q), w.stats->square_updates);
        }
      }
    }
  }
}

// Combines the mixed 2^K block [o, o + s) with the mixed rest [o + s, o + s + rem) of its square: line o
// + i of the block is rotated with line o + s + (i mod rem) of the rest, over the whole span. The
// deterministic modulo pairing (the thesis pairs at random) reaches every line of the rest; lines of the
// block that share a partner form a chain rotated in order of i, which the device runs as one work-item
// per chain.
void combine(Working& w, std::uint64_t seed, std::size_t o, std::size_t s, std::size_t rem, std::uint32_t depth) {
  for (const bool rows : {true, false}) {
    const SvcPhase phase = rows ? SvcPhase::combine_rows : SvcPhase::combine_columns;
    for (std::size_t i = 0; i < s; ++i) {
      rotate(w, rows, o + i, o + s + i % rem, o, s + rem,
             svc_rotation(seed, phase, depth, static_cast<std::uint32_t>(i)), w.stats->combine_updates);
    }
  }
}

// fill (Myre 2013, App. D): the largest power of two, the rest recursively, then the two combined.
void fill(Working& w, std::uint64_t seed, std::size_t o, std::size_t n, std::uint32_t depth) {
  const std::size_t s = std::bit_floor(n);
  fill_pow2(w, seed, o, s);
  if (n > s) {
    fill(w, seed, o + s, n - s, depth + 1);
    combine(w, seed, o, s, n - s, depth);
  }
}

// The extra rows, m > n (Myre 2013, App. D): each pass rotates extra row n + i with row pairing(i mod n)
// of the square, over the n columns (a permutation, so the rows of one chain i = c, c + n, ... share a
// partner and distinct chains are disjoint); then each column pass rotates the columns pairwise,
// pairing(2t) with pairing(2t + 1), over all rows: every column is rotated with one other, random, column
// per pass (one left out when n is odd), so the pairs are disjoint.
void extra_rows_and_columns(Working& w, std::uint64_t seed) {
  const std::size_t n = w.cols, p = w.rows - w.cols;
  for (std::uint32_t pass = 0; pass < svc_extra_passes; ++pass) {
    const SvcPairing pair = svc_pairing(seed, SvcPhase::extra_row_pairing, pass, n);
    for (std::size_t i = 0; i < p; ++i) {
      rotate(w, true, n + i, pair(i % n, n), 0, n,
             svc_rotation(seed, SvcPhase::extra_rows, pass, static_cast<std::uint32_t>(i)),
             w.stats->extra_row_updates);
    }
  }
  for (std::uint32_t pass = 0; pass < svc_extra_passes; ++pass) {
    const SvcPairing pair = svc_pairing(seed, SvcPhase::extra_column_pairing, pass, n);
    for (std::size_t t = 0; t < n / 2; ++t) {
      rotate(w, false, pair(2 * t, n), pair(2 * t + 1, n), 0, w.rows,
             svc_rotation(seed, SvcPhase::extra_columns, pass, static_cast<std::uint32_t>(t)),
             w.stats->extra_column_updates);
    }
  }
}

}  // namespace

const char* to_string(SvcMode mode) {
  switch (mode) {
    case SvcMode::one_large: return "one_large";
    case SvcMode::one_small: return "one_small";
    case SvcMode::geometric: return "geometric";
    case SvcMode::arithmetic: return "arithmetic";
    case SvcMode::random: return "random";
    case SvcMode::user: return "user";
  }
  return "unknown";
}

void validate(const SvcSpec& spec) {
  for (const auto& [name, value] : {std::pair{"rows", spec.rows}, std::pair{"cols", spec.cols}}) {
    if (value == 0 || value >= max_dimension) {
      throw core::Error(std::string("svc: ") + name + " must be in [1, 2^31), got " + std::to_string(value));
    }
  }
  const std::size_t k = std::min(spec.rows, spec.cols);
  if (spec.mode == SvcMode::user) {
    if (spec.singular_values.size() != k) {
      throw core::Error("svc: singular_values has " + std::to_string(spec.singular_values.size()) +
                        " values; mode user needs min(rows, cols) = " + std::to_string(k));
    }
    for (std::size_t i = 0; i < k; ++i) {
      const double v = spec.singular_values[i];
      if (!std::isfinite(v) || v < 0.0) {
        throw core::Error("svc: singular_values[" + std::to_string(i) + "] must be finite and >= 0, got " +
                          core::number_text(v));
      }
    }
    return;
  }
  if (!std::isfinite(spec.kappa) || spec.kappa < 1.0) {
    throw core::Error("svc: kappa must be finite and >= 1, got " + core::number_text(spec.kappa));
  }
  if (!spec.singular_values.empty()) {
    throw core::Error("svc: singular_values has " + std::to_string(spec.singular_values.size()) +
                      " values, but mode " + to_string(spec.mode) + " computes its own (use mode user)");
  }
}

std::vector<double> svc_singular_values(const SvcSpec& spec) {
  validate(spec);
  const std::size_t k = std::min(spec.rows, spec.cols);
  const double small = 1.0 / spec.kappa;
  std::vector<double> v(k, 1.0);
  if (spec.mode == SvcMode::user) {
    v = spec.singular_values;
  } else if (k > 1) {  // a single value is 1: the largest is 1, whatever kappa says
    // The modes' last value is set to 1/kappa itself, not to pow(kappa, -1) or 1 - (1 - 1/kappa),
    // which may miss it by an ulp: kappa is then exactly as the caller's 1/kappa rounds.
    switch (spec.mode) {
      case SvcMode::one_large: std::fill(v.begin() + 1, v.end(), small); break;
      case SvcMode::one_small: break;
      case SvcMode::geometric:
        // libm's pow: host and device use these same values, but another libm may round one differently.
        for (std::size_t i = 1; i + 1 < k; ++i) {
          v[i] = std::pow(spec.kappa, -static_cast<double>(i) / static_cast<double>(k - 1));
        }
        break;
      case SvcMode::arithmetic:
        for (std::size_t i = 1; i + 1 < k; ++i) {
          v[i] = 1.0 - static_cast<double>(i) * (1.0 - small) / static_cast<double>(k - 1);
        }
        break;
      case SvcMode::random:
        // The thesis's pseudocode says [1, n], its text [1/kappa, 1]: the latter, with both ends present
        // (1 first, 1/kappa last) so the condition number is kappa and not merely below it.
        for (std::size_t i = 1; i + 1 < k; ++i) {
          const PhiloxCounter x = draw(spec.seed, SvcPhase::values, 0, static_cast<std::uint32_t>(i));
          const double u = static_cast<double>(bits64(x[0], x[1]) >> 11) * 0x1p-53;
          v[i] = std::fma(u, 1.0 - small, small);
        }
        break;
      case SvcMode::user: break;
    }
    v.back() = small;
  }
  // Fisher-Yates with a counter per position: the permutation depends on the seed alone.
  for (std::size_t i = k; i-- > 1;) {
    const PhiloxCounter x = draw(spec.seed, SvcPhase::permutation, 0, static_cast<std::uint32_t>(i));
    std::swap(v[i], v[bits64(x[0], x[1]) % (i + 1)]);
  }
  return v;
}

// Draws without libm, so that the host and every OpenCL device give the same bits (OpenCL's sin, cos
// and log, and glibc's, may differ in the last place):
// - The normal variate is Irwin-Hall: the sum of 12 uniforms on (0, 1) minus 6 has mean 0, variance 1
//   and support (-6, 6), which theta = pi/4 + (pi/24) z maps exactly onto (0, pi/2); the truncation
//   to (0, pi/2) that the thesis asks for never rejects. The sum is exact: 12 32-bit words add up in an
//   integer, and (S + 6) 2^-32 - 6 needs 36 significant bits.
// - cos and sin of t = theta - pi/4 (|t| < pi/4) are Taylor polynomials to t^18 and t^17 (truncation
//   below 1e-19) in Horner form with explicit fma; cos(pi/4 + t) and sin(pi/4 + t) are proportional
//   to cos t - sin t and cos t + sin t, and dividing that pair by its norm (sqrt and division are
//   correctly rounded in IEEE C++ and in OpenCL's double) makes c^2 + s^2 = 1 to an ulp: orthogonality,
//   not the exact angle, is what preserves the singular values.
Givens svc_rotation(std::uint64_t seed, SvcPhase phase, std::uint32_t step, std::uint32_t index) {
  std::uint64_t sum = 0;
  for (std::uint32_t d = 0; d < 3; ++d) {
    const PhiloxCounter u = draw(seed, phase, step, index, d);
    sum += std::uint64_t{u[0]} + u[1] + u[2] + u[3];
  }
  const double z = static_cast<double>(sum + 6) * 0x1p-32 - 6.0;
  const double t = z * 0x1.0c152382d7366p-3;  // pi/24
  const double t2 = t * t;
  double ps = 0x1.952c77030ad4ap-49;  // sin: (-1)^k / (2k + 1)!, k = 8 .. 1
  ps = std::fma(ps, t2, -0x1.ae7f3e733b81fp-41);
  ps = std::fma(ps, t2, 0x1.6124613a86d09p-33);
  ps = std::fma(ps, t2, -0x1.ae64567f544e4p-26);
  ps = std::fma(ps, t2, 0x1.71de3a556c734p-19);
  ps = std::fma(ps, t2, -0x1.a01a01a01a01ap-13);
  ps = std::fma(ps, t2, 0x1.1111111111111p-7);
  ps = std::fma(ps, t2, -0x1.5555555555555p-3);
  const double st = std::fma(t * t2, ps, t);
  double pc = -0x1.6827863b97d97p-53;  // cos: (-1)^k / (2k)!, k = 9 .. 1
  pc = std::fma(pc, t2, 0x1.ae7f3e733b81fp-45);
  pc = std::fma(pc, t2, -0x1.93974a8c07c9dp-37);
  pc = std::fma(pc, t2, 0x1.1eed8eff8d898p-29);
  pc = std::fma(pc, t2, -0x1.27e4fb7789f5cp-22);
  pc = std::fma(pc, t2, 0x1.a01a01a01a01ap-16);
  pc = std::fma(pc, t2, -0x1.6c16c16c16c17p-10);
  pc = std::fma(pc, t2, 0x1.5555555555555p-5);
  pc = std::fma(pc, t2, -0x1p-1);
  const double ct = std::fma(t2, pc, 1.0);
  const double a = ct - st, b = ct + st;
  const double h = std::sqrt(std::fma(a, a, b * b));
  const double s = b / h;
  return {a / h, is_column_phase(phase) ? -s : s};
}

SvcPairing svc_pairing(std::uint64_t seed, SvcPhase phase, std::uint32_t pass, std::uint64_t n) {
  if (n < 2) return {};
  const PhiloxCounter x = draw(seed, phase, pass, 0);
  SvcPairing p{1 + bits64(x[2], x[3]) % (n - 1), bits64(x[0], x[1]) % n};
  while (std::gcd(p.mul, n) != 1) ++p.mul;  // stops at n - 1 at the latest
  return p;
}

Matrix svc_host(const SvcSpec& spec, SvcStats* stats) {
  const std::vector<double> sigma = svc_singular_values(spec);
  Matrix a(spec.rows, spec.cols);
  SvcStats counts;
  Working w = working(a);
  w.stats = &counts;
  for (std::size_t i = 0; i < sigma.size(); ++i) w.data[i * (w.row_stride + w.col_stride)] = sigma[i];
  fill(w, spec.seed, 0, w.cols, 0);
  if (w.rows > w.cols) extra_rows_and_columns(w, spec.seed);
  if (stats) *stats = counts;
  return a;
}

}  // namespace hetflow::nnls
