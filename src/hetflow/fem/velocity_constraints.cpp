#include "hetflow/fem/velocity_constraints.hpp"

#include <string>
#include <vector>

#include "hetflow/core/build_options.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/kernel_args.hpp"
#include "hetflow/core/program.hpp"

namespace hetflow::fem {
namespace {

// The kernel's entry list: nodes, 3-vectors and ramp times in the order creases, corners, slip nodes,
// Dirichlet nodes (corners carry a zero vector, and all but Dirichlet nodes a zero ramp time).
struct Entries {
  std::vector<std::uint32_t> nodes;
  std::vector<double> directions, ramp_times;

  void add(std::uint32_t node, const Vec3& direction, double ramp_time) {
    nodes.push_back(node);
    directions.insert(directions.end(), direction.begin(), direction.end());
    ramp_times.push_back(ramp_time);
  }
};

}  // namespace

VelocityConstraints::VelocityConstraints(const core::DeviceSet& devices, std::size_t device,
                                         const BoundaryConstraints& constraints, std::size_t node_count)
    : launch_(devices, device, node_count, "the velocity constraints") {
  check_constraints(constraints, node_count);
  Entries entries;
  for (std::size_t k = 0; k < constraints.crease_nodes.size(); ++k)
    entries.add(constraints.crease_nodes[k], constraints.crease_tangents[k], 0);
  const auto crease_end = static_cast<cl_uint>(entries.nodes.size());
  for (std::uint32_t node : constraints.corner_nodes) entries.add(node, {0, 0, 0}, 0);
  const auto corner_end = static_cast<cl_uint>(entries.nodes.size());
  for (std::size_t k = 0; k < constraints.slip_nodes.size(); ++k)
    entries.add(constraints.slip_nodes[k], constraints.slip_normals[k], 0);
  const auto slip_end = static_cast<cl_uint>(entries.nodes.size());
  dirichlet_begin_ = slip_end;
  for (std::size_t k = 0; k < constraints.dirichlet_nodes.size(); ++k)
    entries.add(constraints.dirichlet_nodes[k], constraints.dirichlet_values[k], constraints.dirichlet_ramp_times[k]);
  count_ = static_cast<cl_uint>(entries.nodes.size());
  if (count_ == 0) return;
  const core::Context& context = devices.context(device);
  nodes_ = core::upload(launch_.queue(), entries.nodes, CL_MEM_READ_ONLY);
  directions_ = core::upload(launch_.queue(), entries.directions, CL_MEM_READ_ONLY);
  ramp_times_ = core::upload(launch_.queue(), entries.ramp_times, CL_MEM_READ_ONLY);
  kernel_ = context.program("fem/fem_constraints.cl", core::BuildOptions(core::Precision::f64))
                .kernel("fem_velocity_constraints");
  core::KernelArgs args(kernel_);
  args.add(count_).add(crease_end).add(corner_end).add(slip_end).add(nodes_).add(directions_).add(ramp_times_);
  time_arg_ = args.next();
}

void VelocityConstraints::apply(const core::Buffer<double>& velocity, double time) {
  launch_.check_size(velocity, 3, "velocity");
  if (count_ == 0) return;
  core::KernelArgs(kernel_, time_arg_).add(time).add(velocity);
  launch_.launch(kernel_);
}

void VelocityConstraints::set_dirichlet_values(std::span<const Vec3> values) {
  if (values.size() != count_ - dirichlet_begin_)
    throw core::Error("Dirichlet values: " + std::to_string(values.size()) + " given for " +
                      std::to_string(count_ - dirichlet_begin_) + " Dirichlet nodes");
  if (values.empty()) return;
  std::vector<double> packed;
  packed.reserve(3 * values.size());
  for (const Vec3& v : values) packed.insert(packed.end(), v.begin(), v.end());
  directions_.write(launch_.queue(), packed, 3 * std::size_t{dirichlet_begin_});
}

}  // namespace hetflow::fem
