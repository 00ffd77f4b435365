#pragma once
#include <vector>

#include "hetflow/fem/edge_operators.hpp"

namespace hetflow::fem {

// Everything the next fractional step depends on: with it, a restarted run repeats the uninterrupted one
// bit for bit (docs/fem.md, Checkpoints). The projection ξ is the last step's lumped projection of ∇p,
// which the next pressure equation's stabilisation term uses.
struct FlowState {
  std::vector<Vec3> velocity;
  std::vector<double> pressure;
  std::vector<Vec3> projection;
  double time = 0;
  long step = 0;
};

}  // namespace hetflow::fem
