// Bad input is refused with messages that name the series or set, the index and the value.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "hetflow/core/error.hpp"
#include "hetflow/karst/host_solver.hpp"

namespace hetflow::karst {
namespace {

using ::testing::HasSubstr;

std::string error_of(auto&& f) {
  try {
    f();
  } catch (const core::Error& e) {
    return e.what();
  }
  return "no error";
}

Grid small_grid() {
  Grid g;
  g.nodes = 10;
  g.rock_nodes = 5;
  g.times = Grid::uniform_times(0.1, 5);
  return g;
}

const Series constant_one{{0, 1}, {1, 1}};

TEST(KarstInput, NonMonotoneTimesNameIndexAndValues) {
  const Series v{{0, 1, 1.5, 2, 3, 3}, {1, 1, 1, 1, 1, 1}};
  EXPECT_EQ(error_of([&] { check_series(v, "velocity", Sign::positive); }),
            "velocity series: t[5] = 3 is not after t[4] = 3");
  const Series back{{0, 0.5, 0.25}, {1, 1, 1}};
  EXPECT_EQ(error_of([&] { host_run(back, constant_one, {}, small_grid()); }),
            "inlet series: t[2] = 0.25 is not after t[1] = 0.5");
}

TEST(KarstInput, NegativeVelocityNamesIndexAndValue) {
  const Series v{{0, 0.5, 1}, {1, -0.5, 1}};
  EXPECT_THAT(error_of([&] { host_run(constant_one, v, {}, small_grid()); }),
              HasSubstr("velocity series: value[1] = -0.5 at t = 0.5 is not > 0"));
  const Series zero{{0, 1}, {1, 0}};
  EXPECT_THAT(error_of([&] { host_run(constant_one, zero, {}, small_grid()); }),
              HasSubstr("velocity series: value[1] = 0 at t = 1 is not > 0"));
}

TEST(KarstInput, NonFiniteAndShapeErrors) {
  const Series nan_in{{0, 1}, {1, std::numeric_limits<double>::quiet_NaN()}};
  EXPECT_EQ(error_of([&] { host_run(nan_in, constant_one, {}, small_grid()); }),
            "inlet series: value[1] = nan is not finite");
  const Series short_values{{0, 1}, {1}};
  EXPECT_EQ(error_of([&] { check_series(short_values, "inlet"); }), "inlet series: has 2 times but 1 values");
  const Series covers_half{{0, 0.3}, {1, 1}};
  EXPECT_EQ(error_of([&] { host_run(covers_half, constant_one, {}, small_grid()); }),
            "inlet series: covers t = [0, 0.3] but the steps need t = [0.1, 0.5]");
}

TEST(KarstInput, ParametersNameSetGroupAndValue) {
  const KarstParameters sets[] = {{1000, 1, 1, 1, 0}, {-5, 1, 1, 1, 0}};
  EXPECT_EQ(error_of([&] { check_parameters(sets, Model::heat); }),
            "karst parameter set 1: Pe = -5 must be finite and > 0");
  const KarstParameters zero_pe{0, 1, 1, 1, 0};
  EXPECT_EQ(error_of([&] { host_run(constant_one, constant_one, zero_pe, small_grid()); }),
            "karst parameter set 0: Pe = 0 must be finite and > 0");
  const KarstParameters bad_theta{100, 1, 0, 1, 0};
  EXPECT_EQ(error_of([&] { HostSolver(bad_theta, small_grid()); }),
            "karst parameter set 0: Theta = 0 must be finite and > 0");
  // Solute ignores the heat groups but wants a finite Da.
  Grid solute = small_grid();
  solute.model = Model::solute;
  EXPECT_EQ(error_of([&] { HostSolver(bad_theta, solute); }), "no error");
  const KarstParameters inf_da{100, 0, 1, 1, std::numeric_limits<double>::infinity()};
  EXPECT_EQ(error_of([&] { HostSolver(inf_da, solute); }), "karst parameter set 0: Da = inf must be finite");
}

TEST(KarstInput, GridErrors) {
  Grid g = small_grid();
  g.times = {0.1, 0.2, 0.2};
  EXPECT_EQ(error_of([&] { check_grid(g); }), "karst grid: times[2] = 0.2 is not after times[1] = 0.2");
  g.times = {0};
  EXPECT_EQ(error_of([&] { check_grid(g); }), "karst grid: times[0] = 0 is not after the start t* = 0");
  g = small_grid();
  g.rock_nodes = 2;
  EXPECT_EQ(error_of([&] { check_grid(g); }), "karst grid: rock_nodes = 2 must be at least 3");
}

}  // namespace
}  // namespace hetflow::karst
