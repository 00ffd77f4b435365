#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/fem/boundary_conditions.hpp"
#include "hetflow/fem/cg.hpp"
#include "hetflow/fem/device_edge_data.hpp"
#include "hetflow/fem/flow_state.hpp"
#include "hetflow/fem/mesh.hpp"
#include "hetflow/fem/momentum.hpp"
#include "hetflow/fem/momentum_step.hpp"
#include "hetflow/fem/pressure_step.hpp"
#include "hetflow/fem/spmv_tuning.hpp"
#include "hetflow/fem/step_diagnostics.hpp"
#include "hetflow/fem/velocity_constraints.hpp"

namespace hetflow::fem {

// The physics and numerics of a run (docs/fem.md, Time loop).
struct FlowParameters {
  MomentumParameters momentum;
  double theta = 0.5;  // the pressure-increment factor of both the pressure equation and the correction
  bool mass_correction = false;  // PressureParameters::mass_correction
  // The edge records' storage; FP32 halves the edge loops' traffic, the arithmetic stays FP64.
  core::Precision edge_precision = core::Precision::f64;
  // A step after which Δt times the stability rate (FlowDiagnostics) exceeds this has outrun the explicit
  // momentum scheme: the run stops there rather than go on with a field that is about to blow up.
  double max_courant = 2.0;
  CgOptions cg;
  SpmvShape spmv;
};

// A run that failed numerically: what() names the step, the reason and, where one node is to blame, the
// node and its position.
class FlowError : public core::Error {
 public:
  using core::Error::Error;
};

// What one step did.
struct StepReport {
  long step = 0;     // the step just completed, 1 for the first
  double time = 0;   // t after it
  double dt = 0;
  double courant = 0;  // Δt times the stability rate of the new field
  CgResult cg;
  FlowDiagnostics diagnostics;  // of the new field
};

// The fractional-step solver on one device (Rossi, Mossaiby & Idelsohn 2013; docs/fem.md): the state
// lives on the device; each advance() runs the RK4 momentum step, the pressure step and the velocity
// correction, then measures the new field and stops the run on a non-finite value, a failed pressure
// solve or a Courant number above FlowParameters::max_courant.
class FlowSolver {
 public:
  // The mesh gives the node positions of error messages; data is its edge data and must outlive the
  // solver. The constraints are applied after every RK stage and after the velocity correction.
  FlowSolver(const core::DeviceSet& devices, std::size_t device, const Mesh& mesh, const EdgeData& data,
             const FlowParameters& parameters, const BoundaryConstraints& constraints);

  // Uploads a state with one entry per node; the boundary conditions at the state's time are imposed on
  // it.
  void set_state(const FlowState& state);
  // The state at rest at t = 0: u = 0 and p = 0 before the boundary conditions, and ξ = ρ f, the gradient
  // of the hydrostatic pressure.
  FlowState rest_state() const;
  // Downloads the present state.
  FlowState state() const;
  std::vector<Vec3> velocity() const;
  std::vector<double> pressure() const;

  // The diagnostics of the present field, and the step it allows at a Courant number C: C / rate.
  const FlowDiagnostics& diagnostics() const { return diagnostics_; }
  double stable_dt(double courant) const;

  // New Dirichlet values (VelocityConstraints::set_dirichlet_values) for the next steps.
  void set_dirichlet_values(std::span<const Vec3> values);

  // One step of length dt; throws FlowError when the step fails (the state is then not usable).
  StepReport advance(double dt);

  long step() const { return step_; }
  double time() const { return time_; }
  std::size_t node_count() const { return mesh_nodes_.size(); }

 private:
  // Throws FlowError for the next step; `which` says how the node was picked ("first", "largest").
  [[noreturn]] void fail(const std::string& reason, std::size_t node, const char* which) const;
  // ", <which> at node N (x, y, z)", or nothing for a node out of range.
  std::string node_text(std::size_t node, const char* which) const;

  const core::Queue* queue_;
  std::vector<Point> mesh_nodes_;
  const EdgeData* data_;
  FlowParameters parameters_;
  BoundaryConstraints constraints_;
  DeviceEdgeData device_data_;
  VelocityConstraints velocity_constraints_;
  MomentumStep momentum_;
  PressureStep pressure_;
  StepDiagnostics measure_;
  core::Buffer<double> u_, u_hat_, u_next_, p_, xi_;
  FlowDiagnostics diagnostics_;
  double time_ = 0;
  long step_ = 0;
};

}  // namespace hetflow::fem
