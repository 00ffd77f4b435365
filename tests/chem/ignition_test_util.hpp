#pragma once
// Ignition delays of a mechanism's constant-pressure (or constant-volume) reactor, integrated by
// ode::Radau5 on the test device, against the delays of Cantera's IdealGasConstPressureReactor (or
// IdealGasReactor) in a reference table (scripts/chem_reference.py: rtol 1e-13, atol 1e-20, delay
// bisected to 1e-12). Delay = first time T reaches T0 + the table's rise.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>

#include "reactor_test_util.hpp"
#include "test_devices.hpp"

namespace hetflow::chem::test {

// RADAU5 at rtol 1e-10 against Cantera's CVODES at 1e-13: the delays differ by integration error plus the
// error of locating the crossing. first_crossing splits its bracket 3 times into 16 from a grid of ratio
// 10^(1/3), so it ends 1.15 t / 16^3 = 2.8e-4 t wide, and interpolating T linearly inside it errs by a
// small part of that; sampled_crossing's bracket is narrower still. A kinetics or thermo error shifts a
// delay by percents.
struct IgnitionCase {
  Mechanism mechanism;
  nlohmann::json ref;
  std::string label;
  ReactorKind kind;
  core::DeviceSet devices = hetflow::test::test_device();
  std::unique_ptr<ode::Radau5> solver;

  static ode::Options tight() {
    ode::Options options;
    options.rtol = {1e-10};
    options.atol = {1e-14};
    options.h0 = 1e-10;
    return options;
  }

  IgnitionCase(Mechanism m, const std::string& reference_name, std::string what,
               ReactorKind reactor = ReactorKind::constant_pressure, ode::Options options = tight())
      : mechanism(std::move(m)), ref(reference(reference_name)), label(std::move(what)), kind(reactor) {
    solver = std::make_unique<ode::Radau5>(devices, reactor_system(mechanism, ReactorJacobian::analytic, kind), options);
  }

  // The delay at T0 within `tolerance` (relative) of the table's: by first_crossing, or with a window
  // [0, sampled_window] by sampled_crossing (1000 samples a pass, by default two passes after the first,
  // so the bracket ends 1e-9 of the window wide).
  void check(double T0, double tolerance, double sampled_window = 0.0, int passes = 2) {
    const auto names = ref["species"].get<std::vector<std::string>>();
    for (const auto& c : ref["cases"]) {
      if (c["T0"].get<double>() != T0) continue;
      const auto start = std::chrono::steady_clock::now();
      const std::vector<double> y0 = reactor_state(mechanism, names, c["Y"].get<std::vector<double>>(), T0);
      const double target = T0 + ref["rise"].get<double>();
      std::vector<double> bracket;
      // The system's parameter: the pressure, or at constant volume the density.
      const double p = c[kind == ReactorKind::constant_volume ? "rho" : "p"].get<double>();
      const double delay = sampled_window > 0.0
                               ? sampled_crossing(*solver, y0, p, target, sampled_window, 1000, passes, &bracket)
                               : first_crossing(*solver, y0, p, target, 1e-6, 1.0, 18, 3, &bracket);
      const double want = c["delay"].get<double>();
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::printf("%s T0 = %.0f K, p = %.3g Pa on %s: ignition delay %.9e s, Cantera %.9e s, relative difference "
                  "%.2e (final bracket %.2e s wide, %.2f s)\n",
                  label.c_str(), T0, c["p"].get<double>(), devices.device(0).label().c_str(), delay, want,
                  std::abs(delay - want) / want, bracket[2] - bracket[0], seconds);
      EXPECT_NEAR(delay, want, tolerance * want) << label << " T0 = " << T0;
      return;
    }
    ADD_FAILURE() << "no reference case for T0 = " << T0;
  }
};

}  // namespace hetflow::chem::test
