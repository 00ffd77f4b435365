#include <gtest/gtest.h>

#include <cmath>

#include "hetflow/core/error.hpp"
#include "hetflow/mrag/colour_function.hpp"

namespace hetflow::mrag {
namespace {

// The mollified Heaviside runs from 0 at −ε through 1/2 at 0 to 1 at ε, continuous at both ends and rising
// between; γ(φ) goes with it from γ2 to γ1.
TEST(MragColourFunction, TheMollifiedHeavisideRisesSmoothlyFromZeroToOne) {
  const ColourFunction c{5.0 / 3, 1.4, 0.5};
  EXPECT_EQ(c.heaviside(-1), 0);
  EXPECT_EQ(c.heaviside(1), 1);
  EXPECT_NEAR(c.heaviside(-0.5), 0, 1e-16);
  EXPECT_NEAR(c.heaviside(0), 0.5, 1e-16);
  EXPECT_NEAR(c.heaviside(0.5), 1, 1e-16);
  for (double phi = -0.5; phi < 0.5; phi += 0.01) EXPECT_LT(c.heaviside(phi), c.heaviside(phi + 0.01)) << phi;
  EXPECT_NEAR(c.gamma(1), 5.0 / 3, 1e-15);
  EXPECT_NEAR(c.gamma(-1), 1.4, 1e-15);
  EXPECT_NEAR(c.big_gamma(0), 1 / (0.5 * (5.0 / 3 + 1.4) - 1), 1e-14);
}

// The initial colours: +1 for the first gas's Γ, −1 for the second's, 0 half way; one gas alone gives +1.
TEST(MragColourFunction, ColoursFollowFromTheInitialGamma) {
  const ColourFunction c{5.0 / 3, 1.4, 0.5};
  EXPECT_NEAR(c.colour(1.5), 1, 1e-15);
  EXPECT_NEAR(c.colour(2.5), -1, 1e-15);
  EXPECT_NEAR(c.colour(2.0), 0, 1e-15);
  EXPECT_EQ(ColourFunction({1.4, 1.4, 0.5}).colour(2.5), 1);
}

TEST(MragColourFunction, RefusesGammasAtOrBelowOneAndAnEpsilonThatIsNotPositive) {
  EXPECT_THROW(check(ColourFunction{1.0, 1.4, 0.5}), core::Error);
  EXPECT_THROW(check(ColourFunction{1.4, 0.9, 0.5}), core::Error);
  EXPECT_THROW(check(ColourFunction{1.4, 1.4, 0}), core::Error);
  EXPECT_NO_THROW(check(ColourFunction{1.4, 5.0 / 3, 0.1}));
}

}  // namespace
}  // namespace hetflow::mrag
