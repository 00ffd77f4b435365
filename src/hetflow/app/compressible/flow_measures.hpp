#pragma once
#include <optional>
#include <string>
#include <vector>

#include "hetflow/app/compressible/flow_snapshot.hpp"
#include "hetflow/mrag/stiffened_gas.hpp"

namespace hetflow::app {

// Two materials whose mixture a cell's Γ (or Π, where their Γ agree) tells apart: Γ is linear in the
// volume fraction, so a cell holds more `tracked` than `other` where it is past the midpoint.
struct MaterialContrast {
  mrag::StiffenedGas other, tracked;

  // The tracked material's volume fraction in a cell, clamped to [0, 1].
  double fraction(const mrag::FaceState& s) const;
};

// What series.csv records per output.
struct FlowMeasures {
  long step = 0;
  double time = 0;
  std::size_t leaves = 0, cells = 0;
  // Integrals over the domain: ρ, ρu, ρv, ρE and Γ times the cell area.
  double mass = 0, momentum_x = 0, momentum_y = 0, energy = 0, gamma_integral = 0;
  double min_p = 0, max_p = 0;
  // The tracked material's extent along x: the least and largest x of cells it fills more than half;
  // NaN without a tracked material or where it fills none.
  double interface_x_min = 0, interface_x_max = 0;
  // The largest x where two neighbouring cells of a row of the finest uniform grid differ in pressure by
  // more than the threshold times the smaller p + p∞: the leading shock of a flow moving along +x. NaN
  // where no pair does.
  double shock_x = 0;

  static std::vector<std::string> columns();
  std::vector<double> row() const;
};

FlowMeasures measure_flow(const FlowSnapshot& snapshot, const UniformFields& finest,
                          const std::optional<MaterialContrast>& contrast, double shock_threshold);

}  // namespace hetflow::app
