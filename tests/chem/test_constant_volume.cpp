// The constant-volume adiabatic reactor (ConstantVolumeReactor; reactor_system with
// ReactorKind::constant_volume): the host RHS against Cantera's IdealGasReactor, the exact Jacobian
// against central differences, the device's rhs() and jac() against the host and rhs_group/jac_group
// against them bit for bit, ignition delays against Cantera, and the internal energy through ignition.
#include <gtest/gtest.h>

#include <cstdio>

#include "chem_test_util.hpp"
#include "group_test_util.hpp"
#include "hetflow/chem/kinetics.hpp"
#include "hetflow/chem/reactor.hpp"
#include "hetflow/chem/reactor_source.hpp"
#include "hetflow/chem/thermo.hpp"
#include "ignition_test_util.hpp"
#include "jacobian_test_util.hpp"
#include "reactor_test_util.hpp"
#include "test_devices.hpp"

namespace hetflow::chem {
namespace {

constexpr ReactorKind volume = ReactorKind::constant_volume;

Mechanism h2o2() { return read_yaml_mechanism(test::mechanisms / "h2o2.yaml"); }
Mechanism features() { return read_chemkin(test::test_data / "features.inp", test::mechanisms / "gri30_thermo.dat"); }

// A state y = (Y, T) and its density.
struct VolumeState {
  std::vector<double> y;
  double density = 0.0;
};

// The 8 states of constant_volume_reference.json for one mechanism, with Cantera's dY/dt and dT/dt.
struct Reference {
  std::vector<VolumeState> states;
  std::vector<std::vector<double>> dydt;  // mechanism order
  std::vector<double> dtdt;
};

Reference reference(const Mechanism& m, const std::string& name) {
  const nlohmann::json table = test::reference("constant_volume")["mechanisms"][name];
  const auto names = table["species"].get<std::vector<std::string>>();
  Reference out;
  for (const auto& s : table["states"]) {
    out.states.push_back({test::reactor_state(m, names, s["Y"].get<std::vector<double>>(), s["T"].get<double>()),
                          s["rho"].get<double>()});
    out.dydt.push_back(test::in_mechanism_order(m, names, s["dYdt"].get<std::vector<double>>()));
    out.dtdt.push_back(s["dTdt"].get<double>());
  }
  return out;
}

// 1. The host RHS against IdealGasReactor's to 1e-10 relative, as test_reference.cpp judges the
// constant-pressure one (dY/dt below 1e-10 of the largest absolute).
void check_rhs(const Mechanism& m, const std::string& name) {
  const Reference ref = reference(m, name);
  ASSERT_EQ(ref.states.size(), 8u);
  const Kinetics kinetics(m);
  double worst = 0.0;
  for (std::size_t i = 0; i < ref.states.size(); ++i) {
    const ConstantVolumeReactor reactor(kinetics, ref.states[i].density);
    std::vector<double> f(reactor.size());
    reactor.rhs(ref.states[i].y, f);
    const double dtdt = f.back();
    f.pop_back();
    const std::string at = name + " state " + std::to_string(i);
    worst =
        std::max(worst, test::expect_close(at + " dY/dt", f, ref.dydt[i], 1e-10, 1e-10 * test::largest(ref.dydt[i])));
    worst = std::max(worst, test::expect_close(at + " dT/dt", {dtdt}, {ref.dtdt[i]}, 1e-10));
  }
  std::printf("%s: worst relative difference constant-volume RHS vs Cantera IdealGasReactor %.2e\n", name.c_str(),
              worst);
}

TEST(ChemConstantVolume, Gri30RhsMatchesCantera) { check_rhs(test::gri30_yaml(), "gri30"); }
TEST(ChemConstantVolume, H2O2RhsMatchesCantera) { check_rhs(h2o2(), "h2o2"); }
TEST(ChemConstantVolume, ChemkinFeatureFixtureRhsMatchesCantera) { check_rhs(features(), "features"); }

// 2. The Jacobian against central differences with a Richardson step (test_jacobian.cpp), to 1e-6 of
// each column's largest entry. States: the reference compositions at 1100-2500 K with the densities of
// 1.3, 5, 20 and 2.5 atm (off the fixture's PLOG pressures, where k has a kink in p), with and without
// every third species at zero; for the fixture also 0.005 and 200 atm, outside its PLOG table.
std::vector<VolumeState> jacobian_states(const Mechanism& m, const std::string& name, bool with_zeros) {
  const Reference ref = reference(m, name);
  const double temperatures[] = {1100.0, 1500.0, 2000.0, 2500.0}, atm[] = {1.3, 5.0, 20.0, 2.5};
  const std::vector<double> w = m.molecular_weights();
  std::vector<VolumeState> out;
  auto add = [&](std::vector<double> y, double p) {
    const std::span<const double> mass(y.data(), y.size() - 1);
    out.push_back({y, density(y.back(), p, mass, w)});
  };
  for (std::size_t i = 0; i < 4; ++i) {
    std::vector<double> y = ref.states[(2 * i + 1) % ref.states.size()].y;
    y.back() = temperatures[i];
    add(y, atm[i] * one_atm);
    if (!with_zeros) continue;
    double sum = 0.0;
    for (std::size_t k = 0; k + 1 < y.size(); ++k) {
      if (k % 3 == i % 3) y[k] = 0.0;
      sum += y[k];
    }
    for (std::size_t k = 0; k + 1 < y.size(); ++k) y[k] /= sum;
    add(y, atm[i] * one_atm);
  }
  if (!with_zeros) {
    add(out[0].y, 0.005 * one_atm);
    add(out[1].y, 200.0 * one_atm);
  }
  return out;
}

void check_jacobian(const Mechanism& m, const std::string& name, bool with_zeros) {
  const std::vector<VolumeState> states = jacobian_states(m, name, with_zeros);
  ASSERT_EQ(states.size(), with_zeros ? 8u : 6u);
  const Kinetics kinetics(m);
  double worst = 0.0;
  for (std::size_t s = 0; s < states.size(); ++s) {
    const ConstantVolumeReactor reactor(kinetics, states[s].density);
    const double e = test::expect_jacobian_matches_differences(
        reactor, states[s].y, 1e-6,
        name + " state " + std::to_string(s) + " (T = " + std::to_string(states[s].y.back()) +
            " K, p = " + std::to_string(reactor.pressure(states[s].y)) + " Pa)");
    worst = std::max(worst, e);
  }
  std::printf(
      "%s: worst constant-volume analytic vs difference Jacobian entry, relative to its column's largest: %.2e\n",
      name.c_str(), worst);
}

TEST(ChemConstantVolume, Gri30JacobianMatchesFiniteDifferences) { check_jacobian(test::gri30_yaml(), "gri30", true); }
TEST(ChemConstantVolume, H2O2JacobianMatchesFiniteDifferences) { check_jacobian(h2o2(), "h2o2", true); }
TEST(ChemConstantVolume, ChemkinFeatureFixtureJacobianMatchesFiniteDifferences) {
  check_jacobian(features(), "features", false);
}

// ∂ω̇/∂ln p of the fixture's PLOG reaction alone against central differences in ln p (steps 1e-3 and
// 5e-4, Richardson), between and outside its tabulated pressures, to 1e-7 of the largest entry.
TEST(ChemConstantVolume, PlogPressureSlopeMatchesFiniteDifferences) {
  const Mechanism full = features();
  std::size_t plogs = 0;
  double worst = 0.0;
  for (const Reaction& r : full.reactions) {
    if (r.kind != RateKind::plog) continue;
    ++plogs;
    Mechanism one = full;
    one.reactions = {r};
    const Kinetics kinetics(one);
    const std::vector<double> c(full.species.size(), 5.0);
    for (const double T : {900.0, 1700.0}) {
      for (const double atm : {0.003, 0.05, 0.4, 3.0, 30.0, 400.0}) {
        const double lnp = std::log(atm * one_atm);
        const std::vector<double> exact = kinetics.production_rate_jacobian(T, atm * one_atm, c).dwdlnp;
        auto at = [&](double d) { return kinetics.production_rates(T, std::exp(lnp + d), c); };
        const double h = 1e-3;
        const auto a = at(h), b = at(-h), a2 = at(h / 2), b2 = at(-h / 2);
        double scale = 0.0;
        std::vector<double> want(exact.size());
        for (std::size_t k = 0; k < want.size(); ++k) {
          want[k] = (4 * (a2[k] - b2[k]) / h - (a[k] - b[k]) / (2 * h)) / 3;
          scale = std::max(scale, std::abs(want[k]));
        }
        const bool outside = atm < 0.01 || atm > 100.0;
        for (std::size_t k = 0; k < want.size(); ++k) {
          const double e = std::abs(exact[k] - want[k]) / (outside ? 1.0 : scale);
          worst = std::max(worst, e);
          EXPECT_LE(e, outside ? 0.0 : 1e-7)
              << r.equation << " T = " << T << " K, p = " << atm << " atm, species " << k;
        }
      }
    }
  }
  EXPECT_EQ(plogs, 1u);
  std::printf("features PLOG: worst d wdot/d ln p against differences, relative to the largest: %.2e\n", worst);
}

// 3. The device: generated rhs() and jac() against the host (1e-11 relative, 1e-12 of each column's
// largest, as test_device_rhs.cpp and test_device_jacobian.cpp), and rhs_group/jac_group against them
// bit for bit; a group-only mechanism (above 64 species) against the host.

void check_device(const Mechanism& m, const std::string& name) {
  const Reference ref = reference(m, name);
  ASSERT_EQ(ref.states.size(), 8u);
  test::StackedStates stacked;  // `pressures` holds the densities, the system's parameter
  for (const VolumeState& s : ref.states) {
    stacked.y.insert(stacked.y.end(), s.y.begin(), s.y.end());
    stacked.pressures.push_back(s.density);
  }
  const core::DeviceSet devices = hetflow::test::test_device();
  const ode::System system = reactor_system(m, ReactorJacobian::analytic, volume);
  const auto n = static_cast<std::size_t>(system.n);
  const std::vector<double> group_f = test::run_group(devices, system, stacked, false, name + " cv");
  const std::vector<double> group_j = test::run_group(devices, system, stacked, true, name + " cv");
  std::vector<double> device_f = group_f, device_j = group_j;
  if (!system.group_only) {
    device_f = test::run_generated(devices, system, stacked, false, name);
    device_j = test::run_generated(devices, system, stacked, true, name);
    test::expect_same_bits(group_f, device_f,
                           [&](std::size_t i) { return name + " rhs_group value " + std::to_string(i); });
    test::expect_same_bits(group_j, device_j,
                           [&](std::size_t i) { return name + " jac_group value " + std::to_string(i); });
  }
  const Kinetics kinetics(m);
  double worst_f = 0.0, worst_j = 0.0;
  for (std::size_t i = 0; i < ref.states.size(); ++i) {
    const ConstantVolumeReactor reactor(kinetics, ref.states[i].density);
    std::vector<double> f(n), j(n * n);
    reactor.rhs(ref.states[i].y, f);
    reactor.jacobian(ref.states[i].y, j);
    const std::vector<double> got_f(device_f.begin() + static_cast<std::ptrdiff_t>(i * n),
                                    device_f.begin() + static_cast<std::ptrdiff_t>((i + 1) * n));
    const std::vector<double> got_j(device_j.begin() + static_cast<std::ptrdiff_t>(i * n * n),
                                    device_j.begin() + static_cast<std::ptrdiff_t>((i + 1) * n * n));
    const std::string at = name + " state " + std::to_string(i);
    const std::vector<double> host_y(f.begin(), f.end() - 1), got_y(got_f.begin(), got_f.end() - 1);
    worst_f = std::max(worst_f, test::expect_close(at + " dY/dt", got_y, host_y, 1e-11, 1e-10 * test::largest(host_y)));
    worst_f = std::max(worst_f, test::expect_close(at + " dT/dt", {got_f.back()}, {f.back()}, 1e-11));
    const double t0 = ref.states[i].y.back();
    const double e = test::worst_column_error(test::scaled(got_j, t0), test::scaled(j, t0), n);
    EXPECT_LE(e, 1e-12) << at << " Jacobian";
    worst_j = std::max(worst_j, e);
  }
  std::printf("%s constant volume on %s (%s): worst device vs host RHS %.2e, Jacobian %.2e\n", name.c_str(),
              devices.device(0).label().c_str(), system.group_only ? "group-only" : "generated and group", worst_f,
              worst_j);
}

TEST(ChemConstantVolumeDevice, H2O2MatchesHost) { check_device(h2o2(), "h2o2"); }
TEST(ChemConstantVolumeDevice, ChemkinFeatureFixtureMatchesHost) { check_device(features(), "features"); }
TEST(ChemConstantVolumeDeviceSlow, Gri30MatchesHost) { check_device(test::gri30_yaml(), "gri30"); }
TEST(ChemConstantVolumeDevice, DodecaneReitzGroupOnlyMatchesHost) {
  ASSERT_TRUE(reactor_system(test::dodecane_reitz(), ReactorJacobian::analytic, volume).group_only);
  Mechanism m = test::dodecane_reitz();
  // The dodecane states come from its constant-pressure table: their densities follow from T, p and Y.
  const nlohmann::json table = test::reference("dodecane_reitz");
  const auto names = table["species"].get<std::vector<std::string>>();
  const std::vector<double> w = m.molecular_weights();
  test::StackedStates stacked;
  std::vector<VolumeState> states;
  for (const auto& s : table["states"]) {
    const std::vector<double> y =
        test::reactor_state(m, names, s["Y"].get<std::vector<double>>(), s["T"].get<double>());
    states.push_back({y, density(y.back(), s["p"].get<double>(), std::span<const double>(y.data(), y.size() - 1), w)});
    stacked.y.insert(stacked.y.end(), y.begin(), y.end());
    stacked.pressures.push_back(states.back().density);
  }
  ASSERT_EQ(states.size(), 8u);
  const core::DeviceSet devices = hetflow::test::test_device();
  const ode::System system = reactor_system(m, ReactorJacobian::analytic, volume);
  const std::size_t n = m.species.size() + 1;
  const std::vector<double> f = test::run_group(devices, system, stacked, false, "dodecane cv");
  const std::vector<double> j = test::run_group(devices, system, stacked, true, "dodecane cv");
  const std::vector<double> low_rank =
      test::low_rank_jacobians(test::run_group(devices, system, stacked, true, "dodecane cv", true), system);
  const Kinetics kinetics(m);
  double worst_f = 0.0, worst_j = 0.0;
  for (std::size_t i = 0; i < states.size(); ++i) {
    const ConstantVolumeReactor reactor(kinetics, states[i].density);
    std::vector<double> hf(n), hj(n * n);
    reactor.rhs(states[i].y, hf);
    reactor.jacobian(states[i].y, hj);
    const std::vector<double> gf(f.begin() + static_cast<std::ptrdiff_t>(i * n),
                                 f.begin() + static_cast<std::ptrdiff_t>((i + 1) * n));
    const std::vector<double> gj(j.begin() + static_cast<std::ptrdiff_t>(i * n * n),
                                 j.begin() + static_cast<std::ptrdiff_t>((i + 1) * n * n));
    worst_f = std::max(
        worst_f, test::expect_close("dodecane state " + std::to_string(i), gf, hf, 1e-11, 1e-10 * test::largest(hf)));
    const std::vector<double> gl(low_rank.begin() + static_cast<std::ptrdiff_t>(i * n * n),
                                 low_rank.begin() + static_cast<std::ptrdiff_t>((i + 1) * n * n));
    const double e =
        test::worst_column_error(test::scaled(gj, states[i].y.back()), test::scaled(hj, states[i].y.back()), n);
    const double e_low =
        test::worst_column_error(test::scaled(gl, states[i].y.back()), test::scaled(hj, states[i].y.back()), n);
    EXPECT_LE(e, 1e-12) << "dodecane state " << i << " Jacobian";
    EXPECT_LE(e_low, 1e-12) << "dodecane state " << i << " Jacobian as S + u vT";
    worst_j = std::max({worst_j, e, e_low});
  }
  std::printf("dodecane constant volume (group-only): worst device vs host RHS %.2e, Jacobian %.2e\n", worst_f,
              worst_j);
}

// 4. Ignition delays against Cantera's IdealGasReactor (1 %, as the constant-pressure ones), and the
// mixture's internal energy through ignition.
TEST(ChemConstantVolumeIgnition, H2AirDelaysMatchCantera) {
  test::IgnitionCase h2(h2o2(), "h2_ignition_constant_volume", "H2/air constant volume", volume);
  ASSERT_EQ(h2.ref["cases"].size(), 2u);
  h2.check(1000.0, 0.01);
  h2.check(1200.0, 0.01);
}

TEST(ChemConstantVolumeIgnition, GriCH4Air1600KDelayMatchesCantera) {
  test::IgnitionCase(test::gri30_yaml(), "gri30_ignition_constant_volume", "GRI 3.0 CH4/air constant volume", volume)
      .check(1600.0, 0.01);
}

// u = Σ Y_k u_k / W_k: adiabatic at fixed volume, so it is a constant of the exact ODE; RADAU5 at rtol
// 1e-10 keeps it to the integration error, required within 1e-10 of c_v T through ignition as
// test_invariants.cpp requires of h at constant pressure.
double internal_energy(const Mechanism& m, std::span<const double> y) {
  const double T = y.back();
  const SpeciesThermo thermo = species_thermo(m, T);
  double u = 0.0;
  for (std::size_t k = 0; k < m.species.size(); ++k)
    u += y[k] * (thermo.h[k] - gas_constant * T) / m.species[k].molecular_weight;
  return u;
}

TEST(ChemConstantVolumeIgnition, InternalEnergyStaysConstant) {
  test::IgnitionCase h2(h2o2(), "h2_ignition_constant_volume", "H2/air constant volume", volume);
  // T0 = 1200 K: from 1000 K the state would cross the NASA-7 switch, where u jumps by the polynomials'
  // mismatch.
  const auto& c = h2.ref["cases"][1];
  ASSERT_EQ(c["T0"].get<double>(), 1200.0);
  const std::vector<double> y0 = test::reactor_state(h2.mechanism, h2.ref["species"].get<std::vector<std::string>>(),
                                                     c["Y"].get<std::vector<double>>(), c["T0"].get<double>());
  const double u0 = internal_energy(h2.mechanism, y0);
  const std::vector<double> times = {1e-7, 1e-6, 1e-5, 4e-5, 4.4e-5, 4.5e-5, 5e-5, 1e-4, 1e-3, 1e-2};
  const auto states = test::states_at(*h2.solver, y0, c["rho"].get<double>(), times);
  ASSERT_EQ(states.size(), times.size());
  double worst = 0.0;
  for (std::size_t i = 0; i < states.size(); ++i) {
    // c_v T of the state: the scale u moves on.
    double cv = 0.0;
    const SpeciesThermo thermo = species_thermo(h2.mechanism, states[i].back());
    for (std::size_t k = 0; k + 1 < states[i].size(); ++k)
      cv += states[i][k] * (thermo.cp[k] - gas_constant) / h2.mechanism.species[k].molecular_weight;
    const double e = std::abs(internal_energy(h2.mechanism, states[i]) - u0) / (cv * states[i].back());
    worst = std::max(worst, e);
    EXPECT_LE(e, 1e-10) << "t = " << times[i] << " s, T = " << states[i].back() << " K";
  }
  EXPECT_GT(states.back().back(), c["T0"].get<double>() + 1000.0);  // it ignited
  std::printf("H2/air constant volume: worst |u - u0| / (c_v T) through ignition %.2e (final T %.2f K)\n", worst,
              states.back().back());
}

}  // namespace
}  // namespace hetflow::chem
