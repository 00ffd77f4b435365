#pragma once
#include <cstddef>
#include <limits>
#include <span>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/fem/device_edge_data.hpp"
#include "hetflow/fem/edge_operators.hpp"
#include "hetflow/fem/node_launch.hpp"

namespace hetflow::fem {

// What the time loop learns about a flow field after each step (docs/fem.md, Time loop).
struct FlowDiagnostics {
  double kinetic_energy = 0;  // ½ Σ M_I |u_I|²
  double divergence = 0;      // sqrt(Σ D(u)_I² / M_I): the L2 norm of the lumped projection of ∇·u
  // max_I (2 max(|u_I|, max_J |u_I − u_J|) / h_I + 4ν / h_I²), h_I the node's least tet height: the
  // stable step is Δt = C / rate for a Courant number C (the paper's Kratos source's rule).
  double stability_rate = 0;
  double max_speed = 0;
  std::size_t bad_nodes = 0;  // nodes whose velocity, pressure or divergence is not finite
  std::size_t first_bad = 0;  // the least index of those; the node count when there is none
};

// Host reference of the diagnostics, for the tests. u has one vector and p one value per node.
FlowDiagnostics flow_diagnostics(const EdgeData& data, std::span<const Vec3> u, std::span<const double> p,
                                 double viscosity);

// The stability rate of each node (FlowDiagnostics::stability_rate is their largest): the host finds
// the node that limits or breaks a step with it.
std::vector<double> stability_rates(const EdgeData& data, std::span<const Vec3> u, double viscosity);

// The diagnostics on the device (fem_diagnostics.cl): one edge loop writes each work-group's partials,
// a second kernel combines them, and read() reads back the six totals.
class StepDiagnostics {
 public:
  // Measures the first `rows` nodes (a part's own, "Several devices" in docs/fem.md); the fields hold
  // every node of `data`. first_bad is `rows` when none is bad.
  StepDiagnostics(const core::DeviceSet& devices, std::size_t device, const DeviceEdgeData& data, double viscosity,
                  std::size_t rows = std::numeric_limits<std::size_t>::max());

  // enqueue() then read().
  FlowDiagnostics measure(const core::Buffer<double>& u, const core::Buffer<double>& p);

  // Enqueues both kernels after the queue's work on u and p, without waiting: the benchmark times the
  // kernels apart from the read.
  void enqueue(const core::Buffer<double>& u, const core::Buffer<double>& p);

  // Waits for the last enqueue() and reads its six totals.
  FlowDiagnostics read() const;

 private:
  NodeLaunch launch_;
  std::size_t rows_;
  core::Buffer<double> partial_, total_;
  core::Kernel kernel_, total_kernel_;
};

}  // namespace hetflow::fem
