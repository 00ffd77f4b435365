#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "hetflow/fem/boundary_conditions.hpp"
#include "hetflow/fem/edge_data.hpp"
#include "hetflow/fem/halo_layout.hpp"

namespace hetflow::fem {

// One part of a node partition (docs/fem.md, Several devices): a HaloLayout of the nodes whose own nodes
// are the global range [first, first + owned) in global order (global first + i).
struct NodePart : HaloLayout {
  std::size_t first = 0;  // global index of own node 0
  // The local problem: own rows are the global rows in local indices, each row sorted ascending by local
  // index with its records; halo rows are empty; node arrays cover own and halo nodes; the pressure
  // pattern follows the graph by EdgeData's rule, so a halo row holds just its diagonal.
  EdgeData data;
  // The global constraints restricted to the local nodes, in local indices, every list sorted by local
  // index with its values carried along; reference_pressure_node mapped when it is local, else empty.
  BoundaryConstraints constraints;

  // The global index of a local node; throws std::out_of_range from local_count() on.
  std::uint32_t global(std::size_t local) const;
};

// Part `part` of the contiguous split of data.node_count() nodes by `weights`, one per part, with
// core::Partition's largest-remainder rounding. The nodes are expected in a locality order (Morton or
// RCM), so contiguous ranges are compact pieces of the mesh. Throws core::Error when a part would own no
// node, for a part index out of range, for weights core::Partition refuses, and for constraints that do
// not fit the nodes.
NodePart make_node_part(const EdgeData& data, const BoundaryConstraints& constraints, std::span<const double> weights,
                        std::size_t part);

}  // namespace hetflow::fem
