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
#include "hetflow/fem/node_halo.hpp"
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
  // The pressure CG's matrix and vectors (PressureStep); FP32 needs a tolerance FP32 reaches (≥ 1e-6).
  core::Precision cg_precision = core::Precision::f64;
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

// The fractional-step solver on one device (Rossi, Mossaiby & Idelsohn 2013; docs/fem.md), for the whole
// mesh or, with a NodeHalo, for one part of a run split over several devices (FlowSolver drives the
// parts): the state lives on the device; each advance() runs the RK4 momentum step, the pressure step and
// the velocity correction, then measures the new field and stops the run on a non-finite value, a failed
// pressure solve or a Courant number above FlowParameters::max_courant. Node indices are local (the
// part's own nodes, then its halo); messages and diagnostics name global nodes. With a halo every method
// but the accessors is collective, and every part reports the same diagnostics and failures.
class FlowPart {
 public:
  // `positions` are the global mesh's nodes, for messages; `data` and `constraints` the problem (the
  // whole mesh's, or the part's local one, NodePart) and must outlive the part, as must the halo. A part's
  // AMG is `whole_amg`, the whole mesh's pressure hierarchy (PressureStep).
  FlowPart(const core::DeviceSet& devices, std::size_t device, std::span<const Point> positions, const EdgeData& data,
           const FlowParameters& parameters, const BoundaryConstraints& constraints, NodeHalo* halo = nullptr,
           const AmgHierarchy* whole_amg = nullptr);

  // Uploads a state with one entry per local node; the boundary conditions at the state's time are
  // imposed on it.
  void set_state(const FlowState& state);
  // Downloads the local state.
  FlowState state() const;
  std::vector<Vec3> velocity() const;
  std::vector<double> pressure() const;

  // The diagnostics of the present field (of all parts).
  const FlowDiagnostics& diagnostics() const { return diagnostics_; }

  // New Dirichlet values, one per local Dirichlet node (VelocityConstraints::set_dirichlet_values).
  void set_dirichlet_values(std::span<const Vec3> values);

  // One step of length dt; throws FlowError when the step fails (the state is then not usable).
  StepReport advance(double dt);

  long step() const { return step_; }
  double time() const { return time_; }
  std::size_t local_count() const { return data_->node_count(); }
  // The nodes this part owns: the first of the local ones.
  std::size_t owned() const { return halo_ ? halo_->owned() : local_count(); }

 private:
  // The global index of a local node.
  std::size_t global(std::size_t local) const { return halo_ ? halo_->part().global(local) : local; }
  // The diagnostics of u and p, combined over the parts.
  FlowDiagnostics measure(const core::Buffer<double>& u, const core::Buffer<double>& p);
  // The global node whose stability rate in u is the largest (the least index among equals).
  std::size_t fastest_node(const core::Buffer<double>& u);
  // Throws FlowError for the next step; `which` says how the global node was picked ("first", "largest").
  [[noreturn]] void fail(const std::string& reason, std::size_t node, const char* which) const;
  // ", <which> at node N (x, y, z)", or nothing for a node out of range.
  std::string node_text(std::size_t node, const char* which) const;

  const core::Queue* queue_;
  std::span<const Point> positions_;
  const EdgeData* data_;
  FlowParameters parameters_;
  BoundaryConstraints constraints_;
  NodeHalo* halo_;
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
