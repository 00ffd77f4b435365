// The heat groups from physical properties against values derived by hand from the constants of
// Luhmann's (2011) cases C11 and C72, as Myre 2013 quotes them.
#include <gtest/gtest.h>

#include "hetflow/karst/model.hpp"

namespace hetflow::karst {
namespace {

// The expected values have 3 to 4 significant digits: half a unit of the third is up to 0.5 %.
constexpr double table_rel = 5e-3;

void expect_rel(double value, double expected) { EXPECT_NEAR(value, expected, table_rel * expected); }

TEST(KarstModel, HeatGroupsMatchLuhmannsCases) {
  ConduitProperties c11{.length = 100, .hydraulic_diameter = 1, .mean_velocity = 0.6264, .dispersion = 0.1,
                        .friction_factor = 0.05};
  const HeatGroups g = heat_groups(c11);
  expect_rel(g.Re, 4.82e5);
  expect_rel(g.Pr, 9.414);
  expect_rel(g.Nu, 6326);
  expect_rel(g.h, 3669);
  expect_rel(g.parameters.St, 0.558);
  expect_rel(g.parameters.Theta, 1369);
  expect_rel(g.parameters.Psi, 2.2350);
  EXPECT_DOUBLE_EQ(g.parameters.Pe, 100 * 0.6264 / 0.1);

  ConduitProperties c72 = c11;
  c72.mean_velocity = 1.98;
  const HeatGroups h = heat_groups(c72);
  expect_rel(h.Re, 1.52e6);
  expect_rel(h.Nu, 20024);
  expect_rel(h.parameters.St, 0.559);
  expect_rel(h.parameters.Theta, 4327);
}

TEST(KarstModel, HeatGroupsRefuseLaminarFlow) {
  ConduitProperties slow{.length = 100, .hydraulic_diameter = 0.01, .mean_velocity = 0.01, .dispersion = 0.1,
                         .friction_factor = 0.05};
  EXPECT_THROW(heat_groups(slow), std::exception);
}

}  // namespace
}  // namespace hetflow::karst
