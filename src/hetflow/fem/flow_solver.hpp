#pragma once
#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "hetflow/core/device_set.hpp"
#include "hetflow/core/link.hpp"
#include "hetflow/core/partition.hpp"
#include "hetflow/core/thread_link.hpp"
#include "hetflow/fem/flow_part.hpp"
#include "hetflow/fem/node_halo.hpp"
#include "hetflow/fem/node_partition.hpp"

namespace hetflow::fem {

// The fractional-step solver (Rossi, Mossaiby & Idelsohn 2013; docs/fem.md) on one device, or split over
// several (docs/fem.md, "Several devices"): the nodes, in their locality order, are cut into contiguous
// ranges, one per device, each a FlowPart on its local problem (make_node_part) whose halo crosses
// through a core::Link. The parts of one process run on a thread each (core::ThreadLink); across
// processes (MPI) each process runs one part. Fields in and out are global, one entry per mesh node.
class FlowSolver {
 public:
  // The whole mesh on device `device` of the set. The mesh gives the node positions of error messages;
  // data is its edge data and must outlive the solver. The constraints are applied after every RK stage
  // and after the velocity correction.
  FlowSolver(const core::DeviceSet& devices, std::size_t device, const Mesh& mesh, const EdgeData& data,
             const FlowParameters& parameters, const BoundaryConstraints& constraints);
  // The mesh split over every device of the set, in shares by `distribution`; with `processes` (one
  // device per process, outliving the solver) over the devices of every process in rank order. Every
  // process passes the same mesh, data and constraints and calls every method but the accessors
  // collectively.
  FlowSolver(const core::DeviceSet& devices, const Mesh& mesh, const EdgeData& data, const FlowParameters& parameters,
             const BoundaryConstraints& constraints, core::Distribution distribution,
             core::Link* processes = nullptr);
  ~FlowSolver();
  FlowSolver(FlowSolver&&) noexcept;

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
  const FlowDiagnostics& diagnostics() const { return parts_.front().solver->diagnostics(); }
  double stable_dt(double courant) const;

  // New Dirichlet values (one per BoundaryConstraints::dirichlet_nodes, VelocityConstraints::
  // set_dirichlet_values) for the next steps, balanced first in a closed domain (balance_closed_flux);
  // throws core::Error for an imbalance beyond kMaxClosedFluxImbalance.
  void set_dirichlet_values(std::span<const Vec3> values);

  // One step of length dt; throws FlowError when the step fails (the state is then not usable).
  StepReport advance(double dt);

  long step() const { return parts_.front().solver->step(); }
  double time() const { return parts_.front().solver->time(); }
  std::size_t node_count() const { return positions_.size(); }
  // The parts of the whole run, in every process.
  std::size_t parts() const { return total_parts_; }

 private:
  struct Part {
    std::unique_ptr<NodePart> problem;  // none for the whole mesh on one device
    std::unique_ptr<NodeHalo> halo;
    std::unique_ptr<FlowPart> solver;
  };

  // Runs body(k) for every part of this process: on a thread each when there are several.
  void on_parts(const std::function<void(std::size_t)>& body);
  // The global field of which every part's first `owned` local values of `local` are the own share, with
  // `width` doubles per node.
  std::vector<double> gather(const std::function<std::vector<double>(const FlowPart&)>& local, std::size_t width) const;

  std::vector<Point> positions_;
  const EdgeData* data_;
  BoundaryConstraints constraints_;
  FlowParameters parameters_;
  core::Link* processes_ = nullptr;
  std::size_t total_parts_ = 1;
  std::unique_ptr<AmgHierarchy> amg_;  // a split run's pressure hierarchy, of the whole mesh
  std::unique_ptr<core::ThreadHub> hub_;
  std::vector<std::unique_ptr<core::ThreadLink>> links_;
  std::vector<Part> parts_;
};

}  // namespace hetflow::fem
