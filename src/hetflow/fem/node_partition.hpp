#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "hetflow/fem/boundary_conditions.hpp"
#include "hetflow/fem/edge_data.hpp"

namespace hetflow::fem {

// One part of a node partition (docs/fem.md, Several devices). Local numbering: the part's own nodes
// [0, owned) in global order (global first + i), then its halo: the other parts' nodes that own rows
// reference, grouped by owning part in part order and sorted by global index within a group.
struct NodePart {
  std::size_t part = 0;                 // its index among the parts
  std::size_t first = 0;                // global index of own node 0
  std::size_t owned = 0;                // own node count
  std::vector<std::uint32_t> halo;      // global index of local node owned + k
  std::vector<std::size_t> halo_begin;  // parts + 1 offsets: halo[halo_begin[j] .. halo_begin[j+1]) are owned by
                                        // part j (empty for j == part)
  // Per part j: the local (own) indices of the nodes in part j's halo, in the order of j's halo (empty
  // for j == part).
  std::vector<std::vector<std::uint32_t>> send;
  // The local problem: own rows are the global rows in local indices, each row sorted ascending by local
  // index with its records; halo rows are empty; node arrays cover own and halo nodes; the pressure
  // pattern follows the graph by EdgeData's rule, so a halo row holds just its diagonal.
  EdgeData data;
  // The global constraints restricted to the local nodes, in local indices, every list sorted by local
  // index with its values carried along; reference_pressure_node mapped when it is local, else empty.
  BoundaryConstraints constraints;

  std::size_t local_count() const { return owned + halo.size(); }
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
