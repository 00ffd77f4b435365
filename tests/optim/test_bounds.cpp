#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "hetflow/optim/bounds.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/optim/levenberg_marquardt.hpp"
#include "hetflow/optim/nelder_mead.hpp"
#include "hetflow/optim/nlcg.hpp"
#include "problems.hpp"

namespace hetflow::optim {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const core::Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Bounds, LowerNotBelowUpperNamesDimensionAndValues) {
  EXPECT_EQ(message_of([] { Bounds({0.0, 3.0}, {1.0, 1.0}); }),
            "bounds of dimension 1: lower limit 3 is not below upper limit 1");
  EXPECT_EQ(message_of([] { Bounds({0.0}, {0.0}); }), "bounds of dimension 0: lower limit 0 is not below upper limit 0");
  EXPECT_EQ(message_of([] { Bounds({std::nan("")}, {1.0}); }), "bounds of dimension 0: lower limit nan is not below upper limit 1");
  EXPECT_EQ(message_of([] { Bounds({0.0, 0.0}, {1.0}); }),
            "bounds have 2 lower and 1 upper limits; they need one of each per dimension");
}

TEST(Bounds, StartOutsideNamesCoordinateAndBounds) {
  const Bounds box({0.0, -inf}, {2.0, 0.5});
  EXPECT_EQ(message_of([&] { box.check_start(std::vector{1.0, 0.75}); }),
            "start coordinate 1 = 0.75 lies outside its bounds [-inf, 0.5]");
  EXPECT_EQ(message_of([&] { box.check_start(std::vector{-1e-3, 0.0}); }),
            "start coordinate 0 = -0.001 lies outside its bounds [0, 2]");
  EXPECT_EQ(message_of([&] { box.check_start(std::vector{1.0}); }),
            "the start point has 1 coordinates but the bounds have 2 dimensions");
  EXPECT_EQ(message_of([&] { box.check_start(std::vector{inf, 0.0}); }), "start coordinate 0 is inf; it must be finite");
  EXPECT_NO_THROW(box.check_start(std::vector{0.0, 0.5}));  // on the bounds is inside
  EXPECT_NO_THROW(Bounds({-inf}, {inf}).check_start(std::vector{1e300}));
}

// Every method checks the start before it evaluates anything.
TEST(Bounds, MethodsRejectStartOutsideBeforeEvaluating) {
  std::size_t calls = 0;
  const Bounds box({-1.0, -1.0}, {1.0, 1.0});
  NlcgOptions cg;
  cg.bounds = box;
  NelderMeadOptions nm;
  nm.bounds = box;
  LevenbergMarquardtOptions lm;
  lm.bounds = box;
  const Point outside{0.0, 1.5};
  EXPECT_THROW(nlcg(test::rosenbrock_objective(&calls), outside, cg), core::Error);
  EXPECT_THROW(nelder_mead(test::rosenbrock_objective(&calls), outside, nm), core::Error);
  EXPECT_THROW(levenberg_marquardt(test::rosenbrock_least_squares(&calls), outside, lm), core::Error);
  EXPECT_EQ(calls, 0u);
}

TEST(Bounds, ProjectionClampsEachCoordinate) {
  const Bounds box({0.0, -inf}, {1.0, 0.0});
  EXPECT_EQ(box.project({-3.0, 7.0}), (Point{0.0, 0.0}));
  EXPECT_EQ(box.project({0.25, -1e300}), (Point{0.25, -1e300}));
}

}  // namespace
}  // namespace hetflow::optim
