#pragma once
#include <cstddef>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/core/kernel.hpp"

namespace hetflow::chem {

// The flamelet's diffusion term (chi/2) d^2u/dz^2 at the interior nodes i = 1..N of a z-grid, by the
// three-point difference of a non-uniform grid:
//   (L u)_i = a_i u_{i-1} - (a_i + c_i) u_i + c_i u_{i+1},
//   a_i = chi_i / (h_{i-1} (h_{i-1} + h_i)),  c_i = chi_i / (h_i (h_{i-1} + h_i)),  h_i = z_{i+1} - z_i.
// lower[i - 1] = a_i and upper[i - 1] = c_i.
struct DiffusionOperator {
  std::vector<double> lower, upper;
};
// z and chi at every node, boundaries included. Throws core::Error unless z rises strictly and the sizes agree.
DiffusionOperator flamelet_diffusion_operator(const std::vector<double>& z, const std::vector<double>& chi);

// The factors of (I - h L) that Thomas' algorithm needs (flamelet_diffusion.cl): lower (-h a_i), modified
// upper c'_i and inverse pivots, N values each.
std::vector<double> thomas_factors(const DiffusionOperator& op, double h);

// The diffusion sub-step du/dt = L u of every component of a flamelet state on one device
// (flamelet_diffusion.cl): Richardson-extrapolated backward Euler, second order and L-stable, with the
// boundary nodes held. The state stays node-major, K + 1 components per node, as the reactors take it.
class FlameletDiffusion {
 public:
  FlameletDiffusion(const core::DeviceSet& devices, std::size_t device, std::size_t points, std::size_t components);

  void set_operator(DiffusionOperator op);
  // Advances `state` ((points + 2) x components values) by dt in place.
  void advance(std::vector<double>& state, double dt);

 private:
  const core::Queue* queue_;
  core::Kernel kernel_;
  std::size_t points_, components_;
  DiffusionOperator op_;
  core::Buffer<double> state_, scratch_, factors_;
  double factored_dt_ = 0.0;  // the dt whose factors are on the device; 0: none
};

}  // namespace hetflow::chem
