// The names of the mappings and Jacobians that case files, the tuner and Python use.
#include <gtest/gtest.h>

#include "hetflow/ode/options.hpp"

namespace hetflow::ode {
namespace {

TEST(OdeOptionNames, EveryMappingAndJacobianRoundTrips) {
  for (const Mapping m : {Mapping::work_item, Mapping::work_group, Mapping::phased, Mapping::automatic})
    EXPECT_EQ(mapping_named(to_string(m)), m) << to_string(m);
  for (const Jacobian j : {Jacobian::analytic, Jacobian::finite_difference, Jacobian::automatic})
    EXPECT_EQ(jacobian_named(to_string(j)), j) << to_string(j);
  EXPECT_STREQ(to_string(Mapping::phased), "phased");
  EXPECT_STREQ(to_string(Jacobian::finite_difference), "finite_difference");
}

TEST(OdeOptionNames, OtherNamesAreNone) {
  EXPECT_FALSE(mapping_named("mapping_2"));
  EXPECT_FALSE(mapping_named(""));
  EXPECT_FALSE(jacobian_named("exact"));
  EXPECT_FALSE(jacobian_named("Analytic"));
}

}  // namespace
}  // namespace hetflow::ode
