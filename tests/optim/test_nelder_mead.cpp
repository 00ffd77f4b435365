#include <gtest/gtest.h>

#include "hetflow/optim/nelder_mead.hpp"
#include "problems.hpp"

namespace hetflow::optim {
namespace {

// A rotated, anisotropic 2-D quadratic with minimum (1, −2): found to 1e-8.
Evaluation quadratic(const Point& p) {
  const double x = p[0] - 1, y = p[1] + 2;
  return Evaluation::of(x * x + 10 * y * y + 3 * x * y);
}

TEST(NelderMead, FindsQuadraticMinimum) {
  const Result r = nelder_mead(test::batch_of(quadratic), {-1.0, 3.0}, {});
  SCOPED_TRACE(r.stop_reason);
  EXPECT_TRUE(r.converged);
  EXPECT_NEAR(r.best[0], 1.0, 1e-8);
  EXPECT_NEAR(r.best[1], -2.0, 1e-8);
}

// The initial simplex is one batch of n + 1 points.
TEST(NelderMead, InitialSimplexIsOneBatch) {
  std::vector<std::size_t> sizes;
  const auto objective = [&sizes](std::span<const Point> points) {
    sizes.push_back(points.size());
    std::vector<Evaluation> out;
    for (const Point& p : points) out.push_back(quadratic(p));
    return out;
  };
  nelder_mead(objective, {-1.0, 3.0}, {});
  ASSERT_FALSE(sizes.empty());
  EXPECT_EQ(sizes.front(), 3u);
}

// (x + 2)² + 10y² + 3(x + 2)y + 5y on y ≥ 0: the free minimum has y < 0, so the bound holds it at
// (−2, 0), where f = 0 (exactly representable, so values resolve x to well below 1e-8). Found to 1e-8;
// no point requested leaves the box.
TEST(NelderMead, BoundsByProjection) {
  const auto bounded = [](const Point& p) {
    const double x = p[0] + 2, y = p[1];
    return Evaluation::of(x * x + 10 * y * y + 3 * x * y + 5 * y);
  };
  const Bounds box({-10.0, 0.0}, {10.0, 10.0});
  bool left_box = false;
  NelderMeadOptions options;
  options.bounds = box;
  const Result r = nelder_mead(test::batch_of(bounded, nullptr, &box, &left_box), {5.0, 5.0}, options);
  SCOPED_TRACE(r.stop_reason);
  EXPECT_FALSE(left_box);
  EXPECT_NEAR(r.best[0], -2.0, 1e-8);
  EXPECT_NEAR(r.best[1], 0.0, 1e-8);
}

}  // namespace
}  // namespace hetflow::optim
