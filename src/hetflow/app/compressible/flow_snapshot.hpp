#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "hetflow/mrag/block_flow.hpp"
#include "hetflow/mrag/block_tree.hpp"

namespace hetflow::app {

// A flow's state as the outputs see it, read back once per output: its time, step, the tree's leaves
// and every cell's primitive state, leaf by leaf (cells x + s y, BlockFlow::cells' order).
struct FlowSnapshot {
  long step = 0;
  double time = 0;
  int block_size = 0;
  double root_size = 1;
  int roots_x = 1, roots_y = 1;
  std::vector<mrag::BlockKey> leaves;
  std::vector<mrag::BlockFlow::Cell> cells;

  double width() const { return roots_x * root_size; }
  double height() const { return roots_y * root_size; }
  int finest_level() const;
};

FlowSnapshot flow_snapshot(const mrag::BlockFlow& flow);

// γ = 1 + 1/Γ and p∞ = Π/(Γ + 1) of a cell's advected closure fields (mrag::StiffenedGas inverted).
double cell_gamma(const mrag::FaceState& s);
double cell_p_inf(const mrag::FaceState& s);

// The fields resampled onto the uniform grid of one level, nx × ny cells of size h, x fastest, j = 0 at
// y = 0: a finer leaf's cells averaged, a coarser leaf's cell repeated (no interpolation, so the
// picture shows the grid the solver holds).
struct UniformFields {
  std::size_t nx = 0, ny = 0;
  double h = 1;
  int level = 0;
  std::vector<double> rho, u, v, p, gamma, p_inf, leaf_level;

  std::size_t index(std::size_t i, std::size_t j) const { return i + nx * j; }
};

UniformFields uniform_fields(const FlowSnapshot& snapshot, int level);

}  // namespace hetflow::app
