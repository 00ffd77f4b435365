// SVC, the singular-value-composition generator (Myre 2013, Sec. 5.3 and App. D): the singular values
// of the output are the prescribed ones, the host reference and every device give the same bits for a
// seed, the work is the thesis's count, and bad input is refused with the field named.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <numbers>
#include <string>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/nnls/philox.hpp"
#include "hetflow/nnls/svc.hpp"
#include "hetflow/nnls/svc_device.hpp"
#include "nnls_measures.hpp"
#include "test_devices.hpp"

namespace hetflow::nnls {
namespace {

SvcSpec spec_of(std::size_t rows, std::size_t cols, double kappa, SvcMode mode, std::uint64_t seed = 1) {
  SvcSpec spec;
  spec.rows = rows;
  spec.cols = cols;
  spec.kappa = kappa;
  spec.mode = mode;
  spec.seed = seed;
  if (mode == SvcMode::user) {
    for (std::size_t i = 0; i < std::min(rows, cols); ++i) spec.singular_values.push_back(0.25 + 0.5 * double(i % 7));
  }
  return spec;
}

std::string label(const SvcSpec& s) {
  return std::to_string(s.rows) + "x" + std::to_string(s.cols) + " " + to_string(s.mode) + " kappa " +
         std::to_string(s.kappa) + " seed " + std::to_string(s.seed);
}

bool same_bits(const Matrix& a, const Matrix& b) {
  return a.rows == b.rows && a.cols == b.cols &&
         std::memcmp(a.data.data(), b.data.data(), a.data.size() * sizeof(double)) == 0;
}

// Squares (powers of two, their sums, neither), tall (p < n and p > n extra rows), wide, and degenerate.
const std::vector<std::pair<std::size_t, std::size_t>> shapes = {
    {64, 64}, {128, 128}, {100, 100}, {77, 77}, {96, 96}, {3, 3},   {2, 2},  {1, 1},
    {120, 50}, {50, 120}, {200, 30}, {30, 200}, {7, 1},  {1, 7},   {65, 64}, {64, 65}};
const std::vector<SvcMode> modes = {SvcMode::one_large, SvcMode::one_small, SvcMode::geometric,
                                    SvcMode::arithmetic, SvcMode::random,    SvcMode::user};

TEST(SvcPhilox, KnownAnswerVectors) {
  // Random123's kat_vectors, "philox4x32 10" lines: counter, key, result.
  EXPECT_EQ(philox4x32_10({0, 0, 0, 0}, {0, 0}), (PhiloxCounter{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  EXPECT_EQ(philox4x32_10({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff}),
            (PhiloxCounter{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  EXPECT_EQ(philox4x32_10({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0}),
            (PhiloxCounter{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

TEST(SvcRotation, OrthonormalWithAnglesFromTheSpecDistribution) {
  // theta ~ N(pi/4, (pi/24)^2) on (0, pi/2): 200000 draws, mean within 3e-3 (10 standard errors) and
  // standard deviation within 2 %; c^2 + s^2 = 1 within 2^-51; a column step negates s and nothing else.
  const int draws = 200000;
  double sum = 0.0, sum2 = 0.0;
  for (int i = 0; i < draws; ++i) {
    const Givens g = svc_rotation(42, SvcPhase::square_rows, 3, static_cast<std::uint32_t>(i));
    ASSERT_GT(g.c, 0.0);
    ASSERT_GT(g.s, 0.0);
    ASSERT_LE(std::abs(std::fma(g.c, g.c, g.s * g.s) - 1.0), 0x1p-51) << i;
    const double theta = std::atan2(g.s, g.c);
    sum += theta;
    sum2 += theta * theta;
    const Givens h = svc_rotation(42, SvcPhase::square_columns, 3, static_cast<std::uint32_t>(i));
    const Givens other = svc_rotation(42, SvcPhase::square_columns, 4, static_cast<std::uint32_t>(i));
    ASSERT_NE(h.c, g.c);  // another phase draws another angle
    ASSERT_LT(h.s, 0.0);
    ASSERT_NE(other.c, h.c);  // another step too
  }
  const double mean = sum / draws, sd = std::sqrt(sum2 / draws - mean * mean);
  EXPECT_NEAR(mean, std::numbers::pi / 4, 3e-3);
  EXPECT_NEAR(sd / (std::numbers::pi / 24), 1.0, 0.02);
}

TEST(SvcSingularValues, ModesGiveTheirValuesWithExactExtremes) {
  const double kappa = 1e6;
  for (const SvcMode mode : modes) {
    SvcSpec spec = spec_of(40, 30, kappa, mode, 9);
    std::vector<double> v = svc_singular_values(spec);
    ASSERT_EQ(v.size(), 30u);
    std::vector<double> sorted = v;
    std::sort(sorted.begin(), sorted.end(), std::greater<>());
    if (mode == SvcMode::geometric || mode == SvcMode::arithmetic || mode == SvcMode::random) {
      EXPECT_NE(v, sorted) << to_string(mode) << ": distinct values are permuted";
    }
    if (mode == SvcMode::user) {
      std::vector<double> given = spec.singular_values;
      std::sort(given.begin(), given.end(), std::greater<>());
      EXPECT_EQ(sorted, given);
      continue;
    }
    EXPECT_EQ(sorted.front(), 1.0) << to_string(mode);
    EXPECT_EQ(sorted.back(), 1.0 / kappa) << to_string(mode);
    for (std::size_t i = 0; i < sorted.size(); ++i) {
      const double x = static_cast<double>(i) / 29.0;
      switch (mode) {
        case SvcMode::one_large: EXPECT_EQ(sorted[i], i == 0 ? 1.0 : 1.0 / kappa); break;
        case SvcMode::one_small: EXPECT_EQ(sorted[i], i == 29 ? 1.0 / kappa : 1.0); break;
        case SvcMode::geometric: EXPECT_NEAR(sorted[i], std::pow(kappa, -x), 1e-15); break;
        case SvcMode::arithmetic: EXPECT_NEAR(sorted[i], 1.0 - x * (1.0 - 1.0 / kappa), 1e-15); break;
        default: EXPECT_TRUE(sorted[i] >= 1.0 / kappa && sorted[i] <= 1.0); break;
      }
    }
  }
  EXPECT_EQ(svc_singular_values(spec_of(1, 5, 1e3, SvcMode::one_small)), std::vector<double>{1.0});
}

// |sigma_hat_i - sigma_i| <= 1e-12 sigma_max for every i, sigma sorted: the issue's "within 1e-12
// relative", relative to the largest value (a tiny sigma is only known to eps * kappa of itself).
void expect_singular_values(const Matrix& a, const SvcSpec& spec) {
  std::vector<double> want = svc_singular_values(spec);
  std::sort(want.begin(), want.end(), std::greater<>());
  const std::vector<double> got = test::singular_values(a);
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    ASSERT_LE(std::abs(got[i] - want[i]), 1e-12 * want.front()) << label(spec) << " sigma " << i;
  }
}

TEST(SvcHost, SingularValuesAreThePrescribedOnes) {
  for (const auto& [m, n] : shapes) {
    for (const SvcMode mode : modes) {
      for (const double kappa : {1.0, 1e1, 1e4, 1e8}) {
        const SvcSpec spec = spec_of(m, n, kappa, mode, m * 1000 + n);
        expect_singular_values(svc_host(spec), spec);
      }
    }
  }
}

TEST(SvcHost, SameSeedSameBitsOtherSeedOtherMatrix) {
  for (const auto& [m, n] : {std::pair{64, 64}, std::pair{77, 77}, std::pair{120, 50}, std::pair{50, 120}}) {
    const SvcSpec a = spec_of(m, n, 1e5, SvcMode::geometric, 3);
    SvcSpec b = a;
    b.seed = 4;
    EXPECT_TRUE(same_bits(svc_host(a), svc_host(a))) << label(a);
    const Matrix x = svc_host(a), y = svc_host(b);
    std::size_t equal = 0;
    for (std::size_t i = 0; i < x.data.size(); ++i) equal += x.data[i] == y.data[i];
    EXPECT_EQ(equal, 0u) << label(a) << " vs seed 4: no element in common";
  }
}

TEST(SvcHost, UpdateCountsAreTheSpecsWorkFormulas) {
  SvcStats st;
  for (std::size_t n = 2; n <= 512; n *= 2) {  // 4 n (n - 1) for n = 2^K, nothing else
    svc_host(spec_of(n, n, 1e3, SvcMode::geometric), &st);
    EXPECT_EQ(st.total(), 4 * n * (n - 1)) << n;
    EXPECT_EQ(st.square_updates, 4 * n * (n - 1)) << n;
  }
  // Two set bits (App. D.2): 4 * 2^i (2^i - 1) per bit, plus 4 * 2^i (2^i + prev) for the larger.
  for (const auto& [big, small] : {std::pair{64, 32}, std::pair{64, 1}, std::pair{32, 8}}) {
    const std::size_t n = big + small;
    svc_host(spec_of(n, n, 1e3, SvcMode::random), &st);
    EXPECT_EQ(st.square_updates, 4 * big * (big - 1) + 4 * small * (small - 1)) << n;
    EXPECT_EQ(st.combine_updates, 4 * big * (big + small)) << n;
    EXPECT_EQ(st.total(), st.square_updates + st.combine_updates) << n;
  }
  // More set bits: each combination spans the block and the whole rest of its square.
  svc_host(spec_of(77, 77, 1e3, SvcMode::random), &st);  // 64 + 8 + 4 + 1
  EXPECT_EQ(st.square_updates, 4u * (64 * 63 + 8 * 7 + 4 * 3));
  EXPECT_EQ(st.combine_updates, 4u * (64 * 77 + 8 * 13 + 4 * 5));
  // m > n (either orientation): 5 passes of 2n updates per extra row, 5 of 2m per column pair.
  for (const auto& [m, n] : {std::pair{120, 50}, std::pair{50, 120}, std::pair{200, 31}}) {
    svc_host(spec_of(m, n, 1e3, SvcMode::one_small), &st);
    const std::size_t big = std::max(m, n), small = std::min(m, n);
    EXPECT_EQ(st.extra_row_updates, 10 * small * (big - small)) << m << "x" << n;
    EXPECT_EQ(st.extra_column_updates, 10 * big * (small / 2)) << m << "x" << n;
  }
}

TEST(SvcHost, NoExactZerosInPowerOfTwoSquares) {
  for (std::size_t n = 2; n <= 256; n *= 2) {
    for (const SvcMode mode : modes) {
      const SvcSpec spec = spec_of(n, n, 1e8, mode, n);
      const Matrix a = svc_host(spec);
      EXPECT_EQ(std::count(a.data.begin(), a.data.end(), 0.0), 0) << label(spec);
    }
  }
}

TEST(SvcSpec, RejectsBadInputNamingFieldAndValue) {
  const auto message = [](const SvcSpec& spec) -> std::string {
    try {
      svc_host(spec);
    } catch (const core::Error& e) {
      return e.what();
    }
    return "(accepted)";
  };
  const auto expect_names = [&](const SvcSpec& spec, const std::string& field, const std::string& value) {
    const std::string what = message(spec);
    EXPECT_NE(what.find(field), std::string::npos) << what;
    EXPECT_NE(what.find(value), std::string::npos) << what;
  };
  SvcSpec s = spec_of(10, 10, 0.5, SvcMode::geometric);
  expect_names(s, "kappa", "0.5");
  s.kappa = std::nan("");
  expect_names(s, "kappa", "nan");
  s.kappa = INFINITY;
  expect_names(s, "kappa", "inf");
  expect_names(spec_of(0, 10, 10, SvcMode::geometric), "rows", "got 0");
  expect_names(spec_of(10, 0, 10, SvcMode::geometric), "cols", "got 0");
  s = spec_of(50, 120, 10, SvcMode::user);
  s.singular_values.resize(3);
  expect_names(s, "singular_values", "has 3 values");
  expect_names(s, "singular_values", "= 50");
  s = spec_of(5, 5, 10, SvcMode::user);
  s.singular_values[1] = -2.0;
  expect_names(s, "singular_values[1]", "-2");
  s.singular_values[1] = NAN;
  expect_names(s, "singular_values[1]", "nan");
  s = spec_of(5, 5, 10, SvcMode::geometric);
  s.singular_values = {1.0};
  expect_names(s, "singular_values", "mode geometric");
}

TEST(SvcDevice, BitIdenticalToTheHostReference) {
  const core::DeviceSet devices = test::test_device();
  SvcGenerator svc(devices);
  for (const auto& [m, n] : shapes) {
    for (const SvcMode mode : {SvcMode::geometric, SvcMode::random, SvcMode::one_large, SvcMode::user}) {
      const SvcSpec spec = spec_of(m, n, 1e6, mode, 11 + m);
      EXPECT_TRUE(same_bits(svc.matrix(spec), svc_host(spec))) << label(spec);
    }
  }
  // Larger than any test above: 9 levels, a 3-bit combination chain, 700 extra rows per pass.
  for (const SvcSpec& spec : {spec_of(512, 512, 1e8, SvcMode::geometric, 5),
                              spec_of(1000, 300, 1e3, SvcMode::arithmetic, 6),
                              spec_of(300, 1000, 1e3, SvcMode::arithmetic, 6)}) {
    EXPECT_TRUE(same_bits(svc.matrix(spec), svc_host(spec))) << label(spec);
  }
}

TEST(SvcDevice, MatrixLeftOnTheDeviceHasThePrescribedSingularValues) {
  const core::DeviceSet devices = test::test_device();
  SvcGenerator svc(devices);
  const SvcSpec spec = spec_of(120, 50, 1e8, SvcMode::random, 77);
  const core::Buffer<double> w = svc.generate(spec);
  ASSERT_EQ(w.size(), 120u * 50u);
  Matrix a(120, 50);
  w.read(svc.queue(), a.data);
  expect_singular_values(a, spec);
  SvcSpec other = spec;
  other.seed = 78;
  EXPECT_FALSE(same_bits(a, svc.matrix(other)));
}

TEST(SvcDevice, SameBitsOnEveryDevice) {
  // Not only on one platform: the generator uses no operation whose rounding a platform chooses.
  const core::DeviceSet devices = test::test_devices();
  ASSERT_GE(devices.size(), 2u);
  for (const SvcSpec& spec :
       {spec_of(128, 128, 1e8, SvcMode::geometric, 21), spec_of(77, 120, 1e4, SvcMode::random, 22)}) {
    const Matrix host = svc_host(spec);
    for (std::size_t k = 0; k < devices.size(); ++k) {
      EXPECT_TRUE(same_bits(svc_device(devices, spec, k), host)) << label(spec) << " device " << k;
    }
  }
}

TEST(SvcDevice, RejectsBadInput) {
  const core::DeviceSet devices = test::test_device();
  SvcGenerator svc(devices);
  EXPECT_THROW(svc.generate(spec_of(10, 10, 0.5, SvcMode::geometric)), core::Error);
  EXPECT_THROW(svc.generate(spec_of(0, 10, 10, SvcMode::geometric)), core::Error);
}

}  // namespace
}  // namespace hetflow::nnls
