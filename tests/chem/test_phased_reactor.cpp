// The phased mapping on a reactor: J by jac() between the passes (radau5_jacobian), the decompositions
// by a work-group per system on GPUs. A reactor batch must end with mapping 1's states and step
// statistics, bit for bit, as RADAU5's mappings promise (test_mappings.cpp checks the ODE test problems).
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "chem_test_util.hpp"
#include "hetflow/chem/reactor_source.hpp"
#include "hetflow/ode/radau5.hpp"
#include "jacobian_test_util.hpp"
#include "test_devices.hpp"

namespace hetflow::chem {
namespace {

ode::Result integrate(const core::DeviceSet& devices, const ode::System& system, const ode::Batch& batch,
                      ode::Mapping mapping) {
  ode::Options o;
  o.rtol = {1e-6};
  o.atol = {1e-10};
  o.mapping = mapping;
  return ode::Radau5(devices, system, o).integrate(batch);
}

// The reference states over 1e-4 s, long enough for several Jacobians per system.
void check_phased(const Mechanism& mechanism, const std::string& name) {
  const test::StackedStates states = test::stacked_reference_states(mechanism, name);
  const core::DeviceSet devices = hetflow::test::test_device();
  const ode::System system = reactor_system(mechanism);
  const ode::Batch batch{states.y, states.pressures, {0.0}, {1e-4}};
  const ode::Result one = integrate(devices, system, batch, ode::Mapping::work_item);
  const ode::Result phased = integrate(devices, system, batch, ode::Mapping::phased);
  ASSERT_EQ(one.failures(), 0u) << one.report();
  ASSERT_EQ(phased.failures(), 0u) << phased.report();
  ASSERT_EQ(phased.y.size(), one.y.size());
  long jacobians = 0;
  for (std::size_t s = 0; s < one.statistics.size(); ++s) {
    SCOPED_TRACE(name + " system " + std::to_string(s));
    const ode::Statistics &a = one.statistics[s], &b = phased.statistics[s];
    EXPECT_EQ(b.njac, a.njac);
    EXPECT_EQ(b.nstep, a.nstep);
    EXPECT_EQ(b.naccpt, a.naccpt);
    EXPECT_EQ(b.nsol, a.nsol);
    jacobians += a.njac;
  }
  EXPECT_GT(jacobians, static_cast<long>(2 * one.statistics.size()));  // J again between passes
  for (std::size_t i = 0; i < one.y.size(); ++i)
    EXPECT_EQ(std::memcmp(&phased.y[i], &one.y[i], sizeof(double)), 0)
        << name << " y[" << i << "]: phased " << phased.y[i] << ", mapping 1 " << one.y[i];
}

TEST(ChemPhasedMapping, H2O2GivesMapping1Bits) {
  check_phased(read_yaml_mechanism(test::mechanisms / "h2o2.yaml"), "h2o2");
}

// GRI-Mech 3.0's kernels take PoCL long to build: labelled slow.
TEST(ChemPhasedMappingSlow, Gri30GivesMapping1Bits) { check_phased(test::gri30_yaml(), "gri30"); }

}  // namespace
}  // namespace hetflow::chem
