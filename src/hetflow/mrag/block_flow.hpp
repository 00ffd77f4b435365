#pragma once
#include <cstddef>
#include <functional>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/mrag/block_rhs.hpp"
#include "hetflow/mrag/hlle_flux.hpp"

namespace hetflow::mrag {

// A flow on a fixed tree of blocks on one device, FP64: the leaves' conserved fields (BlockRhs's layout)
// advanced by the three-stage SSP Runge–Kutta scheme at a CFL time step (docs/mrag.md, Time integration).
class BlockFlow {
 public:
  BlockFlow(const core::Queue& queue, const BlockTree& tree, int s, Edge x_edge, Edge y_edge, double root_size);

  // Sets every cell from `initial`(x, y) at its centre, a primitive state with un = u and ut = v.
  void set(const std::function<FaceState(double, double)>& initial);
  // cfl over the largest (|u| + |v| + 2c)/h. Throws core::Error when a cell holds a non-finite state,
  // ρ ≤ 0 or a negative c² (naming the time).
  double stable_dt(double cfl);
  void step(double dt);

  double time() const { return time_; }
  // Every cell's primitive state and centre, leaf by leaf, cells x + s y.
  struct Cell {
    double x = 0, y = 0, h = 0;
    FaceState state;
  };
  std::vector<Cell> cells() const;

 private:
  const core::Queue& queue_;
  BlockTree tree_;
  int s_;
  double root_size_;
  BlockRhs rhs_;
  core::Buffer<double> q_, q0_, dq_, partial_;
  core::Kernel stage_, max_rate_;
  core::NDRange global_, local_;
  double time_ = 0;
};

}  // namespace hetflow::mrag
