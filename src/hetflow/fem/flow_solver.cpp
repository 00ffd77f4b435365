#include "hetflow/fem/flow_solver.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "hetflow/core/error.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/fem/pressure_stiffness.hpp"
#include "hetflow/fem/pressure_system.hpp"

namespace hetflow::fem {
namespace {

// A node's state as the doubles that cross between processes: u, p, ξ.
constexpr std::size_t state_width = 7;

std::vector<double> own_state(const FlowPart& part) {
  const FlowState s = part.state();
  std::vector<double> out;
  out.reserve(state_width * part.owned());
  for (std::size_t i = 0; i < part.owned(); ++i) {
    out.insert(out.end(), s.velocity[i].begin(), s.velocity[i].end());
    out.push_back(s.pressure[i]);
    out.insert(out.end(), s.projection[i].begin(), s.projection[i].end());
  }
  return out;
}

}  // namespace

FlowSolver::FlowSolver(const core::DeviceSet& devices, std::size_t device, const Mesh& mesh, const EdgeData& data,
                       const FlowParameters& parameters, const BoundaryConstraints& constraints)
    : positions_(mesh.nodes), data_(&data), constraints_(constraints), parameters_(parameters) {
  parts_.resize(1);
  parts_[0].solver = std::make_unique<FlowPart>(devices, device, positions_, data, parameters, constraints);
  set_state(rest_state());
}

FlowSolver::FlowSolver(const core::DeviceSet& devices, const Mesh& mesh, const EdgeData& data,
                       const FlowParameters& parameters, const BoundaryConstraints& constraints,
                       core::Distribution distribution, core::Link* processes)
    : positions_(mesh.nodes), data_(&data), constraints_(constraints), parameters_(parameters), processes_(processes) {
  if (mesh.nodes.size() != data.node_count())
    throw core::Error("the mesh has " + std::to_string(mesh.nodes.size()) + " nodes, its edge data " +
                      std::to_string(data.node_count()));
  if (processes && devices.size() != 1)
    throw core::Error("a flow run across processes takes one device per process; this one selected " +
                      std::to_string(devices.size()));
  const core::PartPlacement placement(processes, core::distribution_weights(distribution, devices));
  total_parts_ = placement.parts();
  if (!processes && devices.size() > 1) {
    hub_ = std::make_unique<core::ThreadHub>(devices.size());
    for (std::size_t k = 0; k < devices.size(); ++k) links_.push_back(std::make_unique<core::ThreadLink>(*hub_, k));
  }
  parts_.resize(placement.local());
  if (total_parts_ > 1 && parameters.cg.preconditioner == Preconditioner::amg) {
    // Every part runs the whole mesh's V-cycle with the finest level split over the parts (DeviceAmg),
    // which needs a level below it even on a mesh small enough to solve directly.
    AmgOptions options;
    options.coarse_size = std::min(options.coarse_size, data.node_count() / 2);
    amg_ = std::make_unique<AmgHierarchy>(
        pressure_stiffness(data, fixed_node_mask(data.node_count(), constraints.pressure_nodes, "fixed pressure")),
        options);
  }
  on_parts([&](std::size_t k) {
    Part& part = parts_[k];
    if (total_parts_ == 1) {
      part.solver = std::make_unique<FlowPart>(devices, k, positions_, data, parameters, constraints);
      return;
    }
    core::Link& link = processes ? *processes : *links_[k];
    part.problem = std::make_unique<NodePart>(make_node_part(data, constraints, placement.weights(), link.rank()));
    part.halo = std::make_unique<NodeHalo>(devices, k, link, *part.problem);
    part.solver = std::make_unique<FlowPart>(devices, k, positions_, part.problem->data, parameters,
                                             part.problem->constraints, part.halo.get(), amg_.get());
  });
  set_state(rest_state());
}

FlowSolver::~FlowSolver() = default;
FlowSolver::FlowSolver(FlowSolver&&) noexcept = default;

void FlowSolver::on_parts(const std::function<void(std::size_t)>& body) {
  if (hub_) {
    core::run_on_threads(*hub_, body);
  } else {
    for (std::size_t k = 0; k < parts_.size(); ++k) body(k);
  }
}

FlowState FlowSolver::rest_state() const {
  const std::size_t n = node_count();
  const MomentumParameters& m = parameters_.momentum;
  const Vec3 hydrostatic{m.density * m.body_force[0], m.density * m.body_force[1], m.density * m.body_force[2]};
  return FlowState{std::vector<Vec3>(n, Vec3{0, 0, 0}), std::vector<double>(n, 0.0), std::vector<Vec3>(n, hydrostatic),
                   0, 0};
}

void FlowSolver::set_state(const FlowState& state) {
  const std::size_t n = node_count();
  if (state.velocity.size() != n || state.pressure.size() != n || state.projection.size() != n)
    throw core::Error("a flow state needs one velocity, pressure and projection per node (" + std::to_string(n) +
                      "), got " + std::to_string(state.velocity.size()) + ", " + std::to_string(state.pressure.size()) +
                      " and " + std::to_string(state.projection.size()));
  on_parts([&](std::size_t k) {
    const Part& part = parts_[k];
    if (!part.problem) return part.solver->set_state(state);
    const std::size_t local = part.problem->local_count();
    FlowState mine{std::vector<Vec3>(local), std::vector<double>(local), std::vector<Vec3>(local), state.time,
                   state.step};
    for (std::size_t i = 0; i < local; ++i) {
      const std::uint32_t g = part.problem->global(i);
      mine.velocity[i] = state.velocity[g];
      mine.pressure[i] = state.pressure[g];
      mine.projection[i] = state.projection[g];
    }
    part.solver->set_state(mine);
  });
}

std::vector<double> FlowSolver::gather(const std::function<std::vector<double>(const FlowPart&)>& local,
                                       std::size_t width) const {
  if (!parts_.front().problem) return local(*parts_.front().solver);
  std::vector<double> all(width * node_count());
  for (const Part& part : parts_) {
    const std::vector<double> own = local(*part.solver);
    std::copy(own.begin(), own.begin() + static_cast<std::ptrdiff_t>(width * part.problem->owned),
              all.begin() + static_cast<std::ptrdiff_t>(width * part.problem->first));
  }
  if (!processes_) return all;
  // The parts are contiguous ranges in rank order, so the ranks' shares concatenate to the field.
  const NodePart& own = *parts_.front().problem;
  const auto begin = all.begin() + static_cast<std::ptrdiff_t>(width * own.first);
  const std::vector<double> mine(begin, begin + static_cast<std::ptrdiff_t>(width * own.owned));
  all.clear();
  for (const std::vector<double>& theirs : processes_->all_gather(mine))
    all.insert(all.end(), theirs.begin(), theirs.end());
  return all;
}

FlowState FlowSolver::state() const {
  if (!parts_.front().problem) return parts_.front().solver->state();
  const std::vector<double> all = gather(own_state, state_width);
  const std::size_t n = node_count();
  FlowState s{std::vector<Vec3>(n), std::vector<double>(n), std::vector<Vec3>(n), time(), step()};
  for (std::size_t i = 0; i < n; ++i) {
    const double* v = all.data() + state_width * i;
    s.velocity[i] = {v[0], v[1], v[2]};
    s.pressure[i] = v[3];
    s.projection[i] = {v[4], v[5], v[6]};
  }
  return s;
}

std::vector<Vec3> FlowSolver::velocity() const {
  if (!parts_.front().problem) return parts_.front().solver->velocity();
  const std::vector<double> all = gather(
      [](const FlowPart& part) {
        std::vector<double> out;
        for (const Vec3& v : part.velocity()) out.insert(out.end(), v.begin(), v.end());
        return out;
      },
      3);
  std::vector<Vec3> u(node_count());
  for (std::size_t i = 0; i < u.size(); ++i) u[i] = {all[3 * i], all[3 * i + 1], all[3 * i + 2]};
  return u;
}

std::vector<double> FlowSolver::pressure() const {
  return gather([](const FlowPart& part) { return part.pressure(); }, 1);
}

double FlowSolver::stable_dt(double courant) const {
  const double rate = diagnostics().stability_rate;
  return rate > 0 ? courant / rate : std::numeric_limits<double>::infinity();
}

void FlowSolver::set_dirichlet_values(std::span<const Vec3> given) {
  if (given.size() != constraints_.dirichlet_nodes.size())
    throw core::Error("the flow has " + std::to_string(constraints_.dirichlet_nodes.size()) +
                      " Dirichlet nodes, got values for " + std::to_string(given.size()));
  std::vector<Vec3> values(given.begin(), given.end());
  const double imbalance = balance_closed_flux(constraints_, values);
  if (imbalance > kMaxClosedFluxImbalance)
    throw core::Error("the Dirichlet values let in or out " + core::number_text(100 * imbalance, 3) +
                      " % of the flow through them net, in a domain without an outlet");
  for (Part& part : parts_) {
    if (!part.problem) {
      part.solver->set_dirichlet_values(values);
      continue;
    }
    const std::vector<std::uint32_t>& global_nodes = constraints_.dirichlet_nodes;
    std::vector<Vec3> mine;
    for (std::uint32_t local : part.problem->constraints.dirichlet_nodes) {
      const auto at = std::lower_bound(global_nodes.begin(), global_nodes.end(), part.problem->global(local));
      mine.push_back(values[static_cast<std::size_t>(at - global_nodes.begin())]);
    }
    part.solver->set_dirichlet_values(mine);
  }
}

StepReport FlowSolver::advance(double dt) {
  std::vector<StepReport> reports(parts_.size());
  on_parts([&](std::size_t k) { reports[k] = parts_[k].solver->advance(dt); });
  return reports.front();
}

}  // namespace hetflow::fem
