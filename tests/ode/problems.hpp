#pragma once
// The test problems of docs/ode.md, Validation, as OpenCL C systems, written with the
// Hairer & Wanner test drivers' order of operations so the step statistics can match the Fortran's.
#include <gtest/gtest.h>

#include <cmath>
#include <ostream>
#include <string>

#include "hetflow/core/device_set.hpp"
#include "hetflow/core/error.hpp"
#include "error_of.hpp"
#include "hetflow/ode/radau5.hpp"
#include "test_devices.hpp"

namespace hetflow::ode {
// Names the mapping in gtest's parameter listings.
inline void PrintTo(Mapping m, std::ostream* os) {
  *os << (m == Mapping::work_item ? "work_item" : m == Mapping::work_group ? "work_group" : "phased");
}
}  // namespace hetflow::ode

namespace hetflow::ode::test {

// The test device, made once per test program.
inline const core::DeviceSet& devices() {
  static const core::DeviceSet d = hetflow::test::test_device();
  return d;
}

using hetflow::test::error_of;

// Test-name suffix of a mapping.
inline const char* mapping_name(Mapping m) {
  return m == Mapping::work_item ? "item" : m == Mapping::work_group ? "group" : "phased";
}

// Every status and counter equal.
inline void expect_same_counters(const Statistics& s, const Statistics& t) {
  EXPECT_EQ(s.status, t.status);
  EXPECT_EQ(s.nfcn, t.nfcn);
  EXPECT_EQ(s.njac, t.njac);
  EXPECT_EQ(s.nstep, t.nstep);
  EXPECT_EQ(s.naccpt, t.naccpt);
  EXPECT_EQ(s.nrejct, t.nrejct);
  EXPECT_EQ(s.ndec, t.ndec);
  EXPECT_EQ(s.nsol, t.nsol);
}

// Every value and counter of every system equal, bit for bit.
inline void expect_identical(const Result& a, const Result& b) {
  ASSERT_EQ(a.y.size(), b.y.size());
  ASSERT_EQ(a.statistics.size(), b.statistics.size());
  for (std::size_t i = 0; i < a.y.size(); ++i) ASSERT_EQ(a.y[i], b.y[i]) << "value " << i;
  for (std::size_t s = 0; s < a.statistics.size(); ++s) {
    SCOPED_TRACE("system " + std::to_string(s));
    test::expect_same_counters(a.statistics[s], b.statistics[s]);
    EXPECT_EQ(a.statistics[s].t, b.statistics[s].t);
    EXPECT_EQ(a.statistics[s].h, b.statistics[s].h);
  }
}

// Mapping 2 is tested on GPUs only: PoCL 3.1 does not compile its kernel in test time (radau5_launch.cpp).
inline bool untestable(Mapping m, const core::DeviceSet& devices) {
  bool gpus = true;
  for (std::size_t k = 0; k < devices.size(); ++k) gpus = gpus && devices.device(k).info.kind == core::DeviceKind::gpu;
  return m == Mapping::work_group && !gpus;
}
#define SKIP_UNTESTABLE(mapping, devices) \
  if (test::untestable(mapping, devices)) GTEST_SKIP() << "mapping 2 is tested on GPUs (PoCL cannot compile it in time)"

// Van der Pol, y1' = y2, y2' = ((1 - y1^2) y2 - y1) / eps, with eps the system's parameter.
inline System van_der_pol(bool analytic) {
  return {.n = 2, .source = R"(
void rhs(double t, const double* y, double* f, __global const double* p) {
  f[0] = y[1];
  f[1] = ((1.0 - y[0] * y[0]) * y[1] - y[0]) / p[0];
}
void jac(double t, const double* y, double* dfdy, __global const double* p) {
  dfdy[0] = 0.0;
  dfdy[2] = 1.0;
  dfdy[1] = (-2.0 * y[0] * y[1] - 1.0) / p[0];
  dfdy[3] = (1.0 - y[0] * y[0]) / p[0];
}
)",
          .analytic_jacobian = analytic,
          .parameters = 1};
}

