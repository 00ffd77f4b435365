#pragma once
#include <cmath>
#include <span>
#include <vector>

#include "hetflow/core/device_set.hpp"
#include "hetflow/core/link.hpp"
#include "hetflow/mrag/block_flow.hpp"
#include "hetflow/mrag/stiffened_gas.hpp"

namespace hetflow::test {

// A shock in air meeting a helium disc, on 4 × 4 roots of 8² cells up to level 2, outflow in x and walls in
// y: a small adapting run whose leaves, level jumps, flux corrections and ghost nodes all change as it
// goes, for the tests that split it over devices or processes.
inline mrag::FaceState shock_and_disc(double x, double y) {
  const mrag::StiffenedGas air{1.4, 0}, helium{1.67, 0};
  const bool inside = std::hypot(x - 0.5, y - 0.5) < 0.2, shocked = x < 0.15;
  const mrag::StiffenedGas& gas = inside ? helium : air;
  return {inside    ? 0.138
          : shocked ? 1.376
                    : 1.0,
          shocked ? 0.394 : 0.0,
          0.0,
          shocked ? 1.566 : 1.0,
          gas.big_gamma(),
          gas.big_pi()};
}

// The flow on the devices, split in shares by `weights` (one per device) when there are several, or over
// the processes of `processes`, with `scheme`'s fluxes.
inline mrag::BlockFlow shock_and_disc_flow(const core::DeviceSet& devices, core::Precision precision,
                                           std::vector<double> weights = {1}, core::Link* processes = nullptr,
                                           const mrag::SpatialScheme& scheme = {}) {
  return mrag::BlockFlow(devices, mrag::BlockTree(4, 4, 2), 8, mrag::sides(mrag::Edge::outflow, mrag::Edge::wall), 0.25,
                         mrag::TimeScheme::ssp_rk3, precision, scheme, weights, processes);
}

// Two adaptation passes of the initial state, then 12 steps at Courant 0.5 adapted every 4 as a run adapts,
// with the next step.
inline void run_shock_and_disc(mrag::BlockFlow& flow) {
  flow.set(shock_and_disc);
  for (int round = 0; round < 2; ++round) {
    flow.adapt(1e-3, 1e-4);
    flow.set(shock_and_disc);
  }
  for (int step = 0; step < 12; ++step) {
    if (step % 4 == 0) flow.adapt_with_next_step(1e-3, 1e-4);
    flow.step(flow.stable_dt(0.5));
  }
}

}  // namespace hetflow::test
