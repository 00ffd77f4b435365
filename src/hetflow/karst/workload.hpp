#pragma once
#include <cstddef>
#include <vector>

#include "hetflow/karst/model.hpp"
#include "hetflow/karst/series.hpp"

namespace hetflow::karst {

// The synthetic work the benchmark and the autotuner time the device solver on.

// A storm pulse over one transit time t* in [0, 1], 201 samples: base + peak exp(-((t - at) / 0.15)^2).
// Velocity storm(1, 1, 0.3) (up to 2 V̄) and inlet storm(1, 0.4, 0.35) keep the water matrix diagonally
// dominant at dt* = 1e-3 with N = 1000.
Series storm(double base, double peak, double at);

// `count` parameter sets spread over the thesis's inversion box (Pe [1900, 2050], St [0.75, 20], Theta
// [0.1, 6]) by additive recurrences, as an inversion's stencils and line searches spread them.
std::vector<KarstParameters> spread_sets(std::size_t count);

}  // namespace hetflow::karst