// `count` Van der Pol oscillators from (2, -0.66) to t = 2, eps from 1e-1 to 1e-6 geometrically: from tens
// to hundreds of steps, so that the mappings' systems part ways.
inline Batch van_der_pol_batch(int count) {
  Batch b;
  for (int s = 0; s < count; ++s) {
    b.y0.insert(b.y0.end(), {2.0, -0.66});
    b.params.push_back(std::pow(10.0, -1.0 - 5.0 * s / (count - 1)));
  }
  b.t_end = {2.0};
  return b;
}

// A group-only system of size n whose functions do nothing: for checks that build no kernel.
inline System idle_group_only(int n) {
  return {.n = n,
          .source =
              "void rhs_group(double t, const SHARED double* y, SHARED double* f, __global const double* p,"
              " __global const double* tables, WORK_SPACE double* work) {}\n"
              "void jac_group(double t, const SHARED double* y, MATRIX_SPACE double* dfdy,"
              " __global const double* p, __global const double* tables, WORK_SPACE double* work) {}",
          .analytic_jacobian = true,
          .group_rhs = true,
          .group_jac = true,
          .group_only = true};
}

// Robertson's chemical kinetics.
inline System robertson(bool analytic) {
  return {.n = 3, .source = R"(
void rhs(double t, const double* y, double* f, __global const double* p) {
  f[0] = -0.04 * y[0] + 1.0e4 * y[1] * y[2];
  f[2] = 3.0e7 * y[1] * y[1];
  f[1] = -f[0] - f[2];
}
void jac(double t, const double* y, double* dfdy, __global const double* p) {
  dfdy[0] = -0.04;
  dfdy[3] = 1.0e4 * y[2];
  dfdy[6] = 1.0e4 * y[1];
  dfdy[2] = 0.0;
  dfdy[5] = 6.0e7 * y[1];
  dfdy[8] = 0.0;
  dfdy[1] = 0.04;
  dfdy[4] = -1.0e4 * y[2] - 6.0e7 * y[1];
  dfdy[7] = -1.0e4 * y[1];
}
)",
          .analytic_jacobian = analytic};
}

// HIRES, the 8-equation photomorphogenesis model of the Bari test set.
inline System hires(bool analytic) {
  return {.n = 8, .source = R"(
void rhs(double t, const double* y, double* f, __global const double* p) {
  f[0] = -1.71 * y[0] + 0.43 * y[1] + 8.32 * y[2] + 0.0007;
  f[1] = 1.71 * y[0] - 8.75 * y[1];
  f[2] = -10.03 * y[2] + 0.43 * y[3] + 0.035 * y[4];
  f[3] = 8.32 * y[1] + 1.71 * y[2] - 1.12 * y[3];
  f[4] = -1.745 * y[4] + 0.43 * y[5] + 0.43 * y[6];
  f[5] = -280.0 * y[5] * y[7] + 0.69 * y[3] + 1.71 * y[4] - 0.43 * y[5] + 0.69 * y[6];
  f[6] = 280.0 * y[5] * y[7] - 1.81 * y[6];
  f[7] = -f[6];
}
#define J(i, j) dfdy[(i) + (j) * 8]
void jac(double t, const double* y, double* dfdy, __global const double* p) {
  for (int k = 0; k < 64; ++k) dfdy[k] = 0.0;
  J(0, 0) = -1.71; J(0, 1) = 0.43; J(0, 2) = 8.32;
  J(1, 0) = 1.71; J(1, 1) = -8.75;
  J(2, 2) = -10.03; J(2, 3) = 0.43; J(2, 4) = 0.035;
  J(3, 1) = 8.32; J(3, 2) = 1.71; J(3, 3) = -1.12;
  J(4, 4) = -1.745; J(4, 5) = 0.43; J(4, 6) = 0.43;
  J(5, 3) = 0.69; J(5, 4) = 1.71; J(5, 5) = -0.43 - 280.0 * y[7]; J(5, 6) = 0.69; J(5, 7) = -280.0 * y[5];
  J(6, 5) = 280.0 * y[7]; J(6, 6) = -1.81; J(6, 7) = 280.0 * y[5];
  J(7, 5) = -280.0 * y[7]; J(7, 6) = 1.81; J(7, 7) = -280.0 * y[5];
}
)",
          .analytic_jacobian = analytic};
}

}  // namespace hetflow::ode::test
